// Reading a page by OCR in strips: where a page is cut (between lines, at a gutter, not across columns under a
// heading, not at all when short), the scale lines are read at, the grey PNGs the strips travel as, the decoding of
// uploads (PNG and JPEG in JavaScript, anything else or anything broken left to the OCR's own reader), and the
// joining of the strips' text with boxes back in the page's pixels.
import { describe, expect, it } from 'vitest';
import { createCanvas } from '@napi-rs/canvas';
import { cutForOcr, decodeGrey, jpegOrientation, scaledPart } from '../../server/formats/ocr/cut';
import { greyPng, joinStrips, ocrScale, planStrips, type GreyImage } from '../../server/formats/ocr/strips';
import { greyPixels } from '../../server/formats/media/frames';

/**
 * A white page with black bars where lines of text would be: `[left, top, width, height]` each; `printed` bars are
 * striped (a third of their pixels inked), as glyphs cover their boxes, solid ones are blocks of a picture.
 */
function page(width: number, height: number, bars: Array<[number, number, number, number]>, printed = false) {
  const pixels = new Uint8Array(width * height).fill(255);
  for (const [left, top, w, h] of bars)
    for (let y = top; y < top + h; y++)
      for (let x = left; x < left + w; x++) if (!printed || x % 3 === 0) pixels[y * width + x] = 0;
  const image: GreyImage = { width, height, pixels };
  return image;
}

/** `n` lines of `height` px every `pitch` px from `top`, `left` to `left + width`. */
const lines = (n: number, top: number, pitch: number, height: number, left: number, width: number) =>
  Array.from({ length: n }, (_, i): [number, number, number, number] => [left, top + i * pitch, width, height]);

describe('where a page is cut', () => {
  it('cuts a single column between two lines, near equal shares of its ink, covering the page once', () => {
    const p = page(1000, 1400, lines(12, 100, 100, 40, 100, 800));
    const plan = planStrips(p.pixels, p.width, p.height, 2);
    expect(plan.lineHeight).toBe(40);
    expect(plan.strips).toHaveLength(2);
    const [top, bottom] = plan.strips;
    expect(top).toEqual({ left: 0, top: 0, width: 1000, height: top.height });
    expect(bottom.top).toBe(top.height);
    expect(bottom.top + bottom.height).toBe(1400);
    // between the 6th line (ends at 640) and the 7th (starts at 700): six lines on each side
    expect(top.height).toBeGreaterThanOrEqual(640);
    expect(top.height).toBeLessThanOrEqual(700);
    // three parts: three strips, each cut in a blank gap
    const three = planStrips(p.pixels, p.width, p.height, 3).strips;
    expect(three).toHaveLength(3);
    for (const s of three.slice(1)) expect((s.top - 100) % 100).toBeGreaterThanOrEqual(40);
  });

  it('reads a short page whole, and a page whose lines are too few to be worth cutting', () => {
    const short = page(1000, 600, lines(5, 50, 100, 40, 100, 800));
    expect(planStrips(short.pixels, 1000, 600, 2).strips).toEqual([{ left: 0, top: 0, width: 1000, height: 600 }]);
    const blank = page(500, 500, []);
    expect(planStrips(blank.pixels, 500, 500, 2)).toEqual({
      strips: [{ left: 0, top: 0, width: 500, height: 500 }],
      lineHeight: null,
      printHeight: null,
    });
    // one part asked for: whole
    const long = page(1000, 1400, lines(12, 100, 100, 40, 100, 800));
    expect(planStrips(long.pixels, 1000, 1400, 1).strips).toHaveLength(1);
  });

  it('cuts two columns at their gutter, the left one first', () => {
    const p = page(1200, 1400, [...lines(12, 100, 100, 40, 80, 480), ...lines(12, 100, 100, 40, 640, 480)]);
    const { strips } = planStrips(p.pixels, p.width, p.height, 2);
    expect(strips).toHaveLength(2);
    expect(strips[0]).toMatchObject({ left: 0, top: 0, height: 1400 });
    expect(strips[0].width).toBeGreaterThan(560);
    expect(strips[0].width).toBeLessThan(640);
    expect(strips[1]).toMatchObject({ left: strips[0].width, width: 1200 - strips[0].width, height: 1400 });
  });

  it('never cuts across two columns under a heading that spans them', () => {
    const heading: [number, number, number, number] = [80, 20, 1040, 50];
    const p = page(1200, 1400, [heading, ...lines(12, 150, 100, 40, 80, 480), ...lines(12, 150, 100, 40, 640, 480)]);
    expect(planStrips(p.pixels, p.width, p.height, 2).strips).toHaveLength(1);
  });

  it('finds the lines of light print on a dark ground too', () => {
    const p = page(1000, 1400, lines(12, 100, 100, 40, 100, 800));
    for (let i = 0; i < p.pixels.length; i++) p.pixels[i] = 255 - p.pixels[i];
    const plan = planStrips(p.pixels, p.width, p.height, 2);
    expect(plan.lineHeight).toBe(40);
    expect(plan.strips).toHaveLength(2);
  });

  it('tells the print size from lines of print, not from a picture or solid blocks', () => {
    const photo = page(800, 600, [[0, 40, 800, 520]]);
    const plan = planStrips(photo.pixels, 800, 600, 2);
    expect(plan).toMatchObject({ strips: [{ left: 0, top: 0, width: 800, height: 600 }], printHeight: null });
    const blocks = page(1000, 400, lines(2, 100, 150, 90, 100, 800));
    expect(planStrips(blocks.pixels, 1000, 400, 2).printHeight).toBeNull();
    expect(cutForOcr(blocks, 2).strips).toEqual([expect.objectContaining({ scale: 1 })]);
    // a poster's two big lines of print are read at the size tesseract reads best
    const poster = page(1000, 400, lines(2, 100, 150, 90, 100, 800), true);
    expect(planStrips(poster.pixels, 1000, 400, 2).printHeight).toBe(90);
    expect(cutForOcr(poster, 2).strips).toEqual([expect.objectContaining({ scale: 0.4 })]);
  });

  it('ignores specks of scanner noise when looking for blank rows', () => {
    const p = page(1000, 1400, lines(12, 100, 100, 40, 100, 800));
    // a speck in every row of the page
    for (let y = 0; y < 1400; y++) p.pixels[y * 1000 + ((y * 37) % 1000)] = 0;
    const { strips } = planStrips(p.pixels, p.width, p.height, 2);
    expect(strips).toHaveLength(2);
  });
});

describe('the scale and the strips', () => {
  it('scales only lines far larger than tesseract reads best, never up', () => {
    expect(ocrScale(null)).toBe(1);
    expect(ocrScale(20)).toBe(1);
    expect(ocrScale(48)).toBe(1);
    expect(ocrScale(72)).toBeCloseTo(0.5);
  });

  it('averages the pixels a scaled pixel covers, and copies a part at scale 1', () => {
    const p = page(4, 4, [[0, 0, 2, 2]]);
    const half = scaledPart(p, { left: 0, top: 0, width: 4, height: 4 }, 0.5);
    expect(half).toEqual({ width: 2, height: 2, pixels: Uint8Array.from([0, 255, 255, 255]) });
    const part = scaledPart(p, { left: 1, top: 1, width: 2, height: 2 }, 1);
    expect([...part.pixels]).toEqual([0, 255, 255, 255]);
  });

  it('writes grey PNGs that decode to the same pixels', () => {
    const p = page(37, 11, [[3, 2, 20, 5]]);
    expect(greyPixels(greyPng(p.pixels, 37, 11))).toEqual({ width: 37, height: 11, pixels: p.pixels });
  });

  it('cuts a page with large lines into scaled strips covering it', () => {
    const p = page(1000, 2000, lines(12, 100, 150, 72, 100, 800), true);
    const cut = cutForOcr(p, 2);
    expect(cut).toMatchObject({ width: 1000, height: 2000 });
    expect(cut.strips).toHaveLength(2);
    for (const strip of cut.strips) {
      expect(strip.scale).toBeCloseTo(0.5);
      const grey = greyPixels(strip.png)!;
      expect(grey.width).toBe(500);
      expect(grey.height).toBe(Math.round(strip.rect.height * strip.scale));
    }
  });
});

describe('decoding uploads', () => {
  const drawn = () => {
    const canvas = createCanvas(60, 40);
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, 60, 40);
    context.fillStyle = '#000000';
    context.fillRect(10, 10, 20, 20);
    return canvas;
  };

  it('reads PNG and JPEG to grey pixels', async () => {
    for (const data of [await drawn().encode('png'), await drawn().encode('jpeg', 95)]) {
      const grey = decodeGrey(data, 40_000_000)!;
      expect(grey).toMatchObject({ width: 60, height: 40 });
      expect(grey.pixels[15 * 60 + 15]).toBeLessThan(30);
      expect(grey.pixels[2 * 60 + 2]).toBeGreaterThan(225);
    }
  });

  /** `jpeg` with an EXIF segment saying `orientation`, in Motorola (MM) or Intel (II) byte order. */
  const withOrientation = (jpeg: Buffer, orientation: number, little: boolean) => {
    const tiff = Buffer.alloc(8 + 2 + 12 + 4);
    tiff.write(little ? 'II' : 'MM', 0, 'latin1');
    const u16 = (v: number, at: number) => (little ? tiff.writeUInt16LE(v, at) : tiff.writeUInt16BE(v, at));
    const u32 = (v: number, at: number) => (little ? tiff.writeUInt32LE(v, at) : tiff.writeUInt32BE(v, at));
    u16(42, 2);
    u32(8, 4);
    u16(1, 8);
    u16(0x0112, 10);
    u16(3, 12);
    u32(1, 14);
    u16(orientation, 18);
    const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
    const head = Buffer.from([0xff, 0xe1, 0, 0]);
    head.writeUInt16BE(body.length + 2, 2);
    return Buffer.concat([jpeg.subarray(0, 2), head, body, jpeg.subarray(2)]);
  };

  it('tells a JPEG photo taken sideways, and leaves it to the OCR reader that turns it upright', async () => {
    const jpeg = await drawn().encode('jpeg', 95);
    expect(jpegOrientation(jpeg)).toBe(1);
    for (const little of [false, true]) {
      expect(jpegOrientation(withOrientation(jpeg, 6, little))).toBe(6);
      expect(decodeGrey(withOrientation(jpeg, 6, little), 40_000_000)).toBeNull();
      expect(decodeGrey(withOrientation(jpeg, 1, little), 40_000_000)).toMatchObject({ width: 60, height: 40 });
    }
    // a cut-short segment reads as upright, never past the file
    expect(jpegOrientation(withOrientation(jpeg, 6, true).subarray(0, 30))).toBe(1);
  });

  it('leaves an interlaced PNG to the OCR reader: pngjs would inflate it without a bound', async () => {
    const png = Buffer.from(await drawn().encode('png'));
    png[28] = 1;
    expect(decodeGrey(png, 40_000_000)).toBeNull();
  });

  it('leaves other formats and broken files to the OCR reader (null), without throwing', async () => {
    const png = await drawn().encode('png');
    const corrupt = Buffer.from(png);
    corrupt.fill(7, 40, 80);
    expect(decodeGrey(png.subarray(0, 60), 40_000_000)).toBeNull();
    expect(decodeGrey(corrupt, 40_000_000)).toBeNull();
    expect(decodeGrey(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 1, 2, 3]), 40_000_000)).toBeNull();
    expect(decodeGrey(await drawn().encode('webp'), 40_000_000)).toBeNull();
    expect(decodeGrey(Buffer.from('II*\0not a tiff at all'), 40_000_000)).toBeNull();
  });
});

describe('joining the strips', () => {
  it('puts a line break between strips and the boxes back in page pixels', () => {
    const joined = joinStrips([
      {
        read: { text: '甲 乙', boxes: [10, 4, 20, 20, 0, 0, 0, 0, 40, 4, 20, 20], confidences: [90, 100, 80] },
        rect: { left: 0, top: 0, width: 100, height: 50 },
        scale: 0.5,
      },
      { read: { text: '', boxes: [], confidences: [] }, rect: { left: 0, top: 50, width: 100, height: 10 }, scale: 1 },
      {
        read: { text: '丙', boxes: [5, 6, 10, 10], confidences: [70] },
        rect: { left: 100, top: 60, width: 100, height: 50 },
        scale: 1,
      },
    ]);
    expect(joined.text).toBe('甲 乙\n丙');
    expect(joined.boxes).toEqual([20, 8, 40, 40, 0, 0, 0, 0, 80, 8, 40, 40, 0, 0, 0, 0, 105, 66, 10, 10]);
    expect(joined.confidences).toEqual([90, 100, 80, 100, 70]);
  });
});
