/**
 * The heavy pool's side of reading a page in strips (strips.ts): a picture's grey pixels, cut into strips, each
 * scaled to the size tesseract reads best and encoded as a grey PNG for a worker of its own.
 *
 * Pictures are decoded here by pure-JavaScript decoders (PNG, JPEG) whose failures are exceptions. The canvas
 * library's native decoder is never given an upload: a truncated or corrupt file ends its whole process.
 */
import { PNG } from 'pngjs';
import jpeg from 'jpeg-js';
import { greyOfRgba, greyPng, ocrScale, planStrips, type GreyImage, type Rect } from './strips';

/** A picture cut for OCR: its size and its strips, each a grey PNG of `rect` read at `scale`. */
export interface OcrCut {
  width: number;
  height: number;
  /** `upload`: the strip is the uploaded file itself (not decoded here), for the OCR's own reader */
  strips: Array<{ png: Uint8Array; rect: Rect; scale: number; upload?: boolean }>;
}

/**
 * The grey pixels of a PNG or JPEG upload, or null for another format or a file the decoder refuses (the OCR's own
 * reader then reads the file whole, and says when it cannot). `maxPixels` is checked from the header before.
 */
export function decodeGrey(data: Uint8Array, maxPixels: number): GreyImage | null {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  try {
    if (bytes.length > 29 && bytes.readUInt32BE(0) === 0x89504e47) {
      // an interlaced PNG is inflated by pngjs without a bound on its output (a few MB could ask for 4 GB, outside
      // the worker's heap limit): the OCR's reader, whose memory is bounded, takes it
      if (bytes[28] !== 0) return null;
      const png = PNG.sync.read(bytes, { skipRescale: false });
      return greyOfRgba(png.data, png.width, png.height);
    }
    if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
      // a photo taken sideways is turned upright by the OCR's reader from its EXIF orientation, not by this decoder
      if (jpegOrientation(bytes) !== 1) return null;
      const image = jpeg.decode(bytes, {
        useTArray: true,
        formatAsRGBA: true,
        maxResolutionInMP: Math.ceil(maxPixels / 1e6),
        maxMemoryUsageInMB: 1024,
      });
      return greyOfRgba(image.data, image.width, image.height);
    }
  } catch {
    return null;
  }
  return null;
}

/** The EXIF orientation of a JPEG (1, upright, when it has none or it cannot be read). */
export function jpegOrientation(bytes: Buffer): number {
  for (let at = 2; at + 4 <= bytes.length;) {
    if (bytes[at] !== 0xff) return 1;
    const marker = bytes[at + 1];
    // the image data starts: no EXIF segment came before it
    if (marker === 0xda || marker === 0xd9) return 1;
    const length = bytes.readUInt16BE(at + 2);
    if (length < 2) return 1;
    const body = at + 4;
    if (marker === 0xe1 && bytes.toString('latin1', body, body + 6) === 'Exif\0\0') {
      const tiff = body + 6;
      const end = Math.min(bytes.length, at + 2 + length);
      if (tiff + 8 > end) return 1;
      const little = bytes.toString('latin1', tiff, tiff + 2) === 'II';
      const u16 = (o: number) => (little ? bytes.readUInt16LE(o) : bytes.readUInt16BE(o));
      const u32 = (o: number) => (little ? bytes.readUInt32LE(o) : bytes.readUInt32BE(o));
      const ifd = tiff + u32(tiff + 4);
      if (ifd + 2 > end) return 1;
      const entries = u16(ifd);
      for (let i = 0; i < entries; i++) {
        const entry = ifd + 2 + i * 12;
        if (entry + 12 > end) return 1;
        if (u16(entry) === 0x0112) return u16(entry + 8) || 1;
      }
      return 1;
    }
    at += 2 + length;
  }
  return 1;
}

/** `rect` of `image` at `scale` (≤ 1): each pixel the mean of the pixels it covers. */
export function scaledPart(image: GreyImage, rect: Rect, scale: number): GreyImage {
  const width = Math.max(1, Math.round(rect.width * scale));
  const height = Math.max(1, Math.round(rect.height * scale));
  const pixels = new Uint8Array(width * height);
  if (scale === 1) {
    for (let y = 0; y < height; y++) {
      const from = (rect.top + y) * image.width + rect.left;
      pixels.set(image.pixels.subarray(from, from + width), y * width);
    }
    return { width, height, pixels };
  }
  const sums = new Uint32Array(width * height);
  const counts = new Uint32Array(width * height);
  const columns = new Uint32Array(rect.width);
  for (let x = 0; x < rect.width; x++) columns[x] = Math.min(width - 1, Math.floor(x * scale));
  for (let y = 0; y < rect.height; y++) {
    const target = Math.min(height - 1, Math.floor(y * scale)) * width;
    const source = (rect.top + y) * image.width + rect.left;
    for (let x = 0; x < rect.width; x++) {
      sums[target + columns[x]] += image.pixels[source + x];
      counts[target + columns[x]]++;
    }
  }
  for (let i = 0; i < pixels.length; i++) pixels[i] = counts[i] ? Math.round(sums[i] / counts[i]) : 255;
  return { width, height, pixels };
}

/** `image` cut into at most `parts` strips for OCR, each a grey PNG at the scale its lines are read best. */
export function cutForOcr(image: GreyImage, parts: number): OcrCut {
  const plan = planStrips(image.pixels, image.width, image.height, parts);
  const scale = ocrScale(plan.printHeight);
  return {
    width: image.width,
    height: image.height,
    strips: plan.strips.map((rect) => {
      const part = scaledPart(image, rect, scale);
      return { png: greyPng(part.pixels, part.width, part.height), rect, scale };
    }),
  };
}
