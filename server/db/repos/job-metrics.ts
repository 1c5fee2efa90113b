import type { Db } from '..';
import type { JobKind } from '../schema';

export interface KindQueue {
  kind: JobKind;
  queued: number;
  running: number;
  /** creation time of the oldest queued job, null when none waits */
  oldestQueuedAt: string | null;
}

/** The queue by kind for /metrics: waiting and running jobs and the oldest waiting one (one grouped query). */
export async function jobQueueByKind(db: Db): Promise<KindQueue[]> {
  const rows = await db
    .selectFrom('jobs')
    .select(['kind', 'state', (eb) => eb.fn.countAll<number>().as('count'), (eb) => eb.fn.min('created_at').as('at')])
    .where('state', 'in', ['queued', 'running'])
    .groupBy(['kind', 'state'])
    .execute();
  const byKind = new Map<JobKind, KindQueue>();
  for (const row of rows) {
    const entry = byKind.get(row.kind) ?? { kind: row.kind, queued: 0, running: 0, oldestQueuedAt: null };
    if (row.state === 'queued') {
      entry.queued = Number(row.count);
      entry.oldestQueuedAt = (row.at as string | null) ?? null;
    } else entry.running = Number(row.count);
    byKind.set(row.kind, entry);
  }
  return [...byKind.values()];
}
