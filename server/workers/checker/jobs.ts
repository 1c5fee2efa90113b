import { recordCheck } from '../../domain/teams/metrics';
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { CheckOptions, CustomDictionaries, Issue } from '../../../engine';
import { badRequest, notFound, QuotaError, forbidden, textTooLong } from '../../errors';
import { loadUserDictionary, type UserDictionary } from '../../domain/dictionaries/dictionary';
import { commitReservation, releaseReservation, reserve, updateReservation } from '../instance';
import {
  consumeRight,
  countChars,
  InsufficientRight,
  refundRight,
  rightBalance,
  type Consumption,
  Right,
} from '../../domain/rights/ledger';
import { ResultCache } from './cache';
import { checkerPool, type CheckerPool } from './pool';
import { renderMessage } from '../../../openapi/messages';
import { Socket } from '../../../openapi/socket-protocol';

export const FINE_REFUSED_MSG = 'check.fine_paid_only';
/** Longest unit sent to the engine; longer paragraphs are cut at sentence ends (never refused for length). */
export const MAX_UNIT = 1_500;

export { QuotaError } from '../../errors';

export interface Unit {
  /** paragraph number in the stream (0-based, non-empty units only) */
  index: number;
  offset: number;
  text: string;
  hash: string;
  chars: number;
}

const SENTENCE_END = /[。！？；!?;…\n]/;
/** Consecutive short lines are checked (and streamed, cached, charged) together up to this length. */
export const MIN_UNIT = 160;

/**
 * Units of a text: its lines (split on `\n`), consecutive short lines joined until a unit reaches MIN_UNIT
 * characters, lines longer than MAX_UNIT cut at sentence ends (never refused for length); blank units are
 * skipped. Offsets are UTF-16 offsets into `text`; a unit's text is exactly `text.slice(offset, offset + length)`.
 */
export function splitUnits(text: string, maxUnit = MAX_UNIT, minUnit = MIN_UNIT): Unit[] {
  const units: Unit[] = [];
  const push = (offset: number, part: string) => {
    const trimmed = part.replace(/[\r\n]+$/, '');
    if (!/\S/.test(trimmed)) return;
    units.push({
      index: units.length,
      offset,
      text: trimmed,
      hash: createHash('sha1').update(trimmed).digest('hex'),
      chars: countChars(trimmed),
    });
  };
  // pending group of short lines: [start offset, end offset)
  let groupStart = -1;
  let groupEnd = -1;
  const flush = () => {
    if (groupStart >= 0) push(groupStart, text.slice(groupStart, groupEnd));
    groupStart = groupEnd = -1;
  };
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const lineEnd = end > start && text[end - 1] === '\r' ? end - 1 : end;
    const length = lineEnd - start;
    if (length > maxUnit) {
      flush();
      const line = text.slice(start, lineEnd);
      let pos = 0;
      while (line.length - pos > maxUnit) {
        let cut = -1;
        for (let i = pos + maxUnit; i > pos + maxUnit / 2; i--) {
          if (SENTENCE_END.test(line[i - 1])) {
            cut = i;
            break;
          }
        }
        if (cut < 0) {
          cut = pos + maxUnit;
          const c = line.charCodeAt(cut - 1);
          if (c >= 0xd800 && c <= 0xdbff) cut--; // never split a surrogate pair
        }
        push(start + pos, line.slice(pos, cut));
        pos = cut;
      }
      push(start + pos, line.slice(pos));
    } else if (/\S/.test(text.slice(start, lineEnd))) {
      if (groupStart < 0) groupStart = start;
      else if (lineEnd - groupStart > maxUnit) {
        flush();
        groupStart = start;
      }
      groupEnd = lineEnd;
      if (groupEnd - groupStart >= minUnit) flush();
    }
    if (end >= text.length) break;
    start = end + 1;
  }
  flush();
  return units;
}

export interface StartInput {
  uid: number;
  sessionId: string;
  text: string;
  mode: 3 | 4;
  checkOptions: number;
  lang: 'cn' | 'hk';
}

interface Job {
  id: string;
  uid: number;
  sessionId: string;
  cancelled: boolean;
  finished: boolean;
  consumption: Consumption | null;
  /** characters of charged units not delivered yet (refunded on cancel) */
  pendingCharged: number;
}

type DictTask = { key: string; value: CustomDictionaries } | undefined;

/** What `prepare` gives: engine options, dictionaries for the pool and the result-cache key of a unit. */
export interface PreparedCheck {
  options: CheckOptions;
  dictionaries: DictTask;
  keyOf: (u: Pick<Unit, 'hash'>) => string;
}

/** The user's dictionaries for the pool (sent to each worker once per version), or nothing when empty. */
function dictionaryTask(uid: number, dict: UserDictionary): DictTask {
  if (dict.fingerprint === 'empty') return undefined;
  const { fingerprint, ...value } = dict;
  return { key: `${uid}:${fingerprint}`, value };
}

const CHECK_ID = () => `c_${randomBytes(8).toString('hex')}`;

/** Advanced proofreading (bit 128) needs right 16; without it the bit is dropped silently. */
export const ADVANCED_BIT = 128;

export class CheckService {
  readonly cache: ResultCache;
  private jobs = new Map<string, Job>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly pool: CheckerPool = checkerPool(),
  ) {
    this.cache = new ResultCache(app.config.checker.cacheEntries, app.config.checker.cacheBytes);
  }

  /**
   * Validates, charges and starts a streamed check; returns its id at once. Throws 400 (nothing to check or
   * unknown socket session), 403 (mode 4 without right 8192), 413 (over right 32: `textTooLong`),
   * 402 (right 1 insufficient).
   */
  async start(input: StartInput): Promise<{ check_id: string; paragraphs: number; charged: number }> {
    const { db, realtime } = this.app;
    const units = splitUnits(input.text);
    if (units.length === 0) throw badRequest('check.empty');
    if (!(await realtime.hasSession(input.uid, input.sessionId))) {
      throw badRequest('check.no_session');
    }
    const prepared = await this.prepare(input.uid, input.mode, input.checkOptions, input.lang);

    const total = units.reduce((s, u) => s + u.chars, 0);
    const max = await rightBalance(db, input.uid, Right.perCheckMax);
    if (total > max) throw textTooLong(max, total);

    const { options, dictionaries, keyOf } = prepared;
    // Results served from the cache are taken now, so what is charged is exactly what gets checked.
    const cached = new Map<number, Issue[]>();
    for (const u of units) {
      const hit = this.cache.get(keyOf(u));
      if (hit) cached.set(u.index, hit);
    }
    const charge = units.filter((u) => !cached.has(u.index)).reduce((s, u) => s + u.chars, 0);

    const id = CHECK_ID();
    let consumption: Consumption;
    // The characters are reserved with the charge: a check this process never finishes is refunded by whichever
    // process notices it is gone (workers/instance.ts), and only a finished check spends them for good.
    const instance = this.app.instance.id;
    try {
      consumption = await consumeRight(db, input.uid, Right.highSpeedChars, charge, '文本校对', id, (trx, c) =>
        reserve(trx, id, instance, c),
      );
    } catch (error) {
      if (error instanceof InsufficientRight) {
        throw error.available <= 0
          ? new QuotaError('check.exhausted', {}, 1)
          : new QuotaError('check.not_enough', { available: error.available, needed: error.needed }, 2);
      }
      throw error;
    }
    const job: Job = {
      id,
      uid: input.uid,
      sessionId: input.sessionId,
      cancelled: false,
      finished: false,
      consumption,
      pendingCharged: charge,
    };
    this.jobs.set(id, job);
    realtime.sendToSession(input.sessionId, {
      ...Socket.CheckId,
      status: 200,
      data: { check_id: id, paragraphs: units.length },
    });
    void this.run(job, units, cached, options, dictionaries, keyOf, charge);
    return { check_id: id, paragraphs: units.length, charged: charge };
  }

  /**
   * Checks a whole text now (LanguageTool API): same cache, dictionary and charging as `start` (right 1 for the
   * paragraphs not cached; the text may not exceed `limitType`, default 128 plugin max characters). Returns the
   * issues with offsets into `text`. Throws QuotaError / AppError(403, 413) like `start`.
   */
  async checkNow(input: Omit<StartInput, 'sessionId'> & { limitType?: number }): Promise<Issue[]> {
    const { db } = this.app;
    const units = splitUnits(input.text);
    if (units.length === 0) return [];
    const prepared = await this.prepare(input.uid, input.mode, input.checkOptions, input.lang);
    const total = units.reduce((s, u) => s + u.chars, 0);
    const max = await rightBalance(db, input.uid, input.limitType ?? 128);
    if (total > max) throw textTooLong(max, total);
    const { keyOf } = prepared;
    const charge = units.filter((u) => !this.cache.has(keyOf(u))).reduce((s, u) => s + u.chars, 0);
    const group = CHECK_ID();
    const instance = this.app.instance.id;
    try {
      await consumeRight(db, input.uid, Right.highSpeedChars, charge, 'API 校对', group, (trx, c) =>
        reserve(trx, group, instance, c),
      );
    } catch (error) {
      if (error instanceof InsufficientRight)
        throw new QuotaError(
          'check.not_enough',
          { available: error.available, needed: error.needed },
          error.available <= 0 ? 1 : 2,
        );
      throw error;
    }
    try {
      const results = await Promise.all(
        units.map(async (u) => {
          const issues = await this.checkUnit(prepared, u, group);
          return issues.map((i) => ({ ...i, start: i.start + u.offset, end: i.end + u.offset }));
        }),
      );
      await commitReservation(db, group);
      const issues = results.flat();
      await recordCheck(db, { uid: input.uid, kind: 'api', chars: total, issues });
      return issues;
    } catch (error) {
      this.pool.cancelGroup(group);
      await releaseReservation(db, group, 'API 校对失败退回');
      throw error;
    }
  }

  /**
   * Engine options, the user's dictionaries and the cache key of a check (shared by text checks, the
   * LanguageTool API and document jobs). Mode 4 without right 8192 is refused (403); the advanced bit (128)
   * is dropped silently without right 16.
   */
  async prepare(uid: number, mode: 3 | 4, checkOptions: number, lang: 'cn' | 'hk'): Promise<PreparedCheck> {
    const { db } = this.app;
    if (mode === 4 && (await rightBalance(db, uid, Right.fineChars)) <= 0) throw forbidden(FINE_REFUSED_MSG);
    if (checkOptions & ADVANCED_BIT && (await rightBalance(db, uid, Right.advancedChecks)) <= 0)
      checkOptions &= ~ADVANCED_BIT;
    const dict = await loadUserDictionary(db, uid, this.app.config.paths.wordLibraries);
    return {
      options: { mode, checkOptions, lang },
      dictionaries: dictionaryTask(uid, dict),
      keyOf: (u) => `${uid}|${u.hash}|${mode}|${checkOptions}|${lang}|${dict.fingerprint}`,
    };
  }

  /** Findings of one unit (offsets relative to the unit), from the cache or the worker pool; not charged. */
  async checkUnit(prepared: PreparedCheck, unit: Pick<Unit, 'text' | 'hash'>, group: string): Promise<Issue[]> {
    const key = prepared.keyOf(unit);
    const hit = this.cache.get(key);
    if (hit) return hit;
    const issues = await this.pool.check(unit.text, prepared.options, group, prepared.dictionaries);
    this.cache.set(key, issues);
    return issues;
  }

  /** Drops the queued units of a group (document jobs use one group per document). */
  cancelGroup(group: string): void {
    this.pool.cancelGroup(group);
  }

  /** Stops a running check of this user and refunds the characters not checked; 404 for unknown / other users' ids. */
  async cancel(uid: number, checkId: string): Promise<{ refunded: number }> {
    const job = this.jobs.get(checkId);
    if (!job || job.uid !== uid) throw notFound('check.unknown_job');
    if (job.finished || job.cancelled) return { refunded: 0 };
    job.cancelled = true;
    this.pool.cancelGroup(job.id);
    const refunded = await this.refund(job, job.pendingCharged, '取消校对退回');
    // what was delivered before the cancel stays spent
    await commitReservation(this.app.db, job.id);
    return { refunded };
  }

  private async refund(job: Job, amount: number, reason: string): Promise<number> {
    if (!job.consumption || amount <= 0) return 0;
    job.pendingCharged -= amount;
    const consumption = job.consumption;
    return refundRight(this.app.db, consumption, amount, reason, (trx) => updateReservation(trx, job.id, consumption));
  }

  private async run(
    job: Job,
    units: Unit[],
    cached: Map<number, Issue[]>,
    options: CheckOptions,
    dictionaries: DictTask,
    keyOf: (u: Unit) => string,
    charged: number,
  ): Promise<void> {
    const { realtime, log } = this.app;
    let remaining = units.length;
    let used = charged;
    const found: Issue[] = [];
    const emit = (unit: Unit, issues: Issue[]) => {
      if (job.cancelled) return;
      found.push(...issues);
      remaining--;
      const done = remaining === 0;
      if (done) job.finished = true;
      realtime.sendToSession(job.sessionId, {
        ...Socket.CheckResult,
        status: 200,
        data: {
          check_id: job.id,
          paragraph: unit.index,
          offset: unit.offset,
          hash: unit.hash,
          done,
          issues: issues.map((i) => ({ ...i, start: i.start + unit.offset, end: i.end + unit.offset })),
          ...(done ? { used } : {}),
        },
      });
    };

    const pending: Array<Promise<void>> = [];
    for (const unit of units) {
      const key = keyOf(unit);
      const hit = cached.get(unit.index);
      if (hit) {
        emit(unit, hit);
        continue;
      }
      pending.push(
        this.pool.check(unit.text, options, job.id, dictionaries).then(
          (issues) => {
            this.cache.set(key, issues);
            if (job.cancelled) return;
            job.pendingCharged -= unit.chars;
            emit(unit, issues);
          },
          async (error: Error) => {
            if (job.cancelled) return;
            log.error({ err: error, check_id: job.id, paragraph: unit.index }, 'paragraph check failed');
            // The paragraph is not charged; the stream goes on (its result message has no issues).
            used -= await this.refund(job, unit.chars, '段落校对失败退回');
            realtime.sendToSession(job.sessionId, {
              ...Socket.CheckResult,
              status: 500,
              data: [renderMessage('check.paragraph_failed', { paragraph: unit.index + 1 })],
            });
            emit(unit, []);
          },
        ),
      );
    }
    await Promise.allSettled(pending);
    if (!job.cancelled) {
      await commitReservation(this.app.db, job.id).catch((error) => log.error({ err: error }, 'check not committed'));
      const chars = units.reduce((s, u) => s + u.chars, 0);
      await recordCheck(this.app.db, { uid: job.uid, kind: 'text', chars, issues: found }).catch((error) =>
        log.error({ err: error }, 'check not recorded for metrics'),
      );
    }
    // finished jobs are remembered a while so cancelling them is a no-op rather than a 404
    setTimeout(() => this.jobs.delete(job.id), 10 * 60 * 1000).unref();
  }
}

const services = new WeakMap<FastifyInstance, CheckService>();

/** The check service of an app (one per app, sharing the process-wide checker pool). */
export function checkService(app: FastifyInstance): CheckService {
  let service = services.get(app);
  if (!service) services.set(app, (service = new CheckService(app)));
  return service;
}
