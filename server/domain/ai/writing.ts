/**
 * One AI writing run: right 512 (aiWriteText) is reserved at the start (AI_MAX_OUTPUT_CHARS, or what is left),
 * the model's text streams to the caller and is counted as it comes, the run stops when the reservation is used
 * up, and at the end what was not written is given back. A run that fails gives everything back; a run the
 * user stops pays for what it wrote. The reservation is a check reservation (workers/instance.ts), so a process
 * that dies mid-run has it refunded by whichever process notices.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db';
import { deleteReservation } from '../../db/repos/instances';
import { QuotaError } from '../../errors';
import { releaseReservation, reserve } from '../../workers/instance';
import {
  consumeRight,
  countChars,
  InsufficientRight,
  refundRight,
  rightBalance,
  type Consumption,
  Right,
} from '../rights/ledger';
import type { ChatMessage, ChatProvider } from './provider';

export interface WritingResult {
  /** characters written and charged */
  used: number;
  /** the run stopped at the reservation's end (the characters left, or AI_MAX_OUTPUT_CHARS) */
  truncated: boolean;
  /** the user stopped it */
  cancelled: boolean;
}

class AlreadyReleased extends Error {}

/** What a run draws from a team's pool when the member has nothing of their own left. */
const POOL_STEP = 500;

/**
 * Takes the run's reservation: AI_MAX_OUTPUT_CHARS, or the member's own balance when less, so that a team's pool
 * is not drawn on for characters the run may never write; only a member with nothing left draws on it, a little.
 */
async function reserveRun(app: FastifyInstance, uid: number, runId: string): Promise<Consumption> {
  const cap = app.config.ai.maxOutputChars;
  const own = await rightBalance(app.db, uid, Right.aiChars);
  const take = (amount: number) =>
    consumeRight(app.db, uid, Right.aiChars, amount, 'AI 写作', runId, (trx, c) =>
      reserve(trx, runId, app.instance.id, c),
    );
  try {
    return await take(own > 0 ? Math.min(cap, own) : Math.min(cap, POOL_STEP));
  } catch (error) {
    if (!(error instanceof InsufficientRight)) throw error;
    if (error.available <= 0) throw new QuotaError('ai.exhausted');
    return take(error.available);
  }
}

/** Gives back what the run did not write and ends its reservation (unless a sweep released it already). */
async function settle(db: Db, runId: string, consumption: Consumption, used: number): Promise<void> {
  try {
    await refundRight(db, consumption, consumption.amount - used, 'AI 写作未用退回', async (trx) => {
      if ((await deleteReservation(trx, runId)) !== 1) throw new AlreadyReleased();
    });
  } catch (error) {
    if (!(error instanceof AlreadyReleased)) throw error;
  }
}

/**
 * Streams one run to `write`. Throws QuotaError before anything is written when right 512 is used up, and
 * ChatError (after refunding) when the service fails.
 */
export async function runWriting(
  app: FastifyInstance,
  provider: ChatProvider,
  input: { uid: number; messages: ChatMessage[]; signal: AbortSignal },
  write: (text: string) => void,
): Promise<WritingResult> {
  const runId = `ai-${randomUUID()}`;
  const consumption = await reserveRun(app, input.uid, runId);
  const limit = consumption.amount;
  // the provider stops at the user's cancel and when the reservation is used up
  const stop = new AbortController();
  const signal = AbortSignal.any([input.signal, stop.signal]);
  let used = 0;
  let truncated = false;
  try {
    for await (const piece of provider.stream(input.messages, { signal })) {
      const chars = countChars(piece);
      if (used + chars <= limit) {
        used += chars;
        write(piece);
        continue;
      }
      // the last piece that fits, character by character (white space is free)
      let fit = '';
      for (const ch of piece) {
        const n = countChars(ch);
        if (used + n > limit) break;
        used += n;
        fit += ch;
      }
      if (fit) write(fit);
      truncated = true;
      stop.abort();
      break;
    }
  } catch (error) {
    await releaseReservation(app.db, runId, 'AI 写作失败退回');
    throw error;
  }
  await settle(app.db, runId, consumption, used);
  return { used, truncated, cancelled: input.signal.aborted && !truncated };
}
