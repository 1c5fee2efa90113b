import { inflateRawSync } from 'node:zlib';
import { badRequest, tooLarge } from '../../errors';

/** Limits applied before anything is inflated (zip bombs, entry floods). */
export interface ZipLimits {
  maxEntries: number;
  maxTotalBytes: number;
  maxRatio: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 5000,
  maxTotalBytes: 200 * 1024 * 1024,
  maxRatio: 200,
};

/** Entries (and archives) smaller than this are not held to the ratio: they cannot hurt. */
const RATIO_FLOOR = 256 * 1024;

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const inflatesTooFar = () => tooLarge('document.zip_bomb');
// what is wrong with the archive is for the reader of this code; the person uploading it is told it is not a .docx
const corrupt = (_why: string) => badRequest('document.corrupt_docx');

export const isZip = (data: Buffer) => data.length >= 4 && data.readUInt32LE(0) === 0x04034b50;

/** Reads the central directory only (nothing inflated) and checks the declared sizes against the limits. */
export function listZip(data: Buffer, limits: ZipLimits = DEFAULT_ZIP_LIMITS): ZipEntry[] {
  if (!isZip(data)) throw corrupt('no zip signature');
  // End of central directory: search backwards over the maximal comment length.
  let eocd = -1;
  for (let i = data.length - 22; i >= Math.max(0, data.length - 22 - 0xffff); i--) {
    if (data.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw corrupt('no end of central directory');
  const count = data.readUInt16LE(eocd + 10);
  const cdSize = data.readUInt32LE(eocd + 12);
  const cdOffset = data.readUInt32LE(eocd + 16);
  if (count === 0xffff || cdOffset === 0xffffffff) throw corrupt('zip64 is not supported');
  if (count > limits.maxEntries) throw tooLarge('document.too_many_entries', { count, max: limits.maxEntries });
  if (cdOffset + cdSize > data.length) throw corrupt('central directory out of range');
  const entries: ZipEntry[] = [];
  let total = 0;
  let compressedTotal = 0;
  let p = cdOffset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > data.length || data.readUInt32LE(p) !== 0x02014b50) throw corrupt('bad central directory entry');
    const flags = data.readUInt16LE(p + 8);
    const method = data.readUInt16LE(p + 10);
    const compressedSize = data.readUInt32LE(p + 20);
    const size = data.readUInt32LE(p + 24);
    const nameLen = data.readUInt16LE(p + 28);
    const extraLen = data.readUInt16LE(p + 30);
    const commentLen = data.readUInt16LE(p + 32);
    const localOffset = data.readUInt32LE(p + 42);
    const name = data.subarray(p + 46, p + 46 + nameLen).toString(flags & 0x800 ? 'utf8' : 'latin1');
    p += 46 + nameLen + extraLen + commentLen;
    if (flags & 1) throw badRequest('document.encrypted');
    if (method !== 0 && method !== 8) throw corrupt(`unsupported compression method ${method}`);
    total += size;
    compressedTotal += compressedSize;
    if (total > limits.maxTotalBytes) throw inflatesTooFar();
    // Small entries may compress very well (an empty style part); a large one that does is a bomb.
    if (size > RATIO_FLOOR && size > compressedSize * limits.maxRatio) throw inflatesTooFar();
    entries.push({ name, method, compressedSize, size, localOffset });
  }
  // Many entries each just under the floor add up: the ratio holds over the whole archive too.
  if (total > RATIO_FLOOR && total > compressedTotal * limits.maxRatio) throw inflatesTooFar();
  return entries;
}

/**
 * Inflates every entry with the output capped at its declared size, so a lying header cannot
 * blow up memory either. Returns the entries by name.
 */
export function unzip(data: Buffer, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const e of listZip(data, limits)) {
    if (e.name.endsWith('/')) continue;
    const h = e.localOffset;
    if (h + 30 > data.length || data.readUInt32LE(h) !== 0x04034b50) throw corrupt('bad local header');
    const start = h + 30 + data.readUInt16LE(h + 26) + data.readUInt16LE(h + 28);
    const raw = data.subarray(start, start + e.compressedSize);
    if (start + e.compressedSize > data.length) throw corrupt('truncated entry');
    let body: Buffer;
    if (e.method === 0) body = Buffer.from(raw);
    else {
      try {
        body = inflateRawSync(raw, { maxOutputLength: Math.max(e.size, 1) });
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw inflatesTooFar();
        throw corrupt(`cannot inflate ${e.name}`);
      }
    }
    if (body.length !== e.size) throw corrupt(`size mismatch in ${e.name}`);
    out.set(e.name, body);
  }
  return out;
}
