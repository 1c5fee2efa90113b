/**
 * Images for the image check: the file's type from its first bytes and its size from its header, read by the OCR's
 * own image reader (Leptonica, compiled to WebAssembly inside tesseract.js). Uploaded pictures are never handed to
 * native decoders: @napi-rs/canvas (skia) crashes the whole process on a truncated PNG, so it only ever draws
 * pictures this server made itself.
 */
import type { ServerMessageCode } from '../../../openapi/messages';
import { badRequest } from '../../errors';

export type ImageKind = 'png' | 'jpeg' | 'webp' | 'bmp' | 'tiff' | 'gif';

/** Largest image read, in pixels (a 300 dpi A3 scan is about 17 million). */
export const MAX_PIXELS = 40_000_000;

/** The image's type by its signature; 400 for HEIC and for anything that is no image this check reads. */
export function imageKind(data: Uint8Array): ImageKind {
  const head = Buffer.from(data.buffer, data.byteOffset, Math.min(data.byteLength, 32));
  if (head.length === 0) throw badRequest('upload.empty_file');
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  if (head.toString('latin1', 0, 2) === 'BM') return 'bmp';
  if (head.toString('latin1', 0, 4) === 'II*\0' || head.toString('latin1', 0, 4) === 'MM\0*') return 'tiff';
  if (head.toString('latin1', 0, 4) === 'GIF8') return 'gif';
  if (head.toString('latin1', 4, 8) === 'ftyp') {
    const brand = head.toString('latin1', 8, 12);
    if (['heic', 'heix', 'hevc', 'hevx', 'mif1', 'msf1', 'heim', 'heis'].includes(brand))
      throw badRequest('image.heic_unsupported');
  }
  if (head[0] === 0x4d && head[1] === 0x5a) throw badRequest('document.executable');
  throw badRequest('image.type_unsupported');
}

type Size = { width: number; height: number };

/** A TIFF's first image size from its first directory (ImageWidth 256, ImageLength 257), or null. */
function tiffSize(b: Buffer): Size | null {
  if (b.length < 8) return null;
  const le = b.toString('latin1', 0, 2) === 'II';
  const u16 = (o: number) => (le ? b.readUInt16LE(o) : b.readUInt16BE(o));
  const u32 = (o: number) => (le ? b.readUInt32LE(o) : b.readUInt32BE(o));
  const ifd = u32(4);
  if (ifd + 2 > b.length) return null;
  let width = 0;
  let height = 0;
  for (let i = 0; i < u16(ifd); i++) {
    const at = ifd + 2 + i * 12;
    if (at + 12 > b.length) return null;
    const value = u16(at + 2) === 3 ? u16(at + 8) : u32(at + 8);
    if (u16(at) === 256) width = value;
    if (u16(at) === 257) height = value;
  }
  return width > 0 && height > 0 ? { width, height } : null;
}

/** A JPEG's size from its first start-of-frame marker, or null. */
function jpegSize(b: Buffer): Size | null {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1];
    const length = b.readUInt16BE(at + 2);
    // SOF0-SOF15 except DHT (c4), JPG (c8) and DAC (cc)
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker))
      return { height: b.readUInt16BE(at + 5), width: b.readUInt16BE(at + 7) };
    at += 2 + length;
  }
  return null;
}

/** A WebP's size (lossy VP8, lossless VP8L or extended VP8X), or null. */
function webpSize(b: Buffer): Size | null {
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8 ' && b.length >= 30)
    return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L' && b.length >= 25) {
    const bits = b.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X' && b.length >= 30) return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  return null;
}

/** The image's size from its header (nothing is decoded), or null when the header is not there. */
export function imageSize(data: Uint8Array): Size | null {
  const b = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  switch (imageKind(data)) {
    case 'png':
      return b.length >= 24 && b.toString('latin1', 12, 16) === 'IHDR'
        ? { width: b.readUInt32BE(16), height: b.readUInt32BE(20) }
        : null;
    case 'gif':
      return b.length >= 10 ? { width: b.readUInt16LE(6), height: b.readUInt16LE(8) } : null;
    case 'bmp':
      return b.length >= 26 ? { width: Math.abs(b.readInt32LE(18)), height: Math.abs(b.readInt32LE(22)) } : null;
    case 'jpeg':
      return jpegSize(b);
    case 'webp':
      return webpSize(b);
    case 'tiff':
      return tiffSize(b);
  }
}

/** How large an image an entry point takes: a pixel count, or a largest side (then its message). */
export type ImageBounds = { maxPixels: number } | { maxSide: number; message: ServerMessageCode };

/** Pictures to read (image checks, OCR): 40 megapixels in any shape. */
export const READ_BOUNDS: ImageBounds = { maxPixels: MAX_PIXELS };

/**
 * The image's size from its header, checked before anything decodes it (a 1 MB PNG can say 20000 × 20000, which
 * would take 1.6 GB to decode): 400 when the header cannot be read or the image is over its bounds.
 */
export function checkedImageSize(data: Uint8Array, bounds: ImageBounds = READ_BOUNDS): Size {
  const size = imageSize(data);
  if (!size || !size.width || !size.height) throw badRequest('image.unreadable');
  if ('maxPixels' in bounds) {
    if (size.width * size.height > bounds.maxPixels)
      throw badRequest('image.too_many_pixels', { mp: Math.round(bounds.maxPixels / 1e6) });
  } else if (size.width > bounds.maxSide || size.height > bounds.maxSide) {
    throw badRequest(bounds.message, { max: bounds.maxSide, width: size.width, height: size.height });
  }
  return size;
}
