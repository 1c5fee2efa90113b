/**
 * Prose paragraphs from the Chinese man pages Debian's manpages-zh installs (/usr/share/man/zh_CN, gzip'd roff).
 * The pages are read where they are installed and never copied into the project (GFDL and other licences).
 *
 * A small roff reader rather than groff: groff joins wrapped lines with a space, which would put spaces between
 * Chinese characters that the source never had; here a line break between two Chinese characters joins without one.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

export const MAN_ZH = '/usr/share/man/zh_CN';

export interface Paragraph {
  /** where it comes from: `man1/ls.1` or `official` */
  page: string;
  text: string;
  /** sha1 of the text, first 10 hex digits: labels are keyed by it, so they survive pages that move lines */
  hash: string;
}

export const paraHash = (text: string) => createHash('sha1').update(text).digest('hex').slice(0, 10);

export type Half = 'tuning' | 'held-out' | 'reserve';

/**
 * The part a page belongs to, fixed by a hash of its name alone (not of its text, so an edit of the reader cannot move
 * a page): the sha1's first byte mod 8 is 0 for the tuning half, 1 for the held-out half, anything else for the
 * reserve. Each half is about a sixteenth of the 1.1 M characters, the size of one long manual, small enough to label
 * every finding by hand; the reserve keeps fresh held-out pages for later rounds, since a half once looked at is spent.
 */
export function halfOf(page: string): Half {
  const b = createHash('sha1').update(page).digest()[0] % 8;
  return b === 0 ? 'tuning' : b === 1 ? 'held-out' : 'reserve';
}

// a break starts a new paragraph; a text macro's arguments are words of the running paragraph
const BREAK = new Set(
  'PP P LP TP IP HP SH SS Sh Ss Sp sp br Pp It Bl El Ip RS RE TH Dd Dt Os bp ne in ti Nd D1 Dl Bd Ed ce'.split(' '),
);
const HEADER = new Set(['SH', 'SS', 'Sh', 'Ss', 'TH', 'Dt', 'Nd', 'IP', 'Ip']);
const TEXT = new Set('B I BR IR BI RB RI IB SM SB Nm Ar Fl Xr Ql Ic Em Sy Pa Va Cm Dv Ev Li Op Tn Fn Ft'.split(' '));
const CODE_START = new Set(['nf', 'Vb', 'CS', 'EX', 'Bd']);
const CODE_END = new Set(['fi', 'Ve', 'CE', 'EE', 'Ed']);

const SPECIAL: Record<string, string> = {
  em: '—',
  en: '–',
  lq: '“',
  rq: '”',
  oq: '‘',
  cq: '’',
  aq: "'",
  dq: '"',
  bu: '·',
  hy: '-',
  mi: '-',
  co: '©',
  rg: '®',
  tm: '™',
  '<-': '←',
  '->': '→',
  mu: '×',
  de: '°',
  ti: '~',
  ha: '^',
  rs: '\\',
  ga: '`',
  aa: '´',
};

/** roff escapes out of one line of text */
export function unescape(line: string): string {
  return line
    .replace(/\\".*$/, '')
    .replace(/\\f(\[[^\]]*\]|\(..|.)/g, '')
    .replace(/\\s[+-]?(\d|\(\d\d|\[\d+\])/g, '')
    .replace(/\\\(([^\s]{2})/g, (_, n: string) => SPECIAL[n] ?? '')
    .replace(/\\\[([^\]]*)\]/g, (_, n: string) => SPECIAL[n] ?? '')
    .replace(/\\\*(\(..|\[[^\]]*\]|.)/g, (_, n: string) => {
      const name = n.replace(/^[([]|]$/g, '');
      return name === 'lq' || name === 'L"' ? '“' : name === 'rq' || name === 'R"' ? '”' : '';
    })
    .replace(/\\n(\(..|\[[^\]]*\]|.)/g, '')
    .replace(/\\[kwhvlLbDHNoSXxZz]'[^']*'/g, '')
    .replace(/\\[-]/g, '-')
    .replace(/\\e/g, '\\')
    .replace(/\\[ 0~]/g, ' ')
    .replace(/\\[&|^%c:/,)!{}]/g, '')
    .replace(/\\(.)/g, '$1');
}

/** macro arguments, with roff's double quotes */
function args(rest: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"]|"")*)"?|(\S+)/g;
  for (let m = re.exec(rest); m; m = re.exec(rest)) out.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]);
  return out;
}

const CJK_END = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]$/;
const CJK_START = /^[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;

/** joins a wrapped line onto a paragraph: no space where a Chinese character meets a Chinese character */
function join(para: string, piece: string): string {
  const a = para.replace(/\s+$/, '');
  const b = piece.replace(/^\s+/, '');
  if (!a) return b;
  if (!b) return a;
  return CJK_END.test(a) && CJK_START.test(b) ? a + b : `${a} ${b}`;
}

/** the paragraphs of one page's roff source, headers and code blocks left out */
export function roffParagraphs(src: string): string[] {
  const out: string[] = [];
  let cur = '';
  let code = false;
  let inDef = false;
  let skipNext = false;
  const flush = () => {
    const t = cur.trim();
    if (t) out.push(t);
    cur = '';
  };
  for (const raw of src.split('\n')) {
    if (inDef) {
      if (raw.startsWith('..')) inDef = false;
      continue;
    }
    const m = /^[.'][ \t]*([A-Za-z]{1,3}|\\")(.*)$/.exec(raw);
    if (m) {
      const [, name, rest] = m;
      if (name === '\\"') continue;
      if (name === 'de' || name === 'ig' || name === 'am') {
        inDef = true;
        continue;
      }
      if (CODE_START.has(name)) {
        flush();
        code = true;
        continue;
      }
      if (CODE_END.has(name)) {
        code = false;
        continue;
      }
      if (code) continue;
      if (BREAK.has(name)) {
        flush();
        // a header's words and a list item's tag are not prose; the line after .TP is the tag
        if (name === 'TP') skipNext = true;
        if (HEADER.has(name)) continue;
        continue;
      }
      if (TEXT.has(name)) {
        if (skipNext) {
          skipNext = false;
          continue;
        }
        cur = join(cur, unescape(args(rest).join(name.length === 2 && /[BIR]{2}/.test(name) ? '' : ' ')));
      }
      continue;
    }
    if (raw.startsWith('.') || raw.startsWith("'")) continue;
    if (code) continue;
    if (skipNext) {
      skipNext = false;
      continue;
    }
    if (!raw.trim()) {
      flush();
      continue;
    }
    cur = join(cur, unescape(raw));
  }
  flush();
  return out;
}

const HAN = /[\u3400-\u9fff]/g;

/** a Chinese prose paragraph: at least 12 Chinese characters, and more Chinese characters than Latin letters */
export function isChineseProse(text: string): boolean {
  const han = text.match(HAN)?.length ?? 0;
  const latin = text.match(/[A-Za-z]/g)?.length ?? 0;
  return han >= 12 && han > latin;
}

/** every installed page's Chinese paragraphs, pages in name order; null when manpages-zh is not installed */
export function readManPages(dir = MAN_ZH): Paragraph[] | null {
  if (!existsSync(dir)) return null;
  const out: Paragraph[] = [];
  for (const section of readdirSync(dir).sort()) {
    if (!/^man\w+$/.test(section)) continue;
    for (const file of readdirSync(path.join(dir, section)).sort()) {
      const buf = readFileSync(path.join(dir, section, file));
      const src = (file.endsWith('.gz') ? gunzipSync(buf) : buf).toString('utf8');
      // a page that is only `.so other-page` is the other page's alias
      if (/^\.so\s/m.test(src) && src.split('\n').filter((l) => l.trim()).length < 3) continue;
      const page = `${section}/${file.replace(/\.gz$/, '')}`;
      const seen = new Set<string>();
      for (const text of roffParagraphs(src)) {
        if (!isChineseProse(text) || seen.has(text)) continue;
        seen.add(text);
        out.push({ page, text, hash: paraHash(text) });
      }
    }
  }
  return out;
}
