import { checkService, type PreparedCheck, type Unit } from '../workers/checker/jobs';
import type { StoredIssue } from '../formats/documents/content';
import { checkerGroup, type JobContext, type JobFailure } from './runner';

/** One unit failing in the checker is tried once more (a worker may have died under it) before the job fails. */
const UNIT_RETRIES = 1;

/**
 * Checks one unit of a job's text in the checker pool under the job's group: its findings at the text's offsets, or
 * none once the job stopped. A unit that fails again throws `failure()` (final: the job fails with its message).
 */
export async function checkJobUnit(
  ctx: JobContext,
  prepared: PreparedCheck,
  unit: Unit,
  failure: () => JobFailure,
): Promise<StoredIssue[]> {
  const { app, job, signal } = ctx;
  for (let attempt = 0; ; attempt++) {
    try {
      const issues = await checkService(app).checkUnit(prepared, unit, checkerGroup(job));
      return issues.map((i) => ({ ...i, start: i.start + unit.offset, end: i.end + unit.offset }));
    } catch (error) {
      if (signal.aborted) return [];
      if (attempt >= UNIT_RETRIES) {
        app.log.warn({ err: error, kind: job.kind, ref: job.ref, unit: unit.index }, 'unit not checked');
        throw failure();
      }
    }
  }
}

/** Checks the units of a job's text side by side; the first that fails cancels the others (`cleanup` then). */
export async function checkJobUnits<T>(
  ctx: JobContext,
  units: Unit[],
  check: (unit: Unit) => Promise<T>,
  cleanup: () => Promise<unknown> = async () => {},
): Promise<T[]> {
  return Promise.all(units.map(check)).catch(async (error) => {
    checkService(ctx.app).cancelGroup(checkerGroup(ctx.job));
    await cleanup();
    throw error;
  });
}
