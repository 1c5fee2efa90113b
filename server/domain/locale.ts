/**
 * The reader's language for the data the server hands out (product names, right titles, the rules, the guide,
 * templates, word libraries, ledger texts). The SPA sends its interface language as `Accept-Language` (zh-CN, en,
 * zh-HK); a client that sends none reads cn, as before.
 *
 * Built-in and seeded texts carry their other forms as `Forms` ({ en: {...}, hk: {...} }: in code beside the cn
 * text, or in a row's JSON `i18n` column). A form that is missing falls back: hk is the cn text in Hong Kong
 * characters (OpenCC), en is the cn text.
 */
import { createRequire } from 'node:module';
import type { FastifyRequest } from 'fastify';
import type * as OpenCC from 'opencc-js';

export type Lang = 'cn' | 'en' | 'hk';
export const LANGS: readonly Lang[] = ['cn', 'en', 'hk'];

/** A text's other forms, field by field; any field may be missing. */
export type Forms<T> = Partial<Record<'en' | 'hk', Partial<T>>>;

/** The language of one Accept-Language tag, or null for a language the server does not write. */
function langOfTag(tag: string): Lang | null {
  const t = tag.trim().toLowerCase();
  if (t === 'en' || t.startsWith('en-')) return 'en';
  if (t === 'zh' || t === 'cn' || t === 'zh-cn' || t === 'zh-sg' || t.startsWith('zh-hans')) return 'cn';
  if (t === 'hk' || t.startsWith('zh-hk') || t.startsWith('zh-mo') || t.startsWith('zh-tw')) return 'hk';
  if (t.startsWith('zh-hant')) return 'hk';
  return null;
}

/** The best language of an Accept-Language value (by q, then order); cn when none is one the server writes. */
export function parseAcceptLanguage(header: string | string[] | undefined): Lang {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  let best: { lang: Lang; q: number } | null = null;
  for (const part of value.split(',')) {
    const [tag, ...params] = part.split(';');
    const lang = langOfTag(tag);
    if (!lang) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue;
    if (!best || q > best.q) best = { lang, q };
  }
  return best?.lang ?? 'cn';
}

/** The language a request asks for (its Accept-Language header); cn by default. */
export function requestLang(request: Pick<FastifyRequest, 'headers'>): Lang {
  return parseAcceptLanguage(request.headers['accept-language']);
}

const require = createRequire(import.meta.url);
let toHk: ((s: string) => string) | null = null;

/** Simplified to Hong Kong traditional characters; the tables load with the first text that needs them. */
export function cnToHk(text: string): string {
  if (!toHk) {
    const { Converter }: typeof OpenCC = require('opencc-js/cn2t');
    toHk = Converter({ from: 'cn', to: 'hk' });
  }
  return toHk(text);
}

/**
 * Words OpenCC leaves in their mainland form that the interface's hk catalogue writes the Hong Kong way (for the
 * site's own texts only: a user's document keeps its words).
 */
const HK_WORDS: Array<[RegExp, string]> = [
  [/文檔/g, '文件'],
  [/模板/g, '範本'],
  [/賬號/g, '帳號'],
  [/賬户/g, '帳戶'],
];

/** The site's own text (names, titles, the rules) in Hong Kong characters and wording. */
export function siteTextToHk(text: string): string {
  return HK_WORDS.reduce((t, [from, to]) => t.replace(from, to), cnToHk(text));
}

/** One cn text in `lang`: its own form when given, else hk by OpenCC and en as the cn text. */
export function localizeText(lang: Lang, cn: string, forms?: { en?: string; hk?: string }): string {
  if (lang === 'cn') return cn;
  if (lang === 'en') return forms?.en || cn;
  return forms?.hk || siteTextToHk(cn);
}

/** The text fields of `cn` in `lang` (fields not in `cn` are left alone). */
export function localize<T extends Record<string, string>>(lang: Lang, cn: T, forms?: Forms<T> | null): T {
  if (lang === 'cn') return cn;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(cn))
    out[key] = localizeText(lang, value, { en: forms?.en?.[key], hk: forms?.hk?.[key] });
  return out as T;
}

/** A row's JSON `i18n` column read back; anything malformed is no forms at all (the fallbacks apply). */
export function parseForms<T>(json: string | null | undefined): Forms<T> | null {
  if (!json) return null;
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null ? (value as Forms<T>) : null;
  } catch {
    return null;
  }
}
