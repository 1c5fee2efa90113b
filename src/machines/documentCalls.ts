// Calls of the document screens, typed by the contract.
import type { QueryClient } from '@tanstack/react-query';
import type { components } from '../../openapi/schema';
import type { DocumentFlagData } from '../../openapi/socket-protocol';
import { api, unwrap } from '../api/client';
import { uploadMultipart, type UploadOptions } from '../api/upload';
import { rememberServerMessage } from '../api/serverMessages';
import type { JobUpdate } from './uploadPipeline';

export type DocumentSummary = components['schemas']['DocumentSummary'];
export type DocumentDetail = components['schemas']['DocumentDetail'];

export const DOCUMENT_UPLOAD_PATH = '/misscut/document/v1/upload';

export interface DocumentPage {
  list: DocumentSummary[];
  total: number;
  num: number;
  size: number;
}

/** The query key of the document list's pages. */
export const documentsKey = ['misscut', 'documents'] as const;

/**
 * A document's job moved on (a socket flag): its row in the cached pages follows at once; a job that ended, or a
 * document no page holds yet, reloads the pages.
 */
export function applyDocumentFlag(queryClient: QueryClient, data: DocumentFlagData): void {
  rememberDocumentError(data);
  let known = false;
  queryClient.setQueriesData<DocumentPage>({ queryKey: documentsKey }, (page) => {
    if (!page) return page;
    const list = page.list.map((d) => {
      if (d.id !== data.id) return d;
      known = true;
      return {
        ...d,
        status: data.status,
        progress: data.progress,
        issue_count: data.issue_count ?? d.issue_count,
        ...(data.error ? { error: data.error } : {}),
      };
    });
    return { ...page, list };
  });
  if (!known || data.status === 'done' || data.status === 'failed' || data.status === 'cancelled')
    void queryClient.invalidateQueries({ queryKey: documentsKey });
}

/** The job a document summary describes. */
export function documentJob(doc: DocumentSummary): JobUpdate {
  rememberDocumentError(doc);
  return {
    id: doc.id,
    status: doc.status,
    progress: doc.status === 'done' ? 100 : doc.progress,
    issueCount: doc.issue_count,
    ...(doc.error ? { error: doc.error } : {}),
  };
}

export function uploadDocument(file: Blob, name: string, options: UploadOptions) {
  return uploadMultipart<DocumentSummary>(DOCUMENT_UPLOAD_PATH, file, name, options);
}

/**
 * A failed job's reason keeps its code (from a summary, a detail or a socket flag), so whoever shows the text shows
 * it in the reader's language.
 */
function rememberDocumentError(doc: { error?: string; error_code?: string; error_params?: unknown }): void {
  if (doc.error) rememberServerMessage(doc.error, doc.error_code, doc.error_params);
}

export async function documentPage(num: number, size: number, keyword?: string) {
  const page = await unwrap(
    api.GET('/misscut/document/v1/page', { params: { query: { num, size, ...(keyword ? { keyword } : {}) } } }),
  );
  page.list.forEach(rememberDocumentError);
  return page;
}

/** A document's job state, looked up among the newest documents (null when it is not among them). */
export async function documentJobStatus(id: number): Promise<JobUpdate | null> {
  const page = await unwrap(api.GET('/misscut/document/v1/page', { params: { query: { num: 1, size: 100 } } }), {
    silent: true,
  });
  const doc = page.list.find((d) => d.id === id);
  return doc ? documentJob(doc) : null;
}

export function cancelDocument(id: number) {
  return unwrap(api.POST('/misscut/document/v1/cancel', { body: { id } }), { silent: true });
}

export function deleteDocuments(ids: number[]) {
  return unwrap(api.POST('/misscut/document/v1/delete', { body: { ids } }));
}

export async function documentDetail(id: number) {
  const doc = await unwrap(api.GET('/misscut/document/v1/edit_upload_get', { params: { query: { id } } }));
  rememberDocumentError(doc);
  return doc;
}

export type DocumentFix = components['schemas']['DocumentFix'];
export type DocumentIgnored = components['schemas']['DocumentIgnored'];

export function saveDocument(body: {
  id: number;
  text: string;
  fixes: DocumentFix[];
  ignored: DocumentIgnored[];
  name?: string;
}) {
  return unwrap(api.POST('/misscut/document/v1/edit_upload_save', { body: body }));
}

export function shareId(id: number) {
  return unwrap(api.GET('/misscut/document/v1/get_share_id', { params: { query: { id } } }));
}

export function sharedDocument(shareIdValue: string) {
  return unwrap(api.GET('/misscut/document/v1/get_share_doc', { params: { query: { share_id: shareIdValue } } }));
}

export function saveSharedCopy(shareIdValue: string) {
  return unwrap(api.GET('/misscut/document/v1/share_save', { params: { query: { share_id: shareIdValue } } }));
}

/** The document as .docx: `clean`, or `tracked` (accepted fixes as tracked changes, open findings as comments). */
/** An exported .docx and the name the server gave it (the download center keeps it under the same name). */
export interface ExportedFile {
  blob: Blob;
  name: string | null;
}

export async function exportDocument(id: number, mode: 'clean' | 'tracked'): Promise<ExportedFile> {
  const call = api.POST('/misscut/document/v1/export', { body: { id, mode }, parseAs: 'blob' });
  const blob = await unwrap(call);
  const { response } = await call;
  return { blob, name: attachmentName(response.headers.get('content-disposition')) };
}

/** The file name of a Content-Disposition header: its UTF-8 `filename*`, else its plain `filename`. */
export function attachmentName(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // a malformed escape: the plain name below
    }
  }
  const plain = /filename="([^"]*)"/i.exec(header);
  return plain?.[1] || null;
}

/** The server's name of an export (routes/document/documents.ts): the title, （修订） for a tracked one, .docx. */
export function exportFileName(documentName: string, mode: 'clean' | 'tracked'): string {
  const title = documentName.replace(/\.[A-Za-z0-9]+$/, '').replace(/[\\/:*?"<>|\r\n]+/g, '_');
  return `${title}${mode === 'tracked' ? '（修订）' : ''}.docx`;
}
