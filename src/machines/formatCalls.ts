// Format check: templates and the report of POST /misscut/v1/doc/format_check, typed by the contract.
import { api, unwrap } from '../api/client';
import type { paths } from '../../openapi/schema';
import { uploadMultipart, type UploadOptions } from '../api/upload';

export type FormatReport =
  paths['/misscut/v1/doc/format_check']['post']['responses'][200]['content']['application/json']['result'];
export type FormatViolation = FormatReport['violations'][number];
export type FormatElement = FormatReport['elements'][number];
export type FormatTemplate =
  paths['/misscut/v1/doc/template_types']['get']['responses'][200]['content']['application/json']['result'][number];

export const FORMAT_CHECK_PATH = '/misscut/v1/doc/format_check';
export const FORMAT_ACCEPT = '.docx';

export function templateTypes() {
  return unwrap(api.GET('/misscut/v1/doc/template_types', {}));
}

/** Uploads the .docx with the template; the answer is the report (no server-side job). */
export function checkFormatFile(file: File, options: UploadOptions) {
  return uploadMultipart<FormatReport>(FORMAT_CHECK_PATH, file, file.name, options);
}
