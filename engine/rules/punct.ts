/**
 * Punctuation and spacing (GB/T 15834):
 *  10-1 half-width punctuation inside Chinese text (, . ; : ? ! ( ) -> ，。；：？！（）)
 *  10-2 unpaired quotes and brackets (“” ‘’ （） 《》 【】 「」 『』)
 *  10-3 repeated or conflicting punctuation (，， 。。 ，。 ...)
 *  10-4 spaces between Chinese characters
 *  10-5 other norms: ellipsis written as ... / 。。。 / single …, dash written as -- , full-width Latin letters and digits
 */
import { noted } from '../messages';
import type { Issue } from '../types';

const isHan = (ch: string | undefined) => !!ch && /[\u3400-\u4dbf\u4e00-\u9fff]/.test(ch);
const isCjkOrFull = (ch: string | undefined) =>
  !!ch && /[\u3400-\u4dbf\u4e00-\u9fff\u3000-\u303f\uff00-\uffef“”‘’]/.test(ch);
const HALF_TO_FULL: Record<string, string> = {
  ',': '，',
  ';': '；',
  ':': '：',
  '?': '？',
  '!': '！',
  '(': '（',
  ')': '）',
  '.': '。',
};

const BYLINE_ROLE = /(?:^|[（(\s]|本报|特约|见习|实习)(?:记者|通讯员|摄影|编辑|责编|撰稿|文|图)$/;

export function checkPunctuation(text: string, skip: Uint8Array): Issue[] {
  const out: Issue[] = [];
  const add = (start: number, end: number, sugg: string[], category: string, said: ReturnType<typeof noted>) => {
    for (let k = start; k < end; k++) if (skip[k]) return;
    out.push({ start, end, original: text.slice(start, end), suggestions: sugg, category, level: 2, ...said });
  };
  // 10-5 ellipsis and dash first (so 10-1/10-3 do not report their parts)
  const taken = new Uint8Array(text.length);
  const take = (s: number, e: number) => taken.fill(1, s, e);
  let m: RegExpExecArray | null;
  const ellipsis = /\.{3,}|。{3,}|…+/g;
  while ((m = ellipsis.exec(text))) {
    if (m[0] === '……') continue;
    const prev = text[m.index - 1];
    const next = text[m.index + m[0].length];
    if (!(isCjkOrFull(prev) || isCjkOrFull(next))) continue;
    add(m.index, m.index + m[0].length, ['……'], '10-5', noted('punct.ellipsis', { mark: m[0] }));
    take(m.index, m.index + m[0].length);
  }
  const dash = /(?<=[\u4e00-\u9fff])(?:--+|—(?!—)|－－)(?=[\u4e00-\u9fff])/g;
  while ((m = dash.exec(text))) {
    if (text[m.index - 1] === '—') continue;
    add(m.index, m.index + m[0].length, ['——'], '10-5', noted('punct.dash', { mark: m[0] }));
    take(m.index, m.index + m[0].length);
  }
  const fullAlnum = /[Ａ-Ｚａ-ｚ０-９]+/g;
  while ((m = fullAlnum.exec(text))) {
    const half = m[0].replace(/[Ａ-Ｚａ-ｚ０-９]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));
    add(m.index, m.index + m[0].length, [half], '10-5', noted('punct.halfwidth', { half }));
    take(m.index, m.index + m[0].length);
  }
  // 10-1 half-width punctuation next to Chinese
  for (let i = 0; i < text.length; i++) {
    // (the marks are all ASCII: the rest of the text is passed over without making a string per character)
    if (text.charCodeAt(i) > 0x7f) continue;
    const ch = text[i];
    const full = HALF_TO_FULL[ch];
    if (!full || taken[i]) continue;
    const prev = text[i - 1];
    const next = text[i + 1];
    let chinese: boolean;
    if (ch === '(') chinese = isHan(prev) || isHan(next);
    else if (ch === ')') chinese = isHan(prev) || isHan(next);
    else if (ch === '.') chinese = isHan(prev) && (next === undefined || next === '\n' || isHan(next) || next === ' ');
    else chinese = isHan(prev) && (next === undefined || next === ' ' || next === '\n' || isCjkOrFull(next));
    if (!chinese) continue;
    add(i, i + 1, [full], '10-1', noted('punct.fullwidth', { full, mark: ch }));
    take(i, i + 1);
  }
  // 10-3 repeated / conflicting punctuation
  const rep = /[，。、；：？！,]{2,}/g;
  while ((m = rep.exec(text))) {
    const s = m[0];
    if (/^[？！]+$/.test(s) && s.length <= 3) continue; // ？！ / ！！ for emphasis are tolerated
    let tk = false;
    for (let k = m.index; k < m.index + s.length; k++) if (taken[k]) tk = true;
    if (tk) continue;
    const last = s[s.length - 1] === ',' ? '，' : s[s.length - 1];
    const keep = /[。？！]/.test(s) ? (s.match(/[。？！]/)?.[0] ?? last) : last;
    add(m.index, m.index + s.length, [keep], '10-3', noted('punct.repeated', { marks: s, keep }));
  }
  // 10-4 spaces between Chinese characters
  const sp = /(?<=[\u4e00-\u9fff，。、；：？！])[ \u3000\t]+(?=[\u4e00-\u9fff])/g;
  while ((m = sp.exec(text))) {
    const s = m.index - 1;
    const e = m.index + m[0].length + 1;
    // a press byline parts the reporter's role from the name by a space: （记者 王磊）, 通讯员 李想
    if (BYLINE_ROLE.test(text.slice(Math.max(0, s - 7), s + 1))) continue;
    add(s, e, [text[s] + text[e - 1]], '10-4', noted('punct.space'));
  }
  // 10-2 unpaired quotes and brackets (per paragraph)
  const pairs: Record<string, string> = {
    '“': '”',
    '‘': '’',
    '（': '）',
    '《': '》',
    '【': '】',
    '「': '」',
    '『': '』',
  };
  const closers = new Map(Object.entries(pairs).map(([a, b]) => [b, a]));
  let stack: Array<[string, number]> = [];
  const flush = () => {
    for (const [ch, pos] of stack)
      add(pos, pos + 1, [], '10-2', noted('punct.unpaired', { mark: ch, pair: pairs[ch] }));
    stack = [];
  };
  for (let i = 0; i < text.length; i++) {
    // (Han characters, most of the text, are no marks: passed over without making a string each)
    const code = text.charCodeAt(i);
    if (code >= 0x4e00 && code <= 0x9fff) continue;
    const ch = text[i];
    if (ch === '\n') {
      flush();
      continue;
    }
    if (pairs[ch]) stack.push([ch, i]);
    else if (closers.has(ch)) {
      const open = closers.get(ch)!;
      let k = stack.length - 1;
      while (k >= 0 && stack[k][0] !== open) k--;
      if (k < 0) add(i, i + 1, [], '10-2', noted('punct.unpaired', { mark: ch, pair: open }));
      else {
        for (const [c2, p2] of stack.slice(k + 1))
          add(p2, p2 + 1, [], '10-2', noted('punct.unpaired', { mark: c2, pair: pairs[c2] }));
        stack.length = k;
      }
    }
  }
  flush();
  return out;
}
