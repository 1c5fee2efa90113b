// Calls of the audio and video screen (/misscut/v1/audio/*, get_speech_detail), typed by the contract.
import type { components, operations } from '../../openapi/schema';
import { api, unwrap } from '../api/client';
import { rememberServerMessage } from '../api/serverMessages';
import { uploadMultipart, type UploadProgress } from '../api/upload';

export type SpeechTask = components['schemas']['SpeechTask'];
type SourcesOk = operations['getMisscutV1AudioSources']['responses']['200']['content']['application/json'];
export type SpeechSources = SourcesOk['result'];

export const SPEECH_UPLOAD_PATH = '/misscut/v1/audio/convert_file_to_mp3';

/** A failed task's reason keeps its code, so whoever shows it shows it in the reader's language. */
export function rememberSpeechError(task: { error?: string; error_code?: string; error_params?: unknown }) {
  if (task.error) rememberServerMessage(task.error, task.error_code, task.error_params);
}

export function speechSources(): Promise<SpeechSources> {
  return unwrap(api.GET('/misscut/v1/audio/sources'));
}

/** The media (or a subtitle alone) and, optionally, its subtitle file. */
export function uploadSpeech(
  media: File,
  subtitle: File | null,
  options: { onProgress?: (p: UploadProgress) => void; signal?: AbortSignal } = {},
): Promise<SpeechTask> {
  return uploadMultipart<SpeechTask>(SPEECH_UPLOAD_PATH, media, media.name, {
    ...options,
    ...(subtitle ? { files: { subtitle } } : {}),
  });
}

export async function speechDetail(taskId: number): Promise<SpeechTask> {
  const task = await unwrap(api.POST('/misscut/v1/get_speech_detail', { body: { task_id: taskId } }), {
    silent: true,
  });
  rememberSpeechError(task);
  return task;
}

/** The corrected subtitles (each finding's first suggestion applied). */
export function speechSubtitles(taskId: number, format: 'srt' | 'vtt'): Promise<Blob> {
  return unwrap(
    api.GET('/misscut/v1/audio/subtitles', { params: { query: { task_id: taskId, format } }, parseAs: 'blob' }),
  );
}
