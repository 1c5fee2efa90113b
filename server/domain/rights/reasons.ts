/**
 * Why a right changed, as the rights history (/right's records) shows it. A record keeps its reason's code and
 * values (`reason_code`, `reason_params`) beside the cn text (`reason`), and is written in the reader's language
 * when listed. Codes never change meaning once written; a new wording keeps its code.
 *
 * The hk forms are the cn ones in Hong Kong characters (locale.ts); `{product}` is the product's name in the
 * reader's language.
 */
import { localizeText, type Lang } from '../locale';

export const RIGHT_REASONS = {
  'grant.default': { cn: '默认权益', en: 'Default allowance' },
  'grant.other': { cn: '获得权益', en: 'Rights granted' },
  'grant.share': { cn: '分享加速奖励', en: 'Sharing bonus' },
  'grant.coupon': { cn: '兑换码兑换', en: 'Redemption code' },
  'grant.purchase': { cn: '购买 {product}', en: 'Purchase: {product}' },
  'team.allocated': { cn: '团队分配', en: 'Allocated by the team' },
  'team.returned': { cn: '离开团队，未用完的分配退回团队', en: 'Left the team: unused allocation returned to it' },
  'team.pool': { cn: '团队权益池', en: 'Team pool' },
  'ai.writing': { cn: 'AI 写作', en: 'AI writing' },
  'ai.unused_refund': { cn: 'AI 写作未用退回', en: 'AI writing: unused amount refunded' },
  'ai.failed_refund': { cn: 'AI 写作失败退回', en: 'AI writing failed: refunded' },
  'check.text': { cn: '文本校对', en: 'Text proofreading' },
  'check.api': { cn: 'API 校对', en: 'API proofreading' },
  'check.api_failed_refund': { cn: 'API 校对失败退回', en: 'API proofreading failed: refunded' },
  'check.cancelled_refund': { cn: '取消校对退回', en: 'Proofreading cancelled: refunded' },
  'check.paragraph_failed_refund': { cn: '段落校对失败退回', en: 'Paragraph check failed: refunded' },
  'check.interrupted_refund': { cn: '校对中断退回', en: 'Proofreading interrupted: refunded' },
  'web.check': { cn: '网页校对', en: 'Link proofreading' },
  'web.cancelled_refund': { cn: '网页校对取消退回', en: 'Link proofreading cancelled: refunded' },
  'web.interrupted_refund': { cn: '网页校对中断退回', en: 'Link proofreading interrupted: refunded' },
  'web.failed_refund': { cn: '网页校对失败退回', en: 'Link proofreading failed: refunded' },
  // the job runner's codes of the same refunds (`<kind>.*_refund`)
  'website.failed_refund': { cn: '网页校对失败退回', en: 'Link proofreading failed: refunded' },
  'website.cancelled_refund': { cn: '网页校对取消退回', en: 'Link proofreading cancelled: refunded' },
  'audio.check': { cn: '音频校对', en: 'Audio proofreading' },
  'audio.failed_refund': { cn: '音频校对失败退回', en: 'Audio proofreading failed: refunded' },
  'video.check': { cn: '视频校对', en: 'Video proofreading' },
  'video.failed_refund': { cn: '视频校对失败退回', en: 'Video proofreading failed: refunded' },
  'speech.failed_refund': { cn: '音视频校对失败退回', en: 'Audio/video proofreading failed: refunded' },
  'speech.cancelled_refund': { cn: '音视频校对取消退回', en: 'Audio/video proofreading cancelled: refunded' },
  'image.check': { cn: '图片校对', en: 'Image proofreading' },
  'image.failed_refund': { cn: '图片校对失败退回', en: 'Image proofreading failed: refunded' },
  'image.cancelled_refund': { cn: '图片校对取消退回', en: 'Image proofreading cancelled: refunded' },
  'pdf.check': { cn: 'PDF校对', en: 'PDF proofreading' },
  'pdf.cancelled_refund': { cn: 'PDF校对取消退回', en: 'PDF proofreading cancelled: refunded' },
  'pdf.failed_refund': { cn: 'PDF校对失败退回', en: 'PDF proofreading failed: refunded' },
  'document.compare': { cn: '文档比对', en: 'Document comparison' },
  'document.ppt': { cn: 'PPT校对', en: 'PowerPoint proofreading' },
  'document.upload': { cn: '文档上传', en: 'Document upload' },
  'document.upload_failed_refund': { cn: '文档上传失败退回', en: 'Document upload failed: refunded' },
  'document.deleted_refund': { cn: '删除未完成的文档退回', en: 'Unfinished document deleted: refunded' },
  'document.cancelled_refund': { cn: '文档校对取消退回', en: 'Document proofreading cancelled: refunded' },
  'document.failed_refund': { cn: '文档校对失败退回', en: 'Document proofreading failed: refunded' },
} as const satisfies Record<string, { cn: string; en: string }>;

export type ReasonCode = keyof typeof RIGHT_REASONS;
export type ReasonParams = Record<string, string | number>;

/**
 * What a caller of the rights service says about a change: a code with the values of its placeholders, or a text —
 * a code, a code's cn text (the callers written before codes), or anything else, kept as it is in every language.
 */
export type RightReason = string | { code: ReasonCode; params: ReasonParams };

const isCode = (value: string): value is ReasonCode => Object.hasOwn(RIGHT_REASONS, value);

const CODE_OF_TEXT = new Map<string, ReasonCode>();
for (const code of Object.keys(RIGHT_REASONS))
  if (isCode(code) && !RIGHT_REASONS[code].cn.includes('{')) CODE_OF_TEXT.set(RIGHT_REASONS[code].cn, code);

const fill = (template: string, params: ReasonParams) =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));

/** The columns a record stores for a reason: the cn text, and the code and values it is written from. */
export function reasonColumns(reason: RightReason): {
  reason: string;
  reason_code: string | null;
  reason_params: string | null;
} {
  if (typeof reason === 'string') {
    const code = isCode(reason) ? reason : codeOfText(reason);
    return code
      ? { reason: RIGHT_REASONS[code].cn, reason_code: code, reason_params: null }
      : { reason, reason_code: null, reason_params: null };
  }
  const { code, params } = reason;
  return {
    reason: fill(RIGHT_REASONS[code].cn, params ?? {}),
    reason_code: code,
    reason_params: params ? JSON.stringify(params) : null,
  };
}

/** The code of a code's cn text (exact texts, without placeholders). */
export function codeOfText(text: string): ReasonCode | null {
  return CODE_OF_TEXT.get(text) ?? null;
}

/**
 * A record's reason in `lang`: from its code and values when it has a code this server knows, else its stored text
 * as it is. `productName` writes a product's name (params `product_id` / `product`) in the language.
 */
export function reasonText(
  row: { reason: string; reason_code: string | null; reason_params: string | null },
  lang: Lang,
  productName: (params: ReasonParams, lang: Lang) => string | undefined = () => undefined,
): string {
  // the cn text is what was stored
  if (lang === 'cn' || !row.reason_code || !isCode(row.reason_code)) return row.reason;
  let params: ReasonParams;
  try {
    params = row.reason_params ? (JSON.parse(row.reason_params) as ReasonParams) : {};
  } catch {
    return row.reason;
  }
  const product = params.product !== undefined ? productName(params, lang) : undefined;
  const values = { ...params, ...(product !== undefined ? { product } : {}) };
  const forms = RIGHT_REASONS[row.reason_code];
  const template = localizeText(lang, forms.cn, { en: forms.en });
  // a product name kept from cn is converted with the template in hk; en keeps it as it was written
  return lang === 'hk' && product === undefined ? localizeText(lang, fill(forms.cn, values)) : fill(template, values);
}
