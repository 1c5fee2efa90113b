import { appendFile, mkdir } from 'node:fs/promises';
import { createHash, randomInt } from 'node:crypto';
import { join } from 'node:path';
import type { Db } from '../../db';
import { isoIn, nowIso } from '../../db';
import {
  countCodeAttempt,
  findLatestUnusedCode,
  insertSmsCode,
  markCodeUsed,
  useUpCodes,
} from '../../db/repos/sms-codes';
import { badRequest, tooManyRequests, unavailable } from '../../errors';
import type { SmsConfig } from '../../config';
import { countProviderError } from '../../metrics';
import { aliyunSms, tencentSms, webhookSms, type SmsProvider, type SmsPurpose } from './sms-gateways';

export type { SmsProvider, SmsPurpose } from './sms-gateways';

/**
 * Sends nothing: appends `{"phone","code","purpose","at"}` to `${dataDir}/sms-outbox.jsonl` and says so. The code
 * itself is printed only outside production (`showCode`), where a developer reads it off the terminal.
 */
export function consoleSmsProvider(
  dataDir: string,
  log: (line: string) => void = console.log,
  showCode = process.env.NODE_ENV !== 'production',
): SmsProvider {
  const outbox = join(dataDir, 'sms-outbox.jsonl');
  return {
    name: 'console',
    async sendCode({ phone, code, purpose }) {
      const shown = showCode ? `: ${code}` : ' (in sms-outbox.jsonl)';
      log(`[sms] SMS_PROVIDER=console, no SMS was sent. Verification code for ${phone} (${purpose})${shown}`);
      await mkdir(dataDir, { recursive: true });
      await appendFile(outbox, JSON.stringify({ phone, code, purpose, at: new Date().toISOString() }) + '\n');
    },
    async sendInvitation({ phone, team, link }) {
      // the link is a credential for this phone only: it goes to the outbox, not to the log
      log(`[sms] SMS_PROVIDER=console, no SMS was sent. Team invitation for ${phone} to "${team}" (link in outbox)`);
      await mkdir(dataDir, { recursive: true });
      await appendFile(
        outbox,
        JSON.stringify({ phone, team, link, purpose: 'invite', at: new Date().toISOString() }) + '\n',
      );
    },
  };
}

export interface SmsLogs {
  /** the console provider's lines */
  print?: (line: string) => void;
  /** a gateway's failures (never with a key, a code or a link) */
  warn?: (fields: Record<string, unknown>, message: string) => void;
}

/** The provider SMS_PROVIDER names, with its settings (config.ts has checked that the required ones are there). */
export function createSmsProvider(settings: SmsConfig, dataDir: string, logs: SmsLogs = {}): SmsProvider {
  const common = { timeoutMs: settings.timeoutMs, warn: logs.warn ?? (() => {}) };
  const { signName, templates } = settings;
  switch (settings.provider) {
    case 'console':
      return consoleSmsProvider(dataDir, logs.print);
    case 'aliyun':
      return aliyunSms({ ...common, ...settings.aliyun, signName, templates });
    case 'tencent':
      return tencentSms({ ...common, ...settings.tencent, signName, templates });
    case 'webhook':
      return webhookSms({ ...common, ...settings.webhook });
  }
}

/** Hands the message to the provider; when it could not be sent the caller is told 503 `sms.unavailable`. */
export async function deliver(send: () => Promise<void>, warn?: (err: unknown) => void): Promise<void> {
  try {
    await send();
  } catch (err) {
    warn?.(err);
    countProviderError('sms');
    throw unavailable('sms.unavailable');
  }
}

/** Whether the error is a gateway's failure (`deliver`'s 503), after which the caller's rate-limit slots go back. */
export const isSmsUnavailable = (err: unknown): boolean =>
  err instanceof Error && 'msgCode' in err && err.msgCode === 'sms.unavailable';

export const SMS_CODE_LIFETIME_MS = 5 * 60 * 1000;
export const SMS_CODE_MAX_ATTEMPTS = 5;

const hashCode = (phone: string, purpose: string, code: string) =>
  createHash('sha256').update(`${phone}|${purpose}|${code}`).digest('hex');

/**
 * Sends a fresh 6-digit code and then stores it (hashed); earlier codes for the same phone+purpose stop working.
 * Sent first: a code the gateway refused (503 `sms.unavailable`) is never stored, and the earlier one still works.
 */
export async function issueSmsCode(
  db: Db,
  sms: SmsProvider,
  phone: string,
  purpose: SmsPurpose,
  warn?: (err: unknown) => void,
): Promise<number> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await deliver(() => sms.sendCode({ phone, code, purpose }), warn);
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
