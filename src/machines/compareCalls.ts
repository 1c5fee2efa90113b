// Document compare: the result of POST /misscut/v1/doc/diff, typed by the contract,
// and the rights that limit it (4096 docCompare, 262144 compareMaxPages, 524288 compareMaxSize).
import type { paths } from '../../openapi/schema';
import { uploadMultipart, type UploadOptions } from '../api/upload';

export type CompareResult = NonNullable<
  paths['/misscut/v1/doc/diff']['post']['responses'][200]['content']['application/json']['result']
>;
export type CompareChange = CompareResult['changes'][number];
export type CompareRow = NonNullable<CompareResult['rows']>[number];

export const COMPARE_PATH = '/misscut/v1/doc/diff';
export const COMPARE_ACCEPT = '.docx,.txt,.md,.pdf';

export const compareRights = { docCompare: 4096, compareMaxPages: 262144, compareMaxSize: 524288 } as const;

/**
 * Uploads both documents (`file` original, `compare_file` revised); the answer is the comparison. A 413
 * keeps the server's message, which names the limit (pages or MB) and the file.
 */
export function compareFiles(original: File, revised: File, options: UploadOptions) {
  return uploadMultipart<CompareResult>(COMPARE_PATH, original, original.name, {
    ...options,
    files: { compare_file: revised },
    serverLimitMessage: true,
  });
}
