import type { components } from '../../../openapi/schema';
import { randomBytes } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from '../../db';
import { nowIso } from '../../db';
import {
  deleteDownloads,
  deleteOwnDownload,
  findDownloadPage,
  findExpiredDownloads,
  findLiveDownload,
  insertDownload,
} from '../../db/repos/downloads';
import { badRequest, notFound, tooLarge } from '../../errors';
import type { DownloadsTable } from '../../db/schema';

/**
 * The download center (route `download`): files produced for a user (exports of documents, dictionaries ...)
 * kept for `ttlDays` (default 7, at most 30) and listed / fetched by their owner only.
 *
 * The bytes live in `DATA_DIR/downloads/<file_key>` (a random name, never derived from user input); the row in
 * `downloads` holds the name shown to the user, the type and the expiry. Expired files are swept at start and
 * every hour (`cleanupExpiredDownloads`), and are never listed or served after `expires_at` even before the sweep.
 */

export const DOWNLOAD_TTL_DAYS = 7;
export const DOWNLOAD_MAX_TTL_DAYS = 30;
export const DOWNLOAD_MAX_BYTES = 200 * 1024 * 1024;

/** A download as the contract describes it. */
export type DownloadView = components['schemas']['DownloadFile'];

export interface NewDownload {
  /** File name shown and offered when saving (path separators and control characters are replaced). */
  name: string;
  mime: string;
  data: Buffer | Uint8Array | string;
  ttlDays?: number;
}

const DAY_MS = 86_400_000;
const downloadsDir = (dataDir: string) => join(dataDir, 'downloads');

const toView = (r: Omit<DownloadsTable, 'id' | 'uid' | 'file_key'> & { id: number }): DownloadView => ({
  id: Number(r.id),
  name: r.name,
  mime: r.mime,
  size: Number(r.size),
  created_at: r.created_at,
  expires_at: r.expires_at,
});

/** A file name safe to show and to put in Content-Disposition. */
export function cleanFileName(name: string): string {
  const cleaned = name
    .replace(/[\\/:*?"<>|\u0000-\u001f\u007f]+/g, '_')
    .trim()
    .replace(/^\.+/, '');
  return (cleaned || 'download').slice(0, 200);
}

/** Stores a file for the user; other services call this after producing an export. Returns its row. */
export async function recordDownload(db: Db, dataDir: string, uid: number, file: NewDownload): Promise<DownloadView> {
  const data =
    typeof file.data === 'string'
      ? Buffer.from(file.data, 'utf8')
      : Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength);
  if (data.length > DOWNLOAD_MAX_BYTES) throw tooLarge('download.too_large');
  const ttlDays = file.ttlDays ?? DOWNLOAD_TTL_DAYS;
  if (!(ttlDays > 0 && ttlDays <= DOWNLOAD_MAX_TTL_DAYS))
    throw badRequest('download.bad_ttl', { max: DOWNLOAD_MAX_TTL_DAYS });
  const mime = /^[\w.+-]+\/[\w.+-]+(;.*)?$/.test(file.mime) ? file.mime : 'application/octet-stream';
  const fileKey = randomBytes(16).toString('hex');
  const dir = downloadsDir(dataDir);
  await mkdir(dir, { recursive: true });
  // Written under a temporary name first, so a crash never leaves a half file behind a row.
  const target = join(dir, fileKey);
  await writeFile(`${target}.part`, data);
  await rename(`${target}.part`, target);
  const now = new Date();
  try {
    const row = await insertDownload(db, {
      uid,
      name: cleanFileName(file.name),
      mime,
      size: data.length,
      file_key: fileKey,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + ttlDays * DAY_MS).toISOString(),
    });
    return toView(row);
  } catch (error) {
    await unlink(target).catch(() => {});
    throw error;
  }
}

/** The user's live files, newest first. */
export async function listDownloads(db: Db, uid: number, page: { num: number; size: number }) {
  const { total, rows } = await findDownloadPage(db, uid, nowIso(), page);
  return { total, num: page.num, size: page.size, list: rows.map(toView) };
}

const GONE = 'download.unknown';

/** One live file of the user, opened for streaming; 404 for unknown ids, other users' files and expired ones. */
export async function openDownload(
  db: Db,
  dataDir: string,
  uid: number,
  id: number,
): Promise<DownloadView & { stream: ReadStream }> {
  const row = await findLiveDownload(db, uid, id, nowIso());
  if (!row) throw notFound(GONE);
  const path = join(downloadsDir(dataDir), row.file_key);
  const exists = await stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!exists) throw notFound(GONE);
  return { ...toView(row), stream: createReadStream(path) };
}

/** Deletes one of the user's files (row and bytes); 404 for unknown ids and other users' files. */
export async function deleteDownload(db: Db, dataDir: string, uid: number, id: number): Promise<void> {
  const fileKey = await deleteOwnDownload(db, uid, id);
  if (fileKey === undefined) throw notFound(GONE);
  await unlink(join(downloadsDir(dataDir), fileKey)).catch(() => {});
}

/** Deletes expired rows and their files (in batches); returns how many were removed. */
export async function cleanupExpiredDownloads(db: Db, dataDir: string, now = nowIso()): Promise<number> {
  let removed = 0;
  for (;;) {
    const expired = await findExpiredDownloads(db, now, 500);
    if (expired.length === 0) return removed;
    const ids = expired.map((r) => r.id);
    await deleteDownloads(db, ids);
    for (const r of expired) await unlink(join(downloadsDir(dataDir), r.file_key)).catch(() => {});
    removed += expired.length;
  }
}
