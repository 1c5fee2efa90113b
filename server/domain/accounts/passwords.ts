import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { ServerMessageCode } from '../../../openapi/messages';
import { loadConfig } from '../../config';

// scrypt with a per-user salt; parameters travel with the hash so they can be raised later (PASSWORD_HASH_COST).
const BLOCK = { r: 8, p: 1 };
const KEY_LENGTH = 64;
/**
 * The memory scrypt may take: twice the 128 * N * r bytes of the largest PASSWORD_HASH_COST (16, server/config.ts),
 * so every allowed cost derives, and a stored hash claiming more fails instead of taking the memory.
 */
const MAX_MEMORY = 2 * 128 * 2 ** 16 * BLOCK.r;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: MAX_MEMORY }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string, cost = loadConfig().passwordHashCost): Promise<string> {
  const salt = randomBytes(16);
  const params = { N: 2 ** cost, ...BLOCK };
  const key = await derive(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Product rule for new passwords: 6 to 32 characters, not only spaces. */
export function passwordProblem(password: string): ServerMessageCode | null {
  if (password.length < 6 || password.length > 32) return 'account.password_length';
  if (password.trim() === '') return 'account.password_blank';
  return null;
}
