// The download center (route `download`).
import type { components } from '../../openapi/schema';
import { api, unwrap, type UnwrapOptions } from './client';

export type DownloadFile = components['schemas']['DownloadFile'];

export async function downloadPage(num: number, size: number, options: UnwrapOptions = {}) {
  return unwrap(api.GET('/user/download/page', { params: { query: { num, size } } }), options);
}

/** The file's bytes (the bearer token rides on the call, so a plain link would not do). */
export async function downloadFile(id: number): Promise<Blob> {
  return unwrap(api.GET('/user/download/file', { params: { query: { id } }, parseAs: 'blob' }));
}

export async function deleteDownload(id: number): Promise<void> {
  await unwrap(api.POST('/user/download/delete', { body: { id } }));
}
