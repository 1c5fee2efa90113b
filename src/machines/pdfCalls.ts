// Calls of the PDF screens (/misscut/v2/pdf_check/*), typed by the contract.
import type { components, operations } from '../../openapi/schema';
import { api, unwrap } from '../api/client';
import { rememberServerMessage } from '../api/serverMessages';
import { uploadMultipart, type UploadOptions } from '../api/upload';

export type PdfSummary = components['schemas']['PdfSummary'];
type ResultOk = operations['getMisscutV2PdfCheckResult']['responses']['200']['content']['application/json'];
export type PdfResult = ResultOk['result'];
export type PdfPage = PdfResult['pages'][number];

export const PDF_UPLOAD_PATH = '/misscut/v2/pdf_check/upload';

export interface PdfList {
  list: PdfSummary[];
  total: number;
  num: number;
  size: number;
}

/** A failed check's reason keeps its code, so whoever shows it shows it in the reader's language. */
export function rememberPdfError(pdf: { error?: string; error_code?: string; error_params?: unknown }): void {
  if (pdf.error) rememberServerMessage(pdf.error, pdf.error_code, pdf.error_params);
}

export function uploadPdf(file: Blob, name: string, options: UploadOptions): Promise<PdfSummary> {
  return uploadMultipart<PdfSummary>(PDF_UPLOAD_PATH, file, name, options);
}

export async function pdfList(num: number, size: number): Promise<PdfList> {
  const page = await unwrap(api.GET('/misscut/v2/pdf_check/page', { params: { query: { num, size } } }));
  page.list.forEach(rememberPdfError);
  return page;
}

export async function pdfResult(id: number): Promise<PdfResult> {
  const result = await unwrap(api.GET('/misscut/v2/pdf_check/result', { params: { query: { id } } }));
  rememberPdfError(result);
  return result;
}

/** A checked page drawn as PNG (the bearer token rides on the call, so an <img src> would not do). */
export function pdfPageImage(id: number, page: number): Promise<Blob> {
  return unwrap(api.GET('/misscut/v2/pdf_check/page_image', { params: { query: { id, page } }, parseAs: 'blob' }));
}

export async function cancelPdf(id: number): Promise<void> {
  await unwrap(api.POST('/misscut/v2/pdf_check/cancel', { body: { id } }));
}

export async function deletePdf(id: number): Promise<void> {
  await unwrap(api.DELETE('/misscut/v2/pdf_check/delete/{id}', { params: { path: { id } } }));
}

/** The checked PDF with highlights and comments, or the findings as a spreadsheet. */
export function exportPdf(id: number, format: 'pdf' | 'xlsx'): Promise<Blob> {
  return unwrap(api.GET('/misscut/v2/pdf_check/export', { params: { query: { id, format } }, parseAs: 'blob' }));
}
