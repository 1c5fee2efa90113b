// Calls of the link proofreading screen (/misscut/website/*), typed by the contract.
import type { components } from '../../openapi/schema';
import { api, unwrap } from '../api/client';
import { rememberServerMessage } from '../api/serverMessages';

export type Website = components['schemas']['Website'];
export type WebsiteResult = NonNullable<Website['last_result']>;
export type WebsitePage = WebsiteResult['pages'][number];

export interface WebsiteInput {
  url: string;
  name?: string;
  depth: number;
  page_limit: number;
}

export interface WebsiteList {
  list: Website[];
  total: number;
  num: number;
  size: number;
}

/** A failed check's reason keeps its code, so whoever shows it shows it in the reader's language. */
export function rememberWebsiteError(site: { error?: string; error_code?: string; error_params?: unknown }): void {
  if (site.error) rememberServerMessage(site.error, site.error_code, site.error_params);
}

export async function websiteList(num: number, size: number): Promise<WebsiteList> {
  const page = await unwrap(api.GET('/misscut/website/get_list', { params: { query: { num, size } } }));
  page.list.forEach(rememberWebsiteError);
  return page;
}

/** The same address as the user typed it, as the server stores it (no fragment). */
export function sameAddress(a: string, b: string): boolean {
  try {
    const x = new URL(a.trim());
    const y = new URL(b.trim());
    x.hash = '';
    y.hash = '';
    return x.href === y.href;
  } catch {
    return false;
  }
}

export function addWebsite(body: WebsiteInput): Promise<Website> {
  return unwrap(api.POST('/misscut/website/add_one', { body }));
}

/** The user's website for an address: the one already there (among their newest), or a new one. */
export async function addOrFindWebsite(body: WebsiteInput): Promise<Website> {
  const page = await websiteList(1, 100);
  return page.list.find((w) => sameAddress(w.url, body.url)) ?? addWebsite(body);
}

export function updateWebsite(body: { id: number } & Partial<WebsiteInput>): Promise<Website> {
  return unwrap(api.POST('/misscut/website/update_one', { body }));
}

export async function deleteWebsite(id: number): Promise<void> {
  await unwrap(api.POST('/misscut/website/delete_one', { body: { id } }));
}

export function checkWebsite(id: number): Promise<Website> {
  return unwrap(api.POST('/misscut/website/check', { body: { id } }));
}

/** The last check's report (CSV). */
export function websiteReport(id: number): Promise<Blob> {
  return unwrap(api.GET('/misscut/website/download', { params: { query: { id } }, parseAs: 'blob' }));
}
