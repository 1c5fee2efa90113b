// Localised names of rights and products (the server's titles are Chinese data); amounts: src/ui/format/balance.ts.
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/** Rights that are a ceiling per use rather than a balance (server/domain/rights/ledger.ts LIMIT_TYPES). */
export const LIMIT_TYPES = new Set([32, 64, 128, 262144, 524288]);

export const RIGHT_LABELS: Record<number, MessageDescriptor> = {
  1: msg`高速校对字数`,
  2: msg`图片校对次数`,
  4: msg`PDF校对次数`,
  8: msg`PPT校对次数`,
  16: msg`高级校对次数`,
  32: msg`网页单次校对字数上限`,
  64: msg`文档单次校对字数上限`,
  128: msg`插件单次校对字数上限`,
  256: msg`文档上传次数`,
  512: msg`AI写作字数`,
  1024: msg`音频校对时长`,
  2048: msg`视频校对时长`,
  4096: msg`文档比对次数`,
  8192: msg`精校字数`,
  65536: msg`出版校对字数`,
  262144: msg`比对页数上限`,
  524288: msg`比对文件大小上限`,
};

export function rightTitle(i18n: I18n, type: number, fallback: string): string {
  const label = RIGHT_LABELS[type];
  return label ? i18n._(label) : fallback;
}

export const PRODUCT_LABELS: Record<string, MessageDescriptor> = {
  personal_monthly: msg`个人专业版（月付）`,
  personal_yearly: msg`个人专业版（年付）`,
  words_1m: msg`字数包 100 万字`,
  words_5m: msg`字数包 500 万字`,
  fine_100k: msg`精校包 10 万字`,
  team_yearly: msg`团队版（年付）`,
};

export function productName(i18n: I18n, code: string | undefined, fallback: string): string {
  const label = code ? PRODUCT_LABELS[code] : undefined;
  return label ? i18n._(label) : fallback;
}

/** Fen as yuan, e.g. ¥29.00. */
export function yuan(i18n: I18n, fen: number): string {
  return `¥${i18n.number(fen / 100, { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

export function formatDate(i18n: I18n, iso: string, withTime = false): string {
  return i18n.date(new Date(iso), withTime ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'medium' });
}

export const ORDER_STATUS: Record<string, MessageDescriptor> = {
  pending: msg`待支付`,
  paid: msg`已支付`,
  closed: msg`已关闭`,
  refunded: msg`已退款`,
};
