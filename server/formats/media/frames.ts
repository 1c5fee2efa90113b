/**
 * Video frames as ffmpeg writes them for OCR (burned.ts): a PNG stream split into images, and greyscale PNGs
 * compared pixel by pixel, so that a frame showing what the one before showed is not read again. Pure functions:
 * the comparison runs in the heavy pool's workers, next to the OCR (heavy/tasks.ts `ocrFrames`).
 */
import { inflateSync } from 'node:zlib';

/**
 * Pixels that may differ between two frames still taken as the same picture, as a part of all pixels. Measured on
 * thresholded subtitle bands (1066 × 150): frames of one line differ by 0-80 pixels of 160,000 (the video codec's
 * noise on glyph edges), a changed line by thousands, one changed glyph by 150 or more.
 */
const SAME_PICTURE = 0.0003;

/** The PNG images of an image2pipe stream, by their chunks (each ends with IEND), each in a buffer of its own. */
export function splitPngs(stream: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let at = 0;
  while (at + 8 <= stream.length) {
    const start = at;
    at += 8;
    for (;;) {
      if (at + 8 > stream.length) return out;
      const length = stream.readUInt32BE(at);
      const type = stream.toString('latin1', at + 4, at + 8);
      at += 12 + length;
      if (type === 'IEND') break;
    }
    if (at > stream.length) return out;
    // a copy of its own: a view would take the whole stream along each time it is sent to a worker
    const png = Buffer.alloc(at - start);
    stream.copy(png, 0, start, at);
    out.push(png);
  }
  return out;
}

/** The pixels of an 8-bit greyscale, non-interlaced PNG (what ffmpeg writes from `format=gray`); null otherwise. */
export function greyPixels(png: Uint8Array): { width: number; height: number; pixels: Uint8Array } | null {
  const data = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  if (data.length < 33 || data.readUInt32BE(0) !== 0x89504e47) return null;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  for (let at = 8; at + 8 <= data.length;) {
    const length = data.readUInt32BE(at);
    const type = data.toString('latin1', at + 4, at + 8);
    const body = data.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      // bit depth 8, colour type 0 (grey), no interlacing
      if (body[8] !== 8 || body[9] !== 0 || body[12] !== 0) return null;
    } else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  if (!width || !height || !idat.length) return null;
  let raw: Buffer;
  try {
    raw = inflateSync(Buffer.concat(idat));
  } catch {
    return null;
  }
  if (raw.length < (width + 1) * height) return null;
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (width + 1)];
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const v = raw[y * (width + 1) + 1 + x];
      const left = x > 0 ? pixels[row + x - 1] : 0;
      const up = y > 0 ? pixels[row - width + x] : 0;
      const corner = x > 0 && y > 0 ? pixels[row - width + x - 1] : 0;
      let predicted = 0;
      if (filter === 1) predicted = left;
      else if (filter === 2) predicted = up;
      else if (filter === 3) predicted = (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - corner;
        const [a, b, c] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - corner)];
        predicted = a <= b && a <= c ? left : b <= c ? up : corner;
      } else if (filter !== 0) return null;
      pixels[row + x] = (v + predicted) & 0xff;
    }
  }
  return { width, height, pixels };
}

type Pixels = NonNullable<ReturnType<typeof greyPixels>>;

/** Two frames show the same picture: same size, and at most SAME_PICTURE of their pixels differ. */
export function samePicture(a: Pixels | null, b: Pixels | null): boolean {
  if (!a || !b || a.width !== b.width || a.height !== b.height) return false;
  const allowed = Math.floor(a.pixels.length * SAME_PICTURE);
  let differ = 0;
  for (let i = 0; i < a.pixels.length; i++) if (a.pixels[i] !== b.pixels[i] && ++differ > allowed) return false;
  return true;
}
