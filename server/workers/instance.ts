import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { nowIso, type Db } from '../db';
import { deleteSessionsOfGone } from '../db/repos/bus';
import { releaseJobsOf, requeueJobsOfGone } from '../jobs/store';
import {
  deleteInstance,
  deleteInstancesNotSeenSince,
  deleteOtherInstances,
  deleteReservation,
  findInstanceIds,
  findReservation,
  findReservationsOf,
  findReservationsOfGone,
  insertInstance,
  insertReservation,
  setReservationConsumption,
  touchInstance,
} from '../db/repos/instances';

import { pruneRateLimits } from '../domain/accounts/rate-store';
import { deliverToConnected } from '../domain/notices/announcements';
import { refundRight, type Consumption } from '../domain/rights/ledger';

class AlreadyReleased extends Error {}

/**
 * Refunds what is left of a check's reservation and deletes it, in one transaction. The row's deletion decides:
 * of two processes releasing the same reservation, only the one that deleted it refunds. Returns the refund.
 */
export async function releaseReservation(db: Db, checkId: string, reason: string): Promise<number> {
  const row = await findReservation(db, checkId);
  if (!row) return 0;
  const consumption = JSON.parse(row.consumption) as Consumption;
  const remove = async (trx: Db) => {
    if ((await deleteReservation(trx, checkId)) !== 1) throw new AlreadyReleased();
  };
  try {
    return await refundRight(db, consumption, consumption.amount, reason, remove);
  } catch (error) {
    if (error instanceof AlreadyReleased) return 0;
    throw error;
  }
}

/** Inserts the reservation of a check (inside the transaction that took the characters). */
export async function reserve(trx: Db, checkId: string, instance: string, consumption: Consumption): Promise<void> {
  await insertReservation(trx, {
    check_id: checkId,
    uid: consumption.uid,
    instance,
    consumption: JSON.stringify(consumption),
    created_at: nowIso(),
  });
}

/** Records a partial refund in the reservation (inside the refund's transaction), so a crash refunds only the rest. */
export async function updateReservation(trx: Db, checkId: string, consumption: Consumption): Promise<void> {
  await setReservationConsumption(trx, checkId, JSON.stringify(consumption));
}

/** The check finished: what it took is spent for good. */
export async function commitReservation(db: Db, checkId: string): Promise<void> {
  await deleteReservation(db, checkId);
}

/**
 * This server process among those sharing the database: a heartbeat row, and a sweep that releases what dead
 * processes held — check reservations refunded, document jobs put back in the queue, socket sessions forgotten.
 * With SQLite there is one process, so at start every other row is a predecessor that died.
 */
export class ServerInstance {
  readonly id = randomUUID();
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;
  /** the newest announcement this process has delivered to its connected users */
  private lastAnnouncement = 0;
  /** called after a sweep put jobs back in the queue */
  onRequeued: (() => void) | null = null;

  constructor(private readonly app: FastifyInstance) {}

  async start(): Promise<void> {
    const { db } = this.app;
    const now = nowIso();
    await insertInstance(db, this.id, now);
    if (this.app.dialect === 'sqlite') await deleteOtherInstances(db, this.id);
    await this.sweep();
    this.timer = setInterval(() => void this.tick(), this.app.config.instance.heartbeatMs);
    this.timer.unref();
  }

  /** Graceful stop: this process's checks are refunded, its jobs released, its heartbeat row removed. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sweeping;
    const { db } = this.app;
    // Checks cut short by the stop are refunded; jobs go back to the queue for whoever runs next.
    for (const checkId of await findReservationsOf(db, this.id)) await releaseReservation(db, checkId, '校对中断退回');
    await releaseJobsOf(db, this.id);
    await deleteInstance(db, this.id);
  }

  private async tick(): Promise<void> {
    try {
      const { db, realtime, log } = this.app;
      const now = nowIso();
      if (!(await touchInstance(db, this.id, now))) {
        // Taken for dead while alive (the event loop starved past the stale limit): what this process held was
        // released, so its running checks were refunded; it carries on and announces its socket sessions again.
        log.warn('this process was taken for stopped by another; registering again');
        await insertInstance(db, this.id, now);
        for (const s of realtime.localSessions()) void realtime.cluster?.registerSession(s.id, s.uid);
      }
      await this.sweep();
      await this.announce();
    } catch (error) {
      this.app.log.warn({ err: error }, 'instance heartbeat failed');
    }
  }

  /**
   * Announcements published by another process (the admin CLI, another server) reach this process's connected users
   * at its next heartbeat; those published here went out at once.
   */
  private async announce(): Promise<void> {
    const row = await this.app.db
      .selectFrom('announcements')
      .select((eb) => eb.fn.max('id').as('last'))
      .executeTakeFirst();
    const last = Number(row?.last ?? 0);
    if (last <= this.lastAnnouncement) return;
    await deliverToConnected(this.app);
    // only once delivered: a failure is tried again at the next heartbeat
    this.lastAnnouncement = last;
  }

  /** Releases everything held by processes that are gone (no row, or not seen for `config.instance.staleMs`). */
  sweep(): Promise<void> {
    this.sweeping ??= this.sweepOnce().finally(() => {
      this.sweeping = null;
    });
    return this.sweeping;
  }

  private async sweepOnce(): Promise<void> {
    const { db, log } = this.app;
    const cutoff = new Date(Date.now() - this.app.config.instance.staleMs).toISOString();
    await deleteInstancesNotSeenSince(db, cutoff, this.id);
    const alive = await findInstanceIds(db);

    const orphans = await findReservationsOfGone(db, alive);
    let refunded = 0;
    for (const checkId of orphans) refunded += await releaseReservation(db, checkId, '校对中断退回');
    if (orphans.length) log.info({ checks: orphans.length, refunded }, 'interrupted checks refunded');

    const requeued = await requeueJobsOfGone(db, alive);
    if (requeued > 0) {
      log.info({ jobs: requeued }, 'jobs of a stopped process taken over');
      this.onRequeued?.();
    }
    await deleteSessionsOfGone(db, alive);
    await pruneRateLimits(db);
  }
}
