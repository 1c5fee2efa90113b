/**
 * Advanced proofreading (12-x, result type 11):
 *  12-1 a leader's name next to a title that belongs to another leader of the leader dictionary
 *  12-2 a leader's name misspelt right after one of that leader's titles (one character off)
 *  12-3 an amount written in Chinese capitals (壹佰元) that disagrees with the figures next to it
 *  12-4 leaders listed together (王一、李二) in another order than the leader dictionary's
 */
import { noted } from '../messages';
import type { Issue } from '../types';

export interface Leader {
  name: string;
  titles: string[];
}

export function checkLeaders(text: string, leaders: Leader[]): Issue[] {
  const out: Issue[] = [];
  if (!leaders.length) return out;
  const titleOwners = new Map<string, Leader[]>();
  for (const l of leaders) for (const t of l.titles) if (t) titleOwners.set(t, [...(titleOwners.get(t) ?? []), l]);
  const titles = [...titleOwners.keys()].sort((a, b) => b.length - a.length);
  for (const l of leaders) {
    if (!l.name) continue;
    let idx = text.indexOf(l.name);
    while (idx >= 0) {
      const end = idx + l.name.length;
      // title immediately before the name, or immediately after it
      for (const t of titles) {
        const before = text.slice(Math.max(0, idx - t.length), idx) === t ? idx - t.length : -1;
        const after = text.startsWith(t, end) ? end : -1;
        const at = before >= 0 ? before : after;
        if (at < 0) continue;
        if (!l.titles.includes(t)) {
          const others = (titleOwners.get(t) ?? []).map((x) => x.name).join('、');
          out.push({
            start: at,
            end: at + t.length,
            original: t,
            suggestions: l.titles.slice(0, 3),
            category: '12-1',
            type: 11,
            level: 1,
            ...noted('leader.title', { name: l.name, titles: l.titles.join('、'), title: t, others }),
          });
        }
        break;
      }
      idx = text.indexOf(l.name, end);
    }
  }
  // 12-2: title followed by a near-miss of its owner's name
  for (const [t, owners] of titleOwners) {
    let idx = text.indexOf(t);
    while (idx >= 0) {
      const s = idx + t.length;
      for (const l of owners) {
        const cand = text.slice(s, s + l.name.length);
        if (cand.length !== l.name.length || cand === l.name) continue;
        let diff = 0;
        for (let k = 0; k < cand.length; k++) if (cand[k] !== l.name[k]) diff++;
        if (diff === 1 && cand[0] === l.name[0] && /^[\u4e00-\u9fff]+$/.test(cand)) {
          out.push({
            start: s,
            end: s + cand.length,
            original: cand,
            suggestions: [l.name],
            category: '12-2',
            type: 11,
            level: 1,
            ...noted('leader.name', { title: t, name: l.name, cand }),
          });
        }
      }
      idx = text.indexOf(t, idx + t.length);
    }
  }
  out.push(...checkLeaderOrder(text, leaders));
  return out;
}

/** What may stand between two leaders of one list: separators, and titles of the dictionary. */
const LIST_SEPARATOR = /^[、，,\s和及与]+$/u;

/**
 * 12-4: leaders named one after another (only separators and titles between them, in one sentence) whose order is
 * not the dictionary's. The list is rewritten in order when each item holds one name; otherwise a hint.
 */
function checkLeaderOrder(text: string, leaders: Leader[]): Issue[] {
  const out: Issue[] = [];
  const rank = new Map(leaders.map((l, i) => [l.name, i]));
  const titles = [...new Set(leaders.flatMap((l) => l.titles))].filter(Boolean).sort((a, b) => b.length - a.length);
  const stripTitles = (s: string) => titles.reduce((acc, t) => acc.split(t).join(''), s);
  const found: Array<{ name: string; start: number; end: number }> = [];
  for (const l of leaders) {
    if (!l.name) continue;
    for (let i = text.indexOf(l.name); i >= 0; i = text.indexOf(l.name, i + l.name.length))
      found.push({ name: l.name, start: i, end: i + l.name.length });
  }
  found.sort((a, b) => a.start - b.start);
  let run: typeof found = [];
  const flush = () => {
    if (run.length >= 2 && run.some((m, k) => k > 0 && rank.get(m.name)! < rank.get(run[k - 1].name)!)) {
      // the run's span: from the first item's title (if any) to the last name and a title right after it
      let start = run[0].start;
      for (const t of titles)
        if (text.slice(start - t.length, start) === t) {
          start -= t.length;
          break;
        }
      let end = run[run.length - 1].end;
      for (const t of titles)
        if (text.startsWith(t, end)) {
          end += t.length;
          break;
        }
      const span = text.slice(start, end);
      const parts = span.split(/([、，,\s和及与]+)/u);
      const items = parts.filter((_, k) => k % 2 === 0);
      const seps = parts.filter((_, k) => k % 2 === 1);
      const named = items.map((it) => run.filter((m) => it.includes(m.name)));
      const ordered = [...run].sort((a, b) => rank.get(a.name)! - rank.get(b.name)!).map((m) => m.name);
      const rewritable = items.length === run.length && named.every((n) => n.length === 1);
      const sorted = rewritable
        ? [...items].sort(
            (a, b) => rank.get(named[items.indexOf(a)][0].name)! - rank.get(named[items.indexOf(b)][0].name)!,
          )
        : [];
      out.push({
        start,
        end,
        original: span,
        suggestions: rewritable ? [sorted.map((it, k) => it + (seps[k] ?? '')).join('')] : [],
        category: '12-4',
        type: 11,
        level: 2,
        ...noted('leader.order', { order: ordered.join('、') }),
      });
    }
    run = [];
  };
  for (const m of found) {
    const prev = run[run.length - 1];
    const gap = prev ? text.slice(prev.end, m.start) : '';
    const between = stripTitles(gap);
    if (prev && gap.length <= 24 && between !== '' && LIST_SEPARATOR.test(between)) run.push(m);
    else {
      flush();
      run = [m];
    }
  }
  flush();
  return out;
}

const DIGIT: Record<string, number> = {
  零: 0,
  〇: 0,
  壹: 1,
  贰: 2,
  貳: 2,
  叁: 3,
  參: 3,
  肆: 4,
  伍: 5,
  陆: 6,
  陸: 6,
  柒: 7,
  捌: 8,
  玖: 9,
};
const UNIT: Record<string, number> = { 拾: 10, 佰: 100, 仟: 1000 };
const BIG: Record<string, number> = { 万: 1e4, 萬: 1e4, 亿: 1e8, 億: 1e8 };

/** value in fen (1/100 yuan) of a capital amount like 壹万贰仟叁佰元伍角整 */
export function parseCapitalAmount(s: string): number | null {
  let total = 0,
    section = 0,
    num = 0,
    fen = 0;
  let i = 0;
  for (; i < s.length; i++) {
    const ch = s[i];
    if (ch in DIGIT) num = DIGIT[ch];
    else if (ch in UNIT) {
      section += (num || 1) * UNIT[ch];
      num = 0;
    } else if (ch in BIG) {
      total += (section + num) * BIG[ch];
      section = 0;
      num = 0;
    } else if (ch === '元' || ch === '圆' || ch === '圓') {
      total += section + num;
      section = 0;
      num = 0;
    } else if (ch === '角') {
      fen += num * 10;
      num = 0;
    } else if (ch === '分') {
      fen += num;
      num = 0;
    } else if (ch === '整' || ch === '正') continue;
    else return null;
  }
  return Math.round((total + section + num) * 100) + fen;
}

const CAP = '零壹贰叁肆伍陆柒捌玖';
export function toCapitalAmount(fen: number): string {
  const yuan = Math.floor(fen / 100);
  const jiao = Math.floor((fen % 100) / 10);
  const f = fen % 10;
  const four = (n: number) => {
    let s = '';
    const units = ['仟', '佰', '拾', ''];
    let zero = false;
    for (let k = 0; k < 4; k++) {
      const d = Math.floor(n / 10 ** (3 - k)) % 10;
      if (d === 0) {
        if (s) zero = true;
        continue;
      }
      if (zero) {
        s += '零';
        zero = false;
      }
      s += CAP[d] + units[k];
    }
    return s;
  };
  let s = '';
  const yi = Math.floor(yuan / 1e8),
    wan = Math.floor((yuan % 1e8) / 1e4),
    rest = yuan % 1e4;
  if (yi) s += four(yi) + '亿';
  if (wan) s += (s && wan < 1000 ? '零' : '') + four(wan) + '万';
  if (rest) s += (s && rest < 1000 ? '零' : '') + four(rest);
  if (!s) s = '零';
  s += '元';
  if (!jiao && !f) return s + '整';
  if (jiao) s += CAP[jiao] + '角';
  else if (f) s += '零';
  if (f) s += CAP[f] + '分';
  return s;
}

export function checkAmounts(text: string): Issue[] {
  const out: Issue[] = [];
  const re =
    /([零〇壹贰貳叁參肆伍陆陸柒捌玖拾佰仟万萬亿億]+[元圆圓](?:[零壹贰叁肆伍陆柒捌玖][角分])*(?:[零壹贰叁肆伍陆柒捌玖]分)?[整正]?)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const fen = parseCapitalAmount(m[1]);
    if (fen === null) continue;
    // figures within 12 characters before or after: ¥1,234.50 / 1234.5元 / RMB 1234
    const around =
      text.slice(Math.max(0, m.index - 16), m.index) +
      '\u0000' +
      text.slice(m.index + m[0].length, m.index + m[0].length + 16);
    const num = /(?:[¥￥]|RMB|人民币)?\s*([0-9][0-9,，]*(?:\.[0-9]{1,2})?)\s*(?:元)?/g;
    let n: RegExpExecArray | null;
    let found: number | null = null;
    while ((n = num.exec(around))) {
      const v = Number(n[1].replace(/[,，]/g, ''));
      if (Number.isFinite(v) && /[¥￥.元]|RMB|人民币/.test(n[0])) {
        found = Math.round(v * 100);
        break;
      }
    }
    if (found === null || found === fen) continue;
    out.push({
      start: m.index,
      end: m.index + m[0].length,
      original: m[0],
      suggestions: [toCapitalAmount(found)],
      category: '12-3',
      type: 11,
      level: 1,
      ...noted('amount', { words: m[0], figure: (found / 100).toFixed(2) }),
    });
  }
  return out;
}
