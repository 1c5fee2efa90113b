import { appendFile, mkdir } from 'node:fs/promises';
import { createHash, randomInt } from 'node:crypto';
import { join } from 'node:path';
import type { Db } from '../db';
import { isoIn, nowIso } from '../db';
import { countCodeAttempt, findLatestUnusedCode, insertSmsCode, markCodeUsed, useUpCodes } from '../db/repos/sms-codes';
import { badRequest, tooManyRequests } from '../errors';

/**
 * register; reset (the password); phone (to the new phone of PUT /user/phone); verify_old (to the account's
 * current phone, instead of the password for PUT /user/phone).
 */
export type SmsPurpose = 'register' | 'phone' | 'reset' | 'verify_old';

/** Delivers verification codes. Real gateways implement this; `console` is the development default. */
export interface SmsProvider {
  readonly name: string;
  sendCode(message: { phone: string; code: string; purpose: SmsPurpose }): Promise<void>;
  /** A team invitation: the team's name and the join link (the invitation's code is in it). */
  sendInvitation?(message: { phone: string; team: string; link: string }): Promise<void>;
}

/** Prints the code and appends `{"phone","code","purpose","at"}` to `${dataDir}/sms-outbox.jsonl`. */
export function consoleSmsProvider(dataDir: string, log: (line: string) => void = console.log): SmsProvider {
  const outbox = join(dataDir, 'sms-outbox.jsonl');
  return {
    name: 'console',
    async sendCode({ phone, code, purpose }) {
      log(`[sms] verification code for ${phone} (${purpose}): ${code}`);
      await mkdir(dataDir, { recursive: true });
      await appendFile(outbox, JSON.stringify({ phone, code, purpose, at: new Date().toISOString() }) + '\n');
    },
    async sendInvitation({ phone, team, link }) {
      // the link is a credential for this phone only: it goes to the outbox, not to the log
      log(`[sms] team invitation for ${phone} to "${team}" (link in sms-outbox.jsonl)`);
      await mkdir(dataDir, { recursive: true });
      await appendFile(
        outbox,
        JSON.stringify({ phone, team, link, purpose: 'invite', at: new Date().toISOString() }) + '\n',
      );
    },
  };
}

export function createSmsProvider(name: string, dataDir: string, log?: (line: string) => void): SmsProvider {
  if (name === 'console') return consoleSmsProvider(dataDir, log);
  throw new Error(`unknown SMS_PROVIDER "${name}" (available: console)`);
}

export const SMS_CODE_LIFETIME_MS = 5 * 60 * 1000;
export const SMS_CODE_MAX_ATTEMPTS = 5;

const hashCode = (phone: string, purpose: string, code: string) =>
  createHash('sha256').update(`${phone}|${purpose}|${code}`).digest('hex');

/** Stores a fresh 6-digit code (hashed) and sends it; earlier codes for the same phone+purpose stop working. */
export async function issueSmsCode(db: Db, sms: SmsProvider, phone: string, purpose: SmsPurpose): Promise<number> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await db.transaction().execute(async (trx) => {
    await useUpCodes(trx, phone, purpose, nowIso());
    await insertSmsCode(trx, {
      phone,
      purpose,
      code_hash: hashCode(phone, purpose, code),
      attempts: 0,
      created_at: nowIso(),
      expires_at: isoIn(SMS_CODE_LIFETIME_MS),
      used_at: null,
    });
  });
  await sms.sendCode({ phone, code, purpose });
  return SMS_CODE_LIFETIME_MS / 1000;
}

/** Consumes the code or throws 400 with the reason; too many wrong tries burn the code. */
export async function consumeSmsCode(db: Db, phone: string, purpose: SmsPurpose, code: string): Promise<void> {
  const row = await findLatestUnusedCode(db, phone, purpose);
  if (!row || row.expires_at <= nowIso()) throw badRequest('sms.expired');
  // Counted before the comparison, in one statement: parallel guesses (several processes, PostgreSQL) each take a
  // place, and those past the limit are refused unchecked. A burnt code cannot succeed again before it would have
  // expired (a new code can be asked for now).
  if (!(await countCodeAttempt(db, row.id, SMS_CODE_MAX_ATTEMPTS)))
    throw tooManyRequests((Date.parse(row.expires_at) - Date.now()) / 1000, 'sms.too_many_wrong');
  if (row.code_hash !== hashCode(phone, purpose, code)) throw badRequest('sms.wrong');
  // two requests with the right code at once: the second finds it used
  if (!(await markCodeUsed(db, row.id, nowIso()))) throw badRequest('sms.expired');
}
