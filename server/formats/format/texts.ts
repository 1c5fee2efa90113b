/**
 * The format report's own words (check.ts) in cn and en; hk is the cn report in traditional characters
 * (routes/document). The template's texts (element labels, pattern hints) have their English in the template's
 * `i18n` (or the built-in labels below).
 */
import type { FormatTemplate } from './template-store';

/** The parts of an official document the format check recognises (GB/T 9704). */
export type ElementKind =
  | 'copyNumber'
  | 'secrecy'
  | 'urgency'
  | 'issuerMark'
  | 'docNumber'
  | 'title'
  | 'recipient'
  | 'body'
  | 'heading1'
  | 'heading2'
  | 'heading3'
  | 'heading4'
  | 'attachmentNote'
  | 'attachmentNoteItem'
  | 'signature'
  | 'date'
  | 'note'
  | 'attachment'
  | 'cc'
  | 'imprint';

export type FormatLang = 'cn' | 'en';

type Side = 'top' | 'bottom' | 'left' | 'right';

export interface FormatTexts {
  lang: FormatLang;
  unset: string;
  /** a font size: its 字号 name (when the template names it) and points */
  size: (name: string | undefined, points: number) => string;
  sizeUnset: string;
  font: (family: string) => string;
  fontExpected: (family: string, aliases: string[]) => string;
  fontMessage: (label: string, family: string, found: string) => string;
  sizeMessage: (label: string, expected: string, found: string) => string;
  align: Record<'center' | 'left' | 'right' | 'both', string>;
  alignMessage: (label: string, center: boolean) => string;
  red: string;
  black: string;
  autoBlack: string;
  redMessage: (label: string) => string;
  blackMessage: (label: string) => string;
  patternMessage: (label: string, hint: string) => string;
  firstLineIndent: (chars: number) => string;
  firstLineMessage: (label: string, chars: number) => string;
  indent: (chars: number) => string;
  flush: string;
  indentMessage: (label: string, chars: number) => string;
  bold: (on: boolean) => string;
  boldMessage: (label: string, on: boolean) => string;
  paper: string;
  paperMessage: string;
  margin: Record<Side, string>;
  marginMessage: (side: string, want: string) => string;
  exactLine: (points: number) => string;
  multiple: (times: string) => string;
  grid: (points: string) => string;
  lineSpacing: string;
  lineExpected: (gridLabel: string, min: number, max: number) => string;
  lineFound: (found: string, paragraphs: number) => string;
  lineMessage: string;
  headingExpected: string;
  headingFound: (depth: number, level: number) => string;
  headingMessage: string;
  pageNumber: string;
  pageNumberExpected: string;
  noPageNumber: string;
  pageNumberMessage: string;
  dashExpected: string;
  digitsOnly: string;
  dashMessage: string;
  evenOddExpected: string;
  evenOddFound: string;
  evenOddMessage: string;
  pageFontMessage: (font: string) => string;
  pageSizeMessage: (size: string) => string;
  pageSide: (even: boolean, side: 'right' | 'left' | 'center', gap: boolean) => string;
  pageSideMessage: (even: boolean) => string;
  title: string;
  titleExpected: string;
  titleFound: string;
  titleMessage: string;
  numberingExpected: (n: number) => string;
  unnumbered: string;
  numberingMessage: string;
  countExpected: (pages: number) => string;
  countFound: (listed: number) => string;
  countMessage: string;
  datePlaced: (jc: 'right' | 'center' | 'left', gap: number) => string;
  dateExpected: string;
  dateMessage: string;
  listJoin: string;
}

const round = (n: number) => Math.round(n * 10) / 10;

export const CN_TEXTS: FormatTexts = {
  lang: 'cn',
  unset: '未设置',
  size: (name, points) => `${name ?? ''}${name ? ' ' : ''}${points}磅`,
  sizeUnset: '未设置（默认五号）',
  font: (family) => family,
  fontExpected: (family, aliases) => `${family}（${aliases.join('/')}）`,
  fontMessage: (label, family, found) => `${label}应使用${family}，实际为${found}`,
  sizeMessage: (label, expected, found) => `${label}应为${expected}，实际为${found}`,
  align: { center: '居中', left: '左对齐', right: '右对齐', both: '两端对齐' },
  alignMessage: (label, center) => `${label}应${center ? '居中' : '对齐'}排布`,
  red: '红色',
  black: '黑色',
  autoBlack: '自动（黑色）',
  redMessage: (label) => `${label}推荐使用红色`,
  blackMessage: (label) => `${label}文字应为黑色（§5.2.4）`,
  patternMessage: (label, hint) => `${label}写法不规范：${hint}`,
  firstLineIndent: (chars) => `首行缩进${round(chars)}字`,
  firstLineMessage: (label, chars) => `${label}每段首行应缩进${chars}字`,
  indent: (chars) => `缩进${round(chars)}字`,
  flush: '顶格',
  indentMessage: (label, chars) => `${label}应${chars === 0 ? '顶格' : `缩进${chars}字`}排布`,
  bold: (on) => (on ? '加粗' : '不加粗'),
  boldMessage: (label, on) => `${label}${on ? '应' : '不应'}加粗`,
  paper: '纸张',
  paperMessage: '公文用纸应为 A4（210mm×297mm）',
  margin: { top: '上边距（天头）', bottom: '下边距', left: '左边距（订口）', right: '右边距' },
  marginMessage: (side, want) => `${side}应为${want}`,
  exactLine: (points) => `固定值 ${points}磅`,
  multiple: (times) => `${times}倍行距`,
  grid: (points) => `，文档网格 ${points}磅`,
  lineSpacing: '行距',
  lineExpected: (gridLabel, min, max) => `${gridLabel}：固定值 ${min}～${max}磅`,
  lineFound: (found, paragraphs) => `${found}（${paragraphs} 段）`,
  lineMessage: '正文行距不符合每面22行的要求',
  headingExpected: '标题层次依次为“一、”“（一）”“1.”“（1）”',
  headingFound: (depth, level) => `第${depth}级之后直接出现第${level}级`,
  headingMessage: '标题层次跳级',
  pageNumber: '页码',
  pageNumberExpected: '页脚插入页码（4号半角宋体阿拉伯数字，左右各一条一字线，如“— 1 —”）',
  noPageNumber: '无页码',
  pageNumberMessage: '公文应编排页码',
  dashExpected: '数字左右各放一条一字线（— 1 —）',
  digitsOnly: '仅数字',
  dashMessage: '页码两侧应各有一条一字线',
  evenOddExpected: '奇偶页不同：单页码居右空一字，双页码居左空一字',
  evenOddFound: '奇偶页相同',
  evenOddMessage: '页码应单页居右、双页居左',
  pageFontMessage: (font) => `页码应使用${font}`,
  pageSizeMessage: (size) => `页码应为${size}`,
  pageSide: (even, side, gap) =>
    `${even ? '双页码' : '单页码'}${{ right: '居右', left: '居左', center: '居中' }[side]}${gap ? '空一字' : ''}`,
  pageSideMessage: (even) => (even ? '双页码应居左' : '单页码应居右'),
  title: '标题',
  titleExpected: '有标题',
  titleFound: '未识别到标题',
  titleMessage: '未识别到公文标题',
  numberingExpected: (n) => `依次编号“${n}.”`,
  unnumbered: '未编号',
  numberingMessage: '多个附件应使用阿拉伯数字依次编号（附件：1.×××）',
  countExpected: (pages) => `附件说明列出的附件与附件页一致（${pages} 个附件页）`,
  countFound: (listed) => `列出 ${listed} 个`,
  countMessage: '附件说明与所附附件的数量不一致',
  datePlaced: (jc, gap) =>
    jc === 'right' ? `居右，右空${round(gap)}字` : jc === 'center' ? '居中' : `右侧空${round(gap)}字`,
  dateExpected: '右空四字（加盖印章）或右空二字（不加盖印章）',
  dateMessage: '成文日期应在版心右侧，右空二至四字',
  listJoin: '、',
};

/** The typefaces GB/T 9704 names, by their usual Latin names. */
const EN_FONTS: Record<string, string> = {
  仿宋: 'FangSong',
  楷体: 'KaiTi',
  黑体: 'SimHei',
  小标宋: 'FZXiaoBiaoSong',
  宋体: 'SimSun',
};

const NUMERALS: Record<string, string> = {
  初: '0',
  一: '1',
  二: '2',
  三: '3',
  四: '4',
  五: '5',
  六: '6',
  七: '7',
  八: '8',
};

/** A 字号 name in English: 二号 No. 2, 小二 Small No. 2. */
function sizeNameEn(name: string): string | undefined {
  const m = /^(小)?(.)号?$/.exec(name);
  const n = m ? NUMERALS[m[2]] : undefined;
  return n === undefined ? undefined : `${m?.[1] ? 'Small ' : ''}No. ${n}`;
}

const chars = (n: number) => `${round(n)} character${round(n) === 1 ? '' : 's'}`;

export const EN_TEXTS: FormatTexts = {
  lang: 'en',
  unset: 'not set',
  size: (name, points) => {
    const en = name ? sizeNameEn(name) : undefined;
    return en ? `${en} (${points} pt)` : `${points} pt`;
  },
  sizeUnset: 'not set (default No. 5)',
  font: (family) => EN_FONTS[family] ?? family,
  fontExpected: (family, aliases) => {
    const latin = aliases.filter((a) => !/\p{Script=Han}/u.test(a));
    return `${EN_FONTS[family] ?? family}${latin.length ? ` (${latin.join('/')})` : ''}`;
  },
  fontMessage: (label, family, found) => `${label} should use ${EN_FONTS[family] ?? family}, not ${found}`,
  sizeMessage: (label, expected, found) => `${label} should be ${expected}, not ${found}`,
  align: { center: 'centred', left: 'left-aligned', right: 'right-aligned', both: 'justified' },
  alignMessage: (label, center) => `${label} should be ${center ? 'centred' : 'aligned'}`,
  red: 'red',
  black: 'black',
  autoBlack: 'automatic (black)',
  redMessage: (label) => `${label} is recommended in red`,
  blackMessage: (label) => `${label} text should be black (§5.2.4)`,
  // (the hint, which quotes Chinese forms, is the expectation beside it)
  patternMessage: (label) => `${label} is not written in the standard form`,
  firstLineIndent: (n) => `first line indented ${chars(n)}`,
  firstLineMessage: (label, n) => `The first line of each paragraph of ${label} should be indented ${chars(n)}`,
  indent: (n) => `indented ${chars(n)}`,
  flush: 'flush left',
  indentMessage: (label, n) => `${label} should be ${n === 0 ? 'flush left' : `indented ${chars(n)}`}`,
  bold: (on) => (on ? 'bold' : 'not bold'),
  boldMessage: (label, on) => `${label} should ${on ? '' : 'not '}be bold`,
  paper: 'Paper',
  paperMessage: 'Official documents use A4 paper (210mm×297mm)',
  margin: { top: 'Top margin', bottom: 'Bottom margin', left: 'Left (binding) margin', right: 'Right margin' },
  marginMessage: (side, want) => `${side} should be ${want}`,
  exactLine: (points) => `exactly ${points} pt`,
  multiple: (times) => `${times} line spacing`,
  grid: (points) => `, document grid ${points} pt`,
  lineSpacing: 'Line spacing',
  lineExpected: (_gridLabel, min, max) => `22 lines a page, 28 characters a line: exactly ${min}-${max} pt`,
  lineFound: (found, paragraphs) => `${found} (${paragraphs} paragraph${paragraphs === 1 ? '' : 's'})`,
  lineMessage: 'The body line spacing does not give 22 lines a page',
  headingExpected: 'Heading levels in order: “一、”, “（一）”, “1.”, “（1）”',
  headingFound: (depth, level) => `level ${level} right after level ${depth}`,
  headingMessage: 'A heading level is skipped',
  pageNumber: 'Page number',
  pageNumberExpected: 'Page numbers in the footer (No. 4 half-width SimSun digits between two dashes, e.g. “— 1 —”)',
  noPageNumber: 'no page numbers',
  pageNumberMessage: 'Official documents should have page numbers',
  dashExpected: 'a dash on each side of the number (— 1 —)',
  digitsOnly: 'digits only',
  dashMessage: 'Page numbers should have a dash on each side',
  evenOddExpected: 'Different odd and even pages: odd numbers right with one character of space, even numbers left',
  evenOddFound: 'same on odd and even pages',
  evenOddMessage: 'Page numbers should be on the right on odd pages and on the left on even pages',
  pageFontMessage: (font) => `Page numbers should use ${EN_FONTS[font] ?? font}`,
  pageSizeMessage: (size) => `Page numbers should be ${size}`,
  pageSide: (even, side, gap) =>
    `${even ? 'even' : 'odd'} page numbers ${{ right: 'on the right', left: 'on the left', center: 'centred' }[side]}` +
    (gap ? ', one character in' : ''),
  pageSideMessage: (even) =>
    even ? 'Even page numbers should be on the left' : 'Odd page numbers should be on the right',
  title: 'Title',
  titleExpected: 'a title',
  titleFound: 'no title found',
  titleMessage: 'No document title was found',
  numberingExpected: (n) => `numbered “${n}.” in order`,
  unnumbered: 'not numbered',
  numberingMessage: 'Several attachments should be numbered in order with Arabic numerals (附件：1.×××)',
  countExpected: (pages) => `as many attachments listed as attachment pages (${pages})`,
  countFound: (listed) => `${listed} listed`,
  countMessage: 'The attachment note does not list as many attachments as are attached',
  datePlaced: (jc, gap) =>
    jc === 'right'
      ? `right-aligned, ${chars(gap)} from the right`
      : jc === 'center'
        ? 'centred'
        : `${chars(gap)} from the right`,
  dateExpected: '4 characters from the right (with a seal) or 2 (without)',
  dateMessage: 'The date of issue should be on the right, 2 to 4 characters from the margin',
  listJoin: ', ',
};

/** The built-in labels of the elements in English. */
export const EN_LABELS: Record<ElementKind, string> = {
  copyNumber: 'Copy number',
  secrecy: 'Secrecy level and period',
  urgency: 'Urgency',
  issuerMark: 'Issuing authority mark',
  docNumber: 'Document number',
  title: 'Title',
  recipient: 'Main recipient',
  body: 'Body',
  heading1: 'Level 1 heading',
  heading2: 'Level 2 heading',
  heading3: 'Level 3 heading',
  heading4: 'Level 4 heading',
  attachmentNote: 'Attachment note',
  attachmentNoteItem: 'Attachment note (continued)',
  signature: 'Signature',
  date: 'Date of issue',
  note: 'Note',
  attachment: 'Attachment (first line of its page)',
  cc: 'Copy-to authorities',
  imprint: 'Printing authority and date',
};

/** An element's label and pattern hint in the report's language. */
export function elementTexts(
  template: FormatTemplate,
  kind: ElementKind,
  tx: FormatTexts,
  cnLabel: string,
): { label: string; hint: string | undefined } {
  const rule = template.elements[kind];
  if (tx.lang === 'cn') return { label: cnLabel, hint: rule?.patternHint };
  const en = rule?.i18n?.en;
  return { label: en?.label ?? EN_LABELS[kind], hint: en?.patternHint ?? (rule?.pattern ? rule.pattern : undefined) };
}
