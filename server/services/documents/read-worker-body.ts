import { parentPort, workerData } from 'node:worker_threads';
import { AppError } from '../../errors';
import { buildTrackedDocx, htmlToDocx, type TrackedOptions, type TrackedParagraph } from './docx-export';
import { readDocument, type UploadKind } from './read';

/**
 * One heavy document task off the main thread (see `inWorker` in read.ts): reading an upload (mammoth) or
 * writing a .docx (docx Packer). Posts the result or the error.
 */
export type WorkerTask =
  | { task: 'read'; filename: string; data: Uint8Array; kind: UploadKind }
  | { task: 'clean'; html: string; title: string }
  | { task: 'tracked'; paragraphs: TrackedParagraph[]; options: TrackedOptions };

export type WorkerResult = { html: string; text: string } | Uint8Array;
export type WorkerReply = { ok: true; result: WorkerResult } | { ok: false; status: number; message: string };

async function run(input: WorkerTask): Promise<WorkerResult> {
  if (input.task === 'read') {
    const data = Buffer.from(input.data.buffer, input.data.byteOffset, input.data.byteLength);
    const content = await readDocument({ filename: input.filename, mimetype: '', data }, input.kind);
    return { html: content.html, text: content.text };
  }
  if (input.task === 'clean') return htmlToDocx(input.html, input.title);
  return buildTrackedDocx(input.paragraphs, input.options);
}

try {
  parentPort!.postMessage({ ok: true, result: await run(workerData as WorkerTask) } satisfies WorkerReply);
} catch (error) {
  const reply: WorkerReply =
    error instanceof AppError ? { ok: false, status: error.statusCode, message: error.message } : { ok: false, status: 500, message: (error as Error)?.message ?? String(error) };
  parentPort!.postMessage(reply);
}
