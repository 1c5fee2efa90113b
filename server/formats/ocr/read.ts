/**
 * Reading a picture by OCR across the heavy pool: the cut (a task of its own, `pdfOcrCut` or `imageOcrCut`) gives a
 * strip per worker, the strips are read side by side (`ocrStrip`), and their text is joined in reading order with
 * boxes back in the picture's pixels (strips.ts says why).
 */
import type { HeavyPool, RunOptions } from '../../workers/heavy/pool';
import type { OcrCut } from './cut';
import { joinStrips } from './strips';
import type { OcrText } from './tesseract';

/** Strips a picture is cut into: one per heavy worker, so a page alone keeps every worker busy. */
export const ocrParts = (heavy: HeavyPool): number => Math.max(1, heavy.limits.workers);

/**
 * The text of `cut`'s strips, read side by side. While they are read, `signal.onAbort` stops every one of them
 * (as the pool's own signal does for one task); one strip that fails fails the whole and stops the others.
 */
export async function readStrips(
  heavy: HeavyPool,
  cut: OcrCut,
  signal: NonNullable<RunOptions['signal']>,
): Promise<OcrText> {
  const holders = cut.strips.map((): NonNullable<RunOptions['signal']> => ({}));
  const stop = () => holders.forEach((h) => h.onAbort?.());
  signal.onAbort = stop;
  try {
    const reads = await Promise.all(
      cut.strips.map((strip, i) =>
        heavy
          .run('ocrStrip', { png: strip.png, upload: strip.upload }, { background: true, signal: holders[i] })
          .catch((error) => {
            stop();
            throw error;
          }),
      ),
    );
    return joinStrips(reads.map((read, i) => ({ read, rect: cut.strips[i].rect, scale: cut.strips[i].scale })));
  } finally {
    if (signal.onAbort === stop) signal.onAbort = undefined;
  }
}
