// Calls of the image screen (/misscut/v1/image/*), typed by the contract.
import type { components } from '../../openapi/schema';
import { api, unwrap } from '../api/client';
import { rememberServerMessage } from '../api/serverMessages';
import { uploadMultipart, type UploadOptions } from '../api/upload';

export type ImageResult = components['schemas']['ImageResult'];

export const IMAGE_UPLOAD_PATH = '/misscut/v1/image/check';

/** A failed task's reason keeps its code, so whoever shows it shows it in the reader's language. */
export function rememberImageError(result: { error?: string; error_code?: string; error_params?: unknown }) {
  if (result.error) rememberServerMessage(result.error, result.error_code, result.error_params);
}

export function uploadImage(file: Blob, name: string, options: UploadOptions = {}): Promise<{ task_id: number }> {
  return uploadMultipart<{ task_id: number }>(IMAGE_UPLOAD_PATH, file, name, options);
}

export async function imageResult(taskId: number): Promise<ImageResult> {
  const result = await unwrap(api.GET('/misscut/v1/image/result', { params: { query: { task_id: taskId } } }), {
    silent: true,
  });
  rememberImageError(result);
  return result;
}

export async function recheckImage(taskId: number, text: string): Promise<ImageResult> {
  return unwrap(api.POST('/misscut/v1/image/recheck', { body: { task_id: taskId, text } }));
}
