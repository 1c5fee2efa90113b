/**
 * Image checks as the socket and the routes show them, and the check of a text (an image's OCR text, or a re-check of
 * the corrected text). The checks run as jobs (server/jobs/kinds/image.ts).
 */
import type { FastifyInstance } from 'fastify';
import { checkLanguage } from '../../../engine/script';
import type { components } from '../../../openapi/schema';
import { isServerMessageCode, type MessageParams } from '../../../openapi/messages';
import type { ImageResultData } from '../../../openapi/socket-protocol';
import type { ImageTaskRecord } from '../../db/repos/image-tasks';
import { checkService, splitUnits } from '../../workers/checker/jobs';

const ALL_STANDARD = 127;

/** A finding in a picture's text: the contract's `Issue` and where it is in the image. */
export type ImageIssue = components['schemas']['Issue'] & {
  /** [x, y, width, height] in image pixels, one per line the finding spans (none once the text was edited) */
  boxes: number[][];
};

/** A task as the socket message and the result call show it. */
export function imageResult(row: ImageTaskRecord): ImageResultData {
  const params = row.error_params ? (JSON.parse(row.error_params) as MessageParams) : null;
  return {
    task_id: Number(row.id),
    status: row.status,
    width: Number(row.width),
    height: Number(row.height),
    ...(row.text !== null && { text: row.text }),
    ...(row.issues !== null && { issues: JSON.parse(row.issues) as ImageIssue[] }),
    ...(row.unsure !== null && { unsure: JSON.parse(row.unsure) as Array<[number, number]> }),
    ...(row.error !== null && { error: row.error }),
    ...(row.error_code !== null && isServerMessageCode(row.error_code) && { error_code: row.error_code }),
    ...(params && { error_params: params }),
  };
}

/** Findings of a text (cache first); offsets into the whole text. */
export async function checkText(
  app: FastifyInstance,
  uid: number,
  text: string,
  group: string,
): Promise<Omit<ImageIssue, 'boxes'>[]> {
  const service = checkService(app);
  // text in traditional characters (a re-check the user corrected so) is checked as such
  const prepared = await service.prepare(uid, 3, ALL_STANDARD, checkLanguage(text));
  const lists = await Promise.all(
    splitUnits(text).map(async (unit) => {
      const issues = await service.checkUnit(prepared, unit, group);
      return issues.map((i) => ({ ...i, start: i.start + unit.offset, end: i.end + unit.offset }));
    }),
  );
  return lists.flat().sort((a, b) => a.start - b.start || a.end - b.end);
}
