/** 9-2 dates: impossible dates (2月30日, 13月) and a weekday that does not match the date. */
import { noted } from '../messages';
import type { Issue } from '../types';

const toHalf = (s: string) => s.replace(/[０-９]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0));
const CN_NUM: Record<string, number> = {
  〇: 0,
  零: 0,
  一: 1,
  二: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
  十: 10,
};
function cnToInt(s: string): number {
  if (/^[0-9]+$/.test(s)) return Number(s);
  if (s.length === 4) return Number([...s].map((c) => CN_NUM[c]).join(''));
  // 十, 十二, 二十, 二十一, 三十一
  let n = 0;
  const t = s.indexOf('十');
  if (t < 0) return CN_NUM[s] ?? NaN;
  n += (t === 0 ? 1 : CN_NUM[s[0]]) * 10;
  if (t < s.length - 1) n += CN_NUM[s[t + 1]];
  return n;
}
const WEEK = ['日', '一', '二', '三', '四', '五', '六'];

export function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

export function checkDates(text: string): Issue[] {
  const out: Issue[] = [];
  const re = new RegExp(
    '([0-9０-９]{4}|[〇零一二三四五六七八九]{4})年([0-9０-９]{1,2}|[一二三四五六七八九十]{1,3})月' +
      '([0-9０-９]{1,2}|[一二三四五六七八九十]{1,3})[日号]((?:[（(，, ]?)(?:星期|周|礼拜|禮拜|週)([一二三四五六日天])[）)]?)?',
    'g',
  );
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const y = cnToInt(toHalf(m[1]));
    const mo = cnToInt(toHalf(m[2]));
    const d = cnToInt(toHalf(m[3]));
    if (!Number.isFinite(y) || !Number.isFinite(mo) || !Number.isFinite(d)) continue;
    const dateEnd = m.index + m[0].length - (m[4]?.length ?? 0);
    if (mo < 1 || mo > 12) {
      out.push({
        start: m.index,
        end: dateEnd,
        original: text.slice(m.index, dateEnd),
        suggestions: [],
        category: '9-2',
        level: 2,
        ...noted('date.month', { month: mo }),
      });
      continue;
    }
    const dim = daysInMonth(y, mo);
    if (d < 1 || d > dim) {
      out.push({
        start: m.index,
        end: dateEnd,
        original: text.slice(m.index, dateEnd),
        suggestions: [],
        category: '9-2',
        level: 2,
        ...noted('date.days', { year: y, month: mo, days: dim }),
      });
      continue;
    }
    if (m[5]) {
      const wd = new Date(Date.UTC(y, mo - 1, d)).getUTCDay();
      const given = m[5] === '天' ? 0 : WEEK.indexOf(m[5]);
      if (given !== wd) {
        const pos = m.index + m[0].lastIndexOf(m[5]);
        out.push({
          start: pos,
          end: pos + 1,
          original: m[5],
          suggestions: [WEEK[wd]],
          category: '9-2',
          level: 2,
          ...noted('date.weekday', {
            year: y,
            month: mo,
            day: d,
            weekday: { id: `weekday.${wd}` },
            given: { id: m[5] === '天' ? 'weekday.0-tian' : `weekday.${given}` },
          }),
        });
      }
    }
  }
  const iso = /(?<![0-9])(\d{4})-(\d{1,2})-(\d{1,2})(?![0-9])/g;
  while ((m = iso.exec(text))) {
    const y = Number(m[1]),
      mo = Number(m[2]),
      d = Number(m[3]);
    if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) {
      out.push({
        start: m.index,
        end: m.index + m[0].length,
        original: m[0],
        suggestions: [],
        category: '9-2',
        level: 2,
        ...noted('date.invalid', { date: m[0] }),
      });
    }
  }
  return out;
}
