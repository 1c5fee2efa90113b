// Every reason the server writes into the rights history has a code, so /right's records read in en and hk: the cn
// texts passed to the rights service are looked up in RIGHT_REASONS when written (a text it lacks would show in cn).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeOfText, reasonColumns, reasonText, RIGHT_REASONS } from '../../server/domain/rights/reasons';

const SERVER = join(import.meta.dirname, '..', '..', 'server');
const CALLS = /\b(?:consumeRight|refundRight|releaseReservation|refundStoredCharge|addGrant|this\.refund)\(/g;
const HAN_LITERAL = /'([^'\n]*\p{Script=Han}[^'\n]*)'/gu;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The text of a call's arguments: from its opening parenthesis to the one closing it. */
function argumentsAt(source: string, open: number): string {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    if (source[i] === '(') depth++;
    else if (source[i] === ')' && --depth === 0) return source.slice(open, i + 1);
  }
  return source.slice(open);
}

describe('right reasons', () => {
  it('every cn reason the server passes to the rights service has a code', () => {
    const unknown: string[] = [];
    let seen = 0;
    for (const file of files(SERVER)) {
      const source = readFileSync(file, 'utf8');
      for (const call of source.matchAll(CALLS)) {
        const args = argumentsAt(source, call.index + call[0].length - 1);
        for (const [, text] of args.matchAll(HAN_LITERAL)) {
          seen++;
          if (!codeOfText(text)) unknown.push(`${file.slice(SERVER.length + 1)}: ${text}`);
        }
      }
    }
    expect(seen).toBeGreaterThan(10);
    expect(unknown).toEqual([]);
  });

  it('writes each code in en without Han characters, and keeps a text it does not know', () => {
    for (const [code, forms] of Object.entries(RIGHT_REASONS)) {
      const columns = reasonColumns(
        forms.cn.includes('{') ? { code: 'grant.purchase', params: { product: 'X' } } : code,
      );
      expect(columns.reason_code).toBe(code);
      expect(reasonText(columns, 'en')).not.toMatch(/\p{Script=Han}/u);
    }
    const free = reasonColumns('运营手工调整');
    expect(free).toEqual({ reason: '运营手工调整', reason_code: null, reason_params: null });
    expect(reasonText(free, 'en')).toBe('运营手工调整');
  });
});
