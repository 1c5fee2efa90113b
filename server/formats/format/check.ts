import type { DocParagraph, ParsedDocx } from './resolver';
import type { ElementRule, FormatTemplate } from './template-store';
import { CN_TEXTS, EN_TEXTS, elementTexts, type ElementKind, type FormatLang, type FormatTexts } from './texts';

export type { ElementKind } from './texts';

export interface DetectedElement {
  element: ElementKind;
  label: string;
  paragraph: number;
  excerpt: string;
}

export interface Violation {
  rule: string;
  element: string;
  label: string;
  severity: 'error' | 'warning';
  /** Paragraph index (0-based, over all paragraphs incl. table cells) or null for page-level rules. */
  paragraph: number | null;
  excerpt: string;
  expected: string;
  found: string;
  message: string;
}

export interface FormatReport {
  template_id: number;
  template_name: string;
  paragraph_count: number;
  elements: DetectedElement[];
  violations: Violation[];
}

const LABELS: Record<ElementKind, string> = {
  copyNumber: '份号',
  secrecy: '密级和保密期限',
  urgency: '紧急程度',
  issuerMark: '发文机关标志',
  docNumber: '发文字号',
  title: '标题',
  recipient: '主送机关',
  body: '正文',
  heading1: '一级标题',
  heading2: '二级标题',
  heading3: '三级标题',
  heading4: '四级标题',
  attachmentNote: '附件说明',
  attachmentNoteItem: '附件说明（续）',
  signature: '署名',
  date: '成文日期',
  note: '附注',
  attachment: '附件',
  cc: '抄送机关',
  imprint: '印发机关和印发日期',
};

const CN_NUM = '一二三四五六七八九十百零〇';
const RE = {
  copyNumber: /^[\d０-９]{1,8}$/,
  secrecy: /^(绝密|机密|秘密)/,
  urgency: /^(特急|加急|特提|平急)$/,
  docNumber: /^.{0,30}[〔[（(【]\s*\d{2,4}\s*[〕\]）)】]\s*第?\s*\d+\s*号$/,
  docNumberLoose: /^.{1,30}\d{4}.{0,3}\d+\s*号$/,
  heading1: new RegExp(`^[${CN_NUM}]+、`),
  heading2: new RegExp(`^[（(][${CN_NUM}]+[）)]`),
  heading3: /^\d+[.．、](?!\d)/,
  heading4: /^[（(]\d+[）)]/,
  attachmentNote: /^附\s*件\s*[：:]/,
  attachmentHead: /^附\s*件\s*\d*$/,
  date: new RegExp(
    `^([\\d０-９]{4}|[${CN_NUM}○Ｏ]{4})\\s*年\\s*[\\d０-９${CN_NUM}]{1,3}\\s*月\\s*[\\d０-９${CN_NUM}]{1,3}\\s*日$`,
  ),
  cc: /^抄\s*送\s*[：:]/,
  imprint: /印发$/,
  note: /^[（(].*[）)]$/,
};

const excerpt = (text: string) => (text.length > 40 ? text.slice(0, 40) + '…' : text);
const clean = (text: string) => text.replace(/[\s\u3000]+/g, '');

/** Finds the official-document elements in reading order (paragraphs in tables are body content). */
export function detectElements(doc: ParsedDocx): Map<number, ElementKind> {
  const kinds = new Map<number, ElementKind>();
  const paras = doc.paragraphs.filter((p) => !p.inTable && clean(p.text));
  if (!paras.length) return kinds;
  const t = (p: DocParagraph) => clean(p.text);
  let i = 0;
  // 版头: 份号, 密级, 紧急程度, 发文机关标志 up to 发文字号 (looked for in the first paragraphs).
  const numberAt = paras
    .slice(0, 10)
    .findIndex(
      (p) =>
        RE.docNumber.test(t(p).replace(/签发人[：:].*$/, '')) || (RE.docNumberLoose.test(t(p)) && t(p).length < 30),
    );
  if (numberAt >= 0) {
    for (; i < numberAt; i++) {
      const s = t(paras[i]);
      kinds.set(
        paras[i].index,
        RE.copyNumber.test(s)
          ? 'copyNumber'
          : RE.secrecy.test(s)
            ? 'secrecy'
            : RE.urgency.test(s)
              ? 'urgency'
              : 'issuerMark',
      );
    }
    kinds.set(paras[i].index, 'docNumber');
    i++;
  }
  // 标题: one or more centred paragraphs.
  const isCentered = (p: DocParagraph) => p.props.jc === 'center';
  if (i < paras.length && !RE.heading1.test(t(paras[i]))) {
    kinds.set(paras[i].index, 'title');
    const size = paras[i].main.size;
    i++;
    while (
      i < paras.length &&
      isCentered(paras[i]) &&
      isCentered(paras[i - 1]) &&
      paras[i].main.size === size &&
      !/[：:]$/.test(t(paras[i]))
    )
      kinds.set(paras[i++].index, 'title');
  }
  // 主送机关
  if (i < paras.length && /[：:]$/.test(t(paras[i])) && t(paras[i]).length <= 80 && !RE.heading1.test(t(paras[i])))
    kinds.set(paras[i++].index, 'recipient');
  // 版记 from the end: 印发机关和日期, 抄送.
  let end = paras.length;
  while (
    end > i &&
    (RE.imprint.test(t(paras[end - 1])) || RE.cc.test(t(paras[end - 1])) || /^主\s*送\s*[：:]/.test(t(paras[end - 1])))
  ) {
    end--;
    kinds.set(
      paras[end].index,
      RE.cc.test(t(paras[end])) ? 'cc' : RE.imprint.test(t(paras[end])) ? 'imprint' : 'recipient',
    );
  }
  // 成文日期: the last date-only paragraph; 署名 right above it; 附注 right after it; 附件 pages after it.
  let dateAt = -1;
  for (let k = end - 1; k >= i; k--) {
    if (RE.date.test(t(paras[k]))) {
      dateAt = k;
      break;
    }
  }
  let bodyEnd = dateAt >= 0 ? dateAt : end;
  if (dateAt >= 0) {
    kinds.set(paras[dateAt].index, 'date');
    const prev = paras[dateAt - 1];
    if (
      prev &&
      dateAt - 1 >= i &&
      t(prev).length <= 30 &&
      !/[。；;，,：:]$/.test(t(prev)) &&
      !RE.attachmentNote.test(t(prev))
    ) {
      kinds.set(prev.index, 'signature');
      bodyEnd = dateAt - 1;
    }
    let k = dateAt + 1;
    if (k < end && RE.note.test(t(paras[k]))) kinds.set(paras[k++].index, 'note');
    for (; k < end; k++) if (RE.attachmentHead.test(t(paras[k]))) kinds.set(paras[k].index, 'attachment');
  }
  // 附件说明 (and its continuation lines) right before 署名/日期.
  let noteAt = -1;
  for (let k = bodyEnd - 1; k >= i && k >= bodyEnd - 10; k--) {
    if (RE.attachmentNote.test(t(paras[k]))) {
      noteAt = k;
      break;
    }
  }
  if (noteAt >= 0) {
    kinds.set(paras[noteAt].index, 'attachmentNote');
    for (let k = noteAt + 1; k < bodyEnd; k++) kinds.set(paras[k].index, 'attachmentNoteItem');
    bodyEnd = noteAt;
  }
  // 正文 and its heading levels.
  for (let k = i; k < bodyEnd; k++) {
    const s = t(paras[k]);
    const kind: ElementKind = RE.heading1.test(s)
      ? 'heading1'
      : RE.heading2.test(s)
        ? 'heading2'
        : RE.heading3.test(s)
          ? 'heading3'
          : RE.heading4.test(s)
            ? 'heading4'
            : 'body';
    kinds.set(paras[k].index, kind);
  }
  return kinds;
}

function fontFamily(template: FormatTemplate, font: string | undefined): string | undefined {
  if (!font) return undefined;
  const f = font.trim();
  for (const [family, names] of Object.entries(template.fontAliases))
    if (names.some((n) => n.toLowerCase() === f.toLowerCase())) return family;
  return undefined;
}

const sizeName = (template: FormatTemplate, halfPoints: number | undefined, tx: FormatTexts) =>
  halfPoints === undefined ? tx.sizeUnset : tx.size(template.sizeNames?.[String(halfPoints)], halfPoints / 2);

const isRed = (color: string | undefined) => {
  if (!color || color === 'auto') return false;
  const m = /^([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  if (!m) return false;
  const [r, g, b] = [m[1], m[2], m[3]].map((h) => parseInt(h, 16));
  return r >= 0xc0 && g <= 0x60 && b <= 0x60;
};

const isBlack = (color: string | undefined) => {
  if (!color || color === 'auto') return true;
  const m = /^([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  return !!m && [m[1], m[2], m[3]].every((h) => parseInt(h, 16) <= 0x40);
};

const mm = (twips: number) => `${(twips / 56.693).toFixed(1)}mm`;

function checkElement(
  template: FormatTemplate,
  kind: ElementKind,
  rule: ElementRule,
  p: DocParagraph,
  out: Violation[],
  tx: FormatTexts,
) {
  const { label, hint } = elementTexts(template, kind, tx, rule.label);
  const base = { element: kind, label, paragraph: p.index, excerpt: excerpt(p.text.trim()) };
  const push = (ruleId: string, severity: Violation['severity'], expected: string, found: string, message: string) =>
    out.push({ rule: ruleId, severity, expected, found, message, ...base });
  if (rule.font) {
    const families = p.fonts.map((f) => ({ font: f, family: fontFamily(template, f) }));
    const wrong = families.filter((f) => f.family !== rule.font && !(rule.font === '小标宋' && f.family === '宋体'));
    if (wrong.length) {
      const found = wrong.map((f) => f.font || tx.unset).join(tx.listJoin);
      push(
        'font',
        'error',
        tx.fontExpected(rule.font, template.fontAliases[rule.font]?.slice(0, 3) ?? [rule.font]),
        found,
        tx.fontMessage(label, rule.font, found),
      );
    }
  }
  if (rule.size !== undefined) {
    const wrong = p.sizes.filter((s) => s !== rule.size);
    if (wrong.length) {
      const found = wrong.map((s) => sizeName(template, s || undefined, tx)).join(tx.listJoin);
      const expected = sizeName(template, rule.size, tx);
      push('size', 'error', expected, found, tx.sizeMessage(label, expected, found));
    }
  }
  if (rule.align) {
    const jc = p.props.jc ?? 'left';
    const norm = jc === 'start' ? 'left' : jc === 'end' ? 'right' : jc === 'distribute' ? 'both' : jc;
    const ok = rule.align === 'left' ? norm === 'left' || norm === 'both' : norm === rule.align;
    if (!ok) push('align', 'error', tx.align[rule.align], norm, tx.alignMessage(label, rule.align === 'center'));
  }
  const color = rule.color ?? template.textColor;
  if (color === 'red' && !isRed(p.main.color))
    push('color', 'warning', tx.red, p.main.color ? `#${p.main.color}` : tx.autoBlack, tx.redMessage(label));
  if (color === 'black') {
    const colored = [
      ...new Set(p.runs.filter((r) => /\S/.test(r.text) && !isBlack(r.color)).map((r) => `#${r.color}`)),
    ];
    if (colored.length) push('color', 'warning', tx.black, colored.join(tx.listJoin), tx.blackMessage(label));
  }
  if (
    rule.pattern &&
    !new RegExp(rule.pattern).test(p.text.replace(/[\s\u3000]+/g, '').replace(/签发人[：:].*$/, ''))
  ) {
    push('pattern', 'error', hint ?? rule.pattern, excerpt(p.text.trim()), tx.patternMessage(label, hint ?? ''));
  }
  if (rule.firstLineIndentChars !== undefined) {
    const size = (p.main.size ?? 21) * 10; // one character in twips = size in half-points × 10
    const chars =
      p.props.firstLineChars !== undefined && p.props.firstLineChars > 0
        ? p.props.firstLineChars / 100
        : (p.props.firstLine ?? 0) / size;
    const leading = /^[\s\u3000]+/.exec(p.text)?.[0] ?? '';
    const spaces = [...leading].reduce((n, c) => n + (c === '\u3000' ? 1 : 0.5), 0);
    const total = chars + spaces;
    if (Math.abs(total - rule.firstLineIndentChars) > 0.25) {
      push(
        'indent',
        'error',
        tx.firstLineIndent(rule.firstLineIndentChars),
        tx.firstLineIndent(total),
        tx.firstLineMessage(label, rule.firstLineIndentChars),
      );
    }
  }
  if (rule.indentChars !== undefined) {
    const firstLine = p.props.firstLineChars
      ? p.props.firstLineChars / 100
      : (p.props.firstLine ?? 0) / ((p.main.size ?? 21) * 10);
    const left = p.props.leftChars ? p.props.leftChars / 100 : (p.props.left ?? 0) / ((p.main.size ?? 21) * 10);
    if (Math.abs(firstLine + left - rule.indentChars) > 0.25)
      push(
        'indent',
        'error',
        rule.indentChars === 0 ? tx.flush : tx.indent(rule.indentChars),
        tx.indent(firstLine + left),
        tx.indentMessage(label, rule.indentChars),
      );
  }
  if (rule.bold !== undefined && Boolean(p.main.bold) !== rule.bold)
    push('bold', 'warning', tx.bold(rule.bold), tx.bold(Boolean(p.main.bold)), tx.boldMessage(label, rule.bold));
}

/** Checks a parsed .docx against a template; every violation says where, what was expected and what was found. */
export function checkFormat(doc: ParsedDocx, template: FormatTemplate, lang: FormatLang = 'cn'): FormatReport {
  const tx = lang === 'en' ? EN_TEXTS : CN_TEXTS;
  const violations: Violation[] = [];
  const page = (
    rule: string,
    label: string,
    expected: string,
    found: string,
    message: string,
    severity: Violation['severity'] = 'error',
  ) =>
    violations.push({ rule, element: 'page', label, severity, paragraph: null, excerpt: '', expected, found, message });
  const s = doc.section;
  if (template.page) {
    const tp = template.page;
    const w = s.pageWidth ?? 12240;
    const h = s.pageHeight ?? 15840;
    if (Math.abs(w - tp.width) > tp.sizeTolerance || Math.abs(h - tp.height) > tp.sizeTolerance) {
      page('paper', tx.paper, `A4 ${mm(tp.width)}×${mm(tp.height)}`, `${mm(w)}×${mm(h)}`, tx.paperMessage);
    }
    const names = tx.margin;
    for (const side of ['top', 'bottom', 'left', 'right'] as const) {
      const v = s.margins[side] ?? 1440;
      const want = tp.margins[side];
      if (Math.abs(v - want) > tp.marginTolerance)
        page(
          `margin-${side}`,
          names[side],
          `${mm(want)}（±${mm(tp.marginTolerance)}）`,
          mm(v),
          tx.marginMessage(names[side], mm(want)),
        );
    }
  }
  const kinds = detectElements(doc);
  if (template.lineGrid) {
    const g = template.lineGrid;
    const gridOk =
      (s.gridType === 'lines' || s.gridType === 'linesAndChars') &&
      s.linePitch !== undefined &&
      s.linePitch >= g.gridLinePitchMin &&
      s.linePitch <= g.gridLinePitchMax;
    const bodyParas = doc.paragraphs.filter((p) => kinds.get(p.index) === 'body');
    const badLines = bodyParas.filter((p) => {
      if (p.props.lineRule === 'exact' || p.props.lineRule === 'atLeast')
        return !(p.props.line! >= g.exactLineMin && p.props.line! <= g.exactLineMax);
      return !gridOk;
    });
    if (bodyParas.length && badLines.length) {
      const first = badLines[0];
      const found =
        first.props.lineRule === 'exact' || first.props.lineRule === 'atLeast'
          ? tx.exactLine((first.props.line ?? 0) / 20)
          : (first.props.lineRule === 'auto' || !first.props.lineRule
              ? tx.multiple(((first.props.line ?? 240) / 240).toFixed(2))
              : first.props.lineRule) + (s.linePitch ? tx.grid((s.linePitch / 20).toFixed(1)) : '');
      violations.push({
        rule: 'line-grid',
        element: 'body',
        label: tx.lineSpacing,
        severity: 'warning',
        paragraph: first.index,
        excerpt: excerpt(first.text.trim()),
        expected: tx.lineExpected(
          lang === 'en' ? (g.i18n?.en?.label ?? '') : g.label,
          g.exactLineMin / 20,
          g.exactLineMax / 20,
        ),
        found: tx.lineFound(found, badLines.length),
        message: tx.lineMessage,
      });
    }
  }
  const elements: DetectedElement[] = [];
  for (const p of doc.paragraphs) {
    const kind = kinds.get(p.index);
    if (!kind) continue;
    elements.push({
      element: kind,
      label: elementTexts(template, kind, tx, template.elements[kind]?.label ?? LABELS[kind]).label,
      paragraph: p.index,
      excerpt: excerpt(p.text.trim()),
    });
    const rule = template.elements[kind];
    if (rule) checkElement(template, kind, rule, p, violations, tx);
  }
  // Heading order: 一、 → （一） → 1. → （1） without skipping a level.
  let depth = 0;
  for (const e of elements) {
    const level = { heading1: 1, heading2: 2, heading3: 3, heading4: 4 }[e.element as string];
    if (!level) continue;
    if (level > depth + 1) {
      violations.push({
        rule: 'heading-order',
        element: e.element,
        label: e.label,
        severity: 'warning',
        paragraph: e.paragraph,
        excerpt: e.excerpt,
        expected: tx.headingExpected,
        found: tx.headingFound(depth, level),
        message: tx.headingMessage,
      });
    }
    depth = level;
  }
  checkAttachments(elements, violations, tx);
  checkDatePosition(doc, kinds, template, violations, tx);
  if (template.pageNumbers?.required) {
    const pn = template.pageNumbers;
    const withField = s.footers.filter((f) => f.hasPageField);
    if (!withField.length)
      page('page-number', tx.pageNumber, tx.pageNumberExpected, tx.noPageNumber, tx.pageNumberMessage);
    else {
      if (pn.dashes && !withField.every((f) => /[—－–-]/.test(f.text)))
        page(
          'page-number-dash',
          tx.pageNumber,
          tx.dashExpected,
          withField.map((f) => f.text.trim() || tx.digitsOnly).join(' / '),
          tx.dashMessage,
          'warning',
        );
      if (pn.evenAndOdd && (!s.evenAndOddHeaders || !withField.some((f) => f.type === 'even')))
        page('page-number-side', tx.pageNumber, tx.evenOddExpected, tx.evenOddFound, tx.evenOddMessage, 'warning');
      const pnFont = pn.font;
      if (pnFont) {
        const fonts = withField.flatMap((f) => f.runs.map((r) => r.ascii ?? r.eastAsia)).filter(Boolean) as string[];
        const bad = fonts.filter((f) => fontFamily(template, f) !== pnFont && !/^(SimSun|宋体)$/i.test(f));
        if (bad.length)
          page(
            'page-number-font',
            tx.pageNumber,
            tx.font(pnFont),
            [...new Set(bad)].join(tx.listJoin),
            tx.pageFontMessage(pnFont),
            'warning',
          );
      }
      if (pn.size !== undefined) {
        const sizes = [
          ...new Set(withField.flatMap((f) => f.runs.filter((r) => /\S/.test(r.text)).map((r) => r.size))),
        ];
        const bad = sizes.filter((size) => size !== pn.size);
        if (bad.length)
          page(
            'page-number-size',
            tx.pageNumber,
            sizeName(template, pn.size, tx),
            bad.map((size) => sizeName(template, size, tx)).join(tx.listJoin),
            tx.pageSizeMessage(sizeName(template, pn.size, tx)),
            'warning',
          );
      }
      if (pn.evenAndOdd && s.evenAndOddHeaders) {
        // §7.5: 单页码居右空一字，双页码居左空一字 (the default footer is the odd pages' one).
        const side = (jc: string | undefined) =>
          jc === 'right' || jc === 'end' ? 'right' : jc === 'center' ? 'center' : 'left';
        for (const [type, want] of [
          ['default', 'right'],
          ['even', 'left'],
        ] as const) {
          const f = withField.find((x) => x.type === type);
          if (f && side(f.jc) !== want)
            page(
              `page-number-${type === 'even' ? 'even' : 'odd'}`,
              tx.pageNumber,
              tx.pageSide(type === 'even', want, true),
              tx.pageSide(type === 'even', side(f.jc), false),
              tx.pageSideMessage(type === 'even'),
              'warning',
            );
        }
      }
    }
  }
  if (!elements.some((e) => e.element === 'title'))
    page('missing-title', tx.title, tx.titleExpected, tx.titleFound, tx.titleMessage, 'warning');
  violations.sort((a, b) => (a.paragraph ?? -1) - (b.paragraph ?? -1));
  return {
    template_id: template.id,
    template_name: template.name,
    paragraph_count: doc.paragraphs.length,
    elements,
    violations,
  };
}

/** 附件说明 (§7.3.4): several attachments are numbered 1. 2. …; the 附件 pages after the date match the list. */
function checkAttachments(elements: DetectedElement[], out: Violation[], tx: FormatTexts) {
  const note = elements.find((e) => e.element === 'attachmentNote');
  if (!note) return;
  const items = elements.filter((e) => e.element === 'attachmentNoteItem');
  const at = (e: DetectedElement, rule: string, expected: string, found: string, message: string) =>
    out.push({
      rule,
      element: e.element,
      label: e.label,
      severity: 'error',
      paragraph: e.paragraph,
      excerpt: e.excerpt,
      expected,
      found,
      message,
    });
  const numberOf = (s: string) => /^(?:附\s*件\s*[：:]\s*)?(\d+)\s*[.．]/.exec(s.replace(/[\s\u3000]+/g, ''))?.[1];
  const listed = [note, ...items];
  if (items.length) {
    listed.forEach((e, k) => {
      const n = numberOf(e.excerpt);
      if (n !== String(k + 1))
        at(e, 'attachment-numbering', tx.numberingExpected(k + 1), n ? `“${n}.”` : tx.unnumbered, tx.numberingMessage);
    });
  }
  const heads = elements.filter((e) => e.element === 'attachment');
  if (heads.length && heads.length !== listed.length) {
    at(note, 'attachment-count', tx.countExpected(heads.length), tx.countFound(listed.length), tx.countMessage);
  }
}

/** Characters per line of the type area (GB/T 9704 §5.2.2: 28 per line). */
const LINE_CHARS = 28;

/**
 * 成文日期 position (§7.3.5): right-indented 4 字 under a seal, 2 字 without one, so its right edge is 1.5-4.5
 * characters from the right margin, whether set by right alignment with a right indent or typed with spaces.
 */
function checkDatePosition(
  doc: ParsedDocx,
  kinds: Map<number, ElementKind>,
  template: FormatTemplate,
  out: Violation[],
  tx: FormatTexts,
) {
  const rule = template.elements.date;
  if (!rule) return;
  for (const p of doc.paragraphs) {
    if (kinds.get(p.index) !== 'date') continue;
    const charTwips = (p.main.size ?? 21) * 10;
    const chars = (v: number | undefined, inChars: number | undefined) =>
      inChars ? inChars / 100 : (v ?? 0) / charTwips;
    const width = (text: string) => [...text].reduce((n, c) => n + (/[\x20-\x7e]/.test(c) ? 0.5 : 1), 0);
    const jc = p.props.jc ?? 'left';
    const trailing = /[\s\u3000]*$/.exec(p.text)?.[0] ?? '';
    const leading = /^[\s\u3000]*/.exec(p.text)?.[0] ?? '';
    const right = chars(p.props.right, p.props.rightChars) + width(trailing);
    let gap: number;
    if (jc === 'right' || jc === 'end') gap = right;
    else if (jc === 'center') gap = (LINE_CHARS - width(p.text.trim())) / 2;
    else gap = LINE_CHARS - chars(p.props.left, p.props.leftChars) - width(leading) - width(p.text.trim());
    if (gap >= 1.5 && gap <= 4.5) continue;
    const found = tx.datePlaced(jc === 'right' || jc === 'end' ? 'right' : jc === 'center' ? 'center' : 'left', gap);
    out.push({
      rule: 'date-position',
      element: 'date',
      label: elementTexts(template, 'date', tx, rule.label).label,
      severity: 'warning',
      paragraph: p.index,
      excerpt: excerpt(p.text.trim()),
      expected: tx.dateExpected,
      found,
      message: tx.dateMessage,
    });
  }
}
