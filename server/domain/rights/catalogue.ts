import { localizeText, type Lang } from '../locale';

/**
 * The rights catalogue (spec §3, §5): which right types there are, their names, which are ceilings rather than
 * balances, what each role is granted by default and what a "character" is. Pure data and functions: the ledger
 * (rights.ts: grants, consumption, refunds) and the team packages both read it, neither is imported here.
 */

export const RIGHT_TYPES = [
  1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 65536, 262144, 524288,
] as const;
export type RightType = (typeof RIGHT_TYPES)[number];

/** The spec's right types by name (spec §5); on the wire and in the database they stay numbers. */
export const Right = {
  highSpeedChars: 1,
  imageChecks: 2,
  pdfChecks: 4,
  pptChecks: 8,
  advancedChecks: 16,
  perCheckMax: 32,
  documentMax: 64,
  pluginMax: 128,
  documentUploads: 256,
  aiChars: 512,
  audioMinutes: 1024,
  videoMinutes: 2048,
  compares: 4096,
  fineChars: 8192,
  publishingChars: 65536,
  comparePagesMax: 262144,
  compareSizeMaxMb: 524288,
} as const satisfies Record<string, RightType>;

/** Rights that are a ceiling per use rather than a balance. */
export const LIMIT_TYPES = new Set<number>([32, 64, 128, 262144, 524288]);

interface RightInfo {
  title: string;
  unit: string;
  /** the English title and unit (hk: the cn ones in traditional characters) */
  en: { title: string; unit: string };
}

export const RIGHT_INFO: Record<number, RightInfo> = {
  1: { title: '高速校对字数', unit: '字', en: { title: 'High-speed proofreading', unit: ' characters' } },
  2: { title: '图片校对次数', unit: '次', en: { title: 'Image checks', unit: '' } },
  4: { title: 'PDF校对次数', unit: '次', en: { title: 'PDF checks', unit: '' } },
  8: { title: 'PPT校对次数', unit: '次', en: { title: 'PowerPoint checks', unit: '' } },
  16: { title: '高级校对次数', unit: '次', en: { title: 'Advanced proofreading checks', unit: '' } },
  32: { title: '网页单次校对字数上限', unit: '字', en: { title: 'Characters per web check', unit: ' characters' } },
  64: {
    title: '文档单次校对字数上限',
    unit: '字',
    en: { title: 'Characters per document check', unit: ' characters' },
  },
  128: {
    title: '插件单次校对字数上限',
    unit: '字',
    en: { title: 'Characters per browser plug-in check', unit: ' characters' },
  },
  256: { title: '文档上传次数', unit: '次', en: { title: 'Document uploads', unit: '' } },
  512: { title: 'AI写作字数', unit: '字', en: { title: 'AI writing', unit: ' characters' } },
  1024: { title: '音频校对时长', unit: '分钟', en: { title: 'Audio proofreading', unit: ' min' } },
  2048: { title: '视频校对时长', unit: '分钟', en: { title: 'Video proofreading', unit: ' min' } },
  4096: { title: '文档比对次数', unit: '次', en: { title: 'Document comparisons', unit: '' } },
  8192: { title: '精校字数', unit: '字', en: { title: 'Fine proofreading', unit: ' characters' } },
  65536: { title: '出版校对字数', unit: '字', en: { title: 'Publishing proofreading', unit: ' characters' } },
  262144: { title: '比对页数上限', unit: '页', en: { title: 'Pages per comparison', unit: ' pages' } },
  524288: { title: '比对文件大小上限', unit: 'MB', en: { title: 'File size per comparison', unit: ' MB' } },
};

/** A right type's title in `lang` (`权益 N` / `Right N` for a type this code does not know). */
export function rightTitle(type: number, lang: Lang = 'cn'): string {
  const info = RIGHT_INFO[type];
  if (!info) return lang === 'en' ? `Right ${type}` : localizeText(lang, `权益 ${type}`);
  return localizeText(lang, info.title, { en: info.en.title });
}

/** An amount of a right as shown beside it (`20000字`, `20000 characters`, `不限` / `Unlimited`). */
export function amountText(type: number, amount: number, lang: Lang = 'cn'): string {
  if (amount >= UNLIMITED) return lang === 'en' ? 'Unlimited' : '不限';
  const info = RIGHT_INFO[type];
  if (!info) return String(amount);
  // (an English count has no unit: the title says what is counted)
  return `${amount}${lang === 'en' ? info.en.unit : localizeText(lang, info.unit)}`;
}

export const UNLIMITED = 1_000_000_000;

const FREE_DEFAULTS: Record<number, number> = {
  1: 20_000,
  2: 10,
  4: 5,
  8: 5,
  32: 5_000,
  64: 20_000,
  128: 5_000,
  256: 20,
  512: 2_000,
  1024: 10,
  2048: 10,
  4096: 5,
};
const ADMIN_DEFAULTS: Record<number, number> = {
  1: UNLIMITED,
  32: 200_000,
  64: 1_000_000,
  128: 200_000,
  16: UNLIMITED,
  8192: UNLIMITED,
  4096: UNLIMITED,
  256: UNLIMITED,
  8: UNLIMITED,
  4: UNLIMITED,
  2: UNLIMITED,
  512: UNLIMITED,
  1024: UNLIMITED,
  2048: UNLIMITED,
  65536: UNLIMITED,
};

export function defaultGrants(role: string): Record<number, number> {
  return role === 'root' || role === 'admin' ? ADMIN_DEFAULTS : FREE_DEFAULTS;
}

/** Non-white-space code points: what a "character" of a right is. */
export function countChars(text: string): number {
  // Characters (code points) that are not white space, in one pass without a string per character.
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
      const prev = text.charCodeAt(i - 1);
      if (prev >= 0xd800 && prev <= 0xdbff) continue;
    }
    if (!WHITE_SPACE.has(c)) n++;
  }
  return n;
}

/** The code units `\s` matches. */
const WHITE_SPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007,
  0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
]);
