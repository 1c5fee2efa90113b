/**
 * Category metadata (spec §3): code -> label in cn / en / hk, default level and the checkOptions bit
 * that enables it. The server answers GET /misscut/v1/get_all_mistakes_type from this table.
 */

export const Bits = {
  /** 1 同音, 2 谐音, 5 形近 */
  spelling: 1,
  /** 3 遗漏, 4 冗余, 7 语序 */
  wording: 2,
  /** 0 的/地/得 and other common misuse */
  usage: 4,
  /** 8-1 .. 8-12 sensitive words (built-in lexicon + custom/team sensitive words) */
  sensitive: 8,
  /** 9-1 address, 9-2 date */
  facts: 16,
  /** 10-1 .. 10-5 punctuation and spacing */
  punctuation: 32,
  /** 11 key words and custom/team wrong words */
  dictionary: 64,
  /** 12-1 .. 12-3 advanced proofreading (opt-in: bit 128 or options.advancedProofreading) */
  advanced: 128,
} as const;

export const ALL_STANDARD = 127;

/** 1 错误 (error), 2 建议 (suggestion), 3 提示 (hint) */
export const LEVELS: Array<{ level: number; cn: string; en: string; hk: string }> = [
  { level: 1, cn: '错误', en: 'Error', hk: '錯誤' },
  { level: 2, cn: '建议', en: 'Suggestion', hk: '建議' },
  { level: 3, cn: '提示', en: 'Hint', hk: '提示' },
];

export interface CategoryInfo {
  code: string;
  cn: string;
  en: string;
  hk: string;
  level: number;
  bit: number;
}

const c = (code: string, cn: string, en: string, hk: string, level: number, bit: number): CategoryInfo => ({
  code,
  cn,
  en,
  hk,
  level,
  bit,
});

export const CATEGORIES: CategoryInfo[] = [
  c('0', '默认', 'Common misuse', '默認', 1, Bits.usage),
  c('1', '同音', 'Homophone', '同音', 1, Bits.spelling),
  c('2', '谐音', 'Near-homophone', '諧音', 1, Bits.spelling),
  c('3', '遗漏', 'Missing character', '遺漏', 2, Bits.wording),
  c('4', '冗余', 'Redundant character', '冗餘', 2, Bits.wording),
  c('5', '形近', 'Similar shape', '形近', 1, Bits.spelling),
  c('7', '语序', 'Word order', '語序', 2, Bits.wording),
  c('8-1', '默认', 'Sensitive (general)', '默認', 3, Bits.sensitive),
  c('8-2', '黄赌毒', 'Pornography, gambling, drugs', '黃賭毒', 3, Bits.sensitive),
  c('8-3', '司法政治', 'Judicial and political', '司法政治', 3, Bits.sensitive),
  c('8-4', '宗教迷信', 'Religion and superstition', '宗教迷信', 3, Bits.sensitive),
  c('8-5', '言语辱骂', 'Verbal abuse', '言語辱罵', 3, Bits.sensitive),
  c('8-6', '非法信息', 'Illegal information', '非法信息', 3, Bits.sensitive),
  c('8-7', '宣传广告', 'Advertising claims', '宣傳廣告', 3, Bits.sensitive),
  c('8-8', '反动', 'Subversive', '反動', 3, Bits.sensitive),
  c('8-9', '民生', 'Public welfare', '民生', 3, Bits.sensitive),
  c('8-10', '辱骂', 'Insults', '辱罵', 3, Bits.sensitive),
  c('8-11', '贪腐', 'Corruption', '貪腐', 3, Bits.sensitive),
  c('8-12', '违法违规', 'Unlawful', '違法違規', 3, Bits.sensitive),
  c('9-1', '地址错误', 'Address mismatch', '地址錯誤', 2, Bits.facts),
  c('9-2', '日期错误', 'Date error', '日期錯誤', 2, Bits.facts),
  c('10-1', '半角标点', 'Half-width punctuation in Chinese text', '半形標點', 2, Bits.punctuation),
  c('10-2', '标点不成对', 'Unpaired quotes or brackets', '標點不成對', 2, Bits.punctuation),
  c('10-3', '标点重复', 'Repeated or conflicting punctuation', '標點重複', 2, Bits.punctuation),
  c('10-4', '多余空格', 'Space between Chinese characters', '多餘空格', 2, Bits.punctuation),
  c('10-5', '标点规范', 'Other punctuation norms (GB/T 15834)', '標點規範', 2, Bits.punctuation),
  c('11', '重点词', 'Key word', '重點詞', 3, Bits.dictionary),
  c('12-1', '领导人职务', 'Leader title mismatch', '領導人職務', 1, Bits.advanced),
  c('12-2', '领导人姓名', 'Leader name misspelt', '領導人姓名', 1, Bits.advanced),
  c('12-3', '金额大小写', 'Amount in words and figures disagree', '金額大小寫', 1, Bits.advanced),
  c('12-4', '领导人排序', 'Leaders named out of order', '領導人排序', 2, Bits.advanced),
];

export const CATEGORY_BY_CODE = new Map(CATEGORIES.map((x) => [x.code, x]));

/** spec §3 result-type labels */
export const RESULT_TYPES: Array<{ type: number; cn: string; en: string; hk: string }> = [
  { type: 3, cn: '敏感词', en: 'Sensitive word', hk: '敏感詞' },
  { type: 4, cn: '自定义敏感词', en: 'Custom sensitive word', hk: '自定義敏感詞' },
  { type: 5, cn: '自定义错词', en: 'Custom wrong word', hk: '自定義錯詞' },
  { type: 6, cn: '共享词库敏感词', en: 'Shared-dictionary sensitive word', hk: '共享詞庫敏感詞' },
  { type: 7, cn: '共享词库错词', en: 'Shared-dictionary wrong word', hk: '共享詞庫錯詞' },
  { type: 9, cn: '自定义重点词', en: 'Custom key word', hk: '自定義重點詞' },
  { type: 10, cn: '共享词库重点词', en: 'Shared-dictionary key word', hk: '共享詞庫重點詞' },
  { type: 11, cn: '高级校对', en: 'Advanced proofreading', hk: '高級校對' },
];
