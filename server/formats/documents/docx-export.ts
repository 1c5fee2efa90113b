import {
  AlignmentType,
  CommentRangeEnd,
  CommentRangeStart,
  CommentReference,
  DeletedTextRun,
  Document,
  HeadingLevel,
  InsertedTextRun,
  LevelFormat,
  LineRuleType,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
  type FileChild,
  type IRunOptions,
  type ParagraphChild,
} from 'docx';
import { parseDocument } from 'htmlparser2';
import { sanitize } from './sanitize';
import { formatOf, type BlockFormat } from './docx-format';
import { BLOCK_TAGS } from '../../../openapi/document-blocks';

/** Chinese fonts written explicitly (w:eastAsia), Latin in Times New Roman (the usual official-document setup). */
export const FONTS = {
  body: '仿宋_GB2312',
  title: '宋体',
  heading1: '黑体',
  heading2: '楷体_GB2312',
  latin: 'Times New Roman',
} as const;

const font = (eastAsia: string) => ({ eastAsia, ascii: FONTS.latin, hAnsi: FONTS.latin, cs: FONTS.latin });

/** Half-point sizes: 二号 22 pt, 三号 16 pt, 四号 14 pt. */
const SIZE = { title: 44, body: 32, table: 28 };

/** A4 with GB/T 9704 margins (twips) and the 28 pt exact line pitch. */
const PAGE = {
  size: { width: 11906, height: 16838 },
  margin: { top: 2098, left: 1587, right: 1474, bottom: 1984 },
};
const LINE = { line: 560, lineRule: LineRuleType.EXACT };

interface RunStyle {
  bold?: boolean;
  italics?: boolean;
  underline?: boolean;
  strike?: boolean;
  superScript?: boolean;
  subScript?: boolean;
}

interface BlockStyle {
  eastAsia: string;
  size: number;
  bold?: boolean;
}

// Minimal DOM shapes from htmlparser2 (domhandler).
interface DomNode {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: DomNode[];
}

function runStyleOf(name: string, style: RunStyle): RunStyle {
  switch (name) {
    case 'strong':
    case 'b':
      return { ...style, bold: true };
    case 'em':
    case 'i':
      return { ...style, italics: true };
    case 'u':
    case 'ins':
      return { ...style, underline: true };
    case 's':
    case 'del':
      return { ...style, strike: true };
    case 'sup':
      return { ...style, superScript: true };
    case 'sub':
      return { ...style, subScript: true };
    default:
      return style;
  }
}

function textRun(text: string, block: BlockStyle, style: RunStyle, extra: Partial<IRunOptions> = {}): TextRun {
  return new TextRun({
    text,
    font: font(block.eastAsia),
    size: block.size,
    bold: style.bold || block.bold,
    italics: style.italics,
    underline: style.underline ? {} : undefined,
    strike: style.strike,
    superScript: style.superScript,
    subScript: style.subScript,
    ...extra,
  });
}

/** Inline content of a block as runs (line breaks kept). */
function inlineRuns(nodes: DomNode[] | undefined, block: BlockStyle, style: RunStyle = {}): ParagraphChild[] {
  const runs: ParagraphChild[] = [];
  for (const node of nodes ?? []) {
    if (node.type === 'text') {
      const text = (node.data ?? '').replace(/\s*\n\s*/g, ' ');
      if (text) runs.push(textRun(text, block, style));
    } else if (node.type === 'tag') {
      if (node.name === 'br') runs.push(textRun('', block, style, { break: 1 }));
      else if (node.name === 'img') continue;
      else runs.push(...inlineRuns(node.children, block, runStyleOf(node.name ?? '', style)));
    }
  }
  return runs;
}

const BODY: BlockStyle = { eastAsia: FONTS.body, size: SIZE.body };

const ALIGNMENT = {
  center: AlignmentType.CENTER,
  right: AlignmentType.RIGHT,
  justify: AlignmentType.JUSTIFIED,
} as const;

/** A block's style and its runs' with its own formatting (docx-format.ts classes) applied. */
function formatted(block: BlockStyle, format: BlockFormat): { block: BlockStyle; run: RunStyle } {
  return {
    block: { ...block, ...(format.size ? { size: format.size } : {}), ...(format.bold ? { bold: true } : {}) },
    run: { ...(format.italics ? { italics: true } : {}), ...(format.underline ? { underline: true } : {}) },
  };
}
const HEADINGS: Record<
  string,
  { block: BlockStyle; level: (typeof HeadingLevel)[keyof typeof HeadingLevel]; center?: boolean }
> = {
  // Bold comes from the heading styles (not direct formatting), so a re-import gives plain <h1>..<h6>.
  h1: { block: { eastAsia: FONTS.title, size: SIZE.title }, level: HeadingLevel.HEADING_1, center: true },
  h2: { block: { eastAsia: FONTS.heading1, size: SIZE.body }, level: HeadingLevel.HEADING_2 },
  h3: { block: { eastAsia: FONTS.heading2, size: SIZE.body }, level: HeadingLevel.HEADING_3 },
  h4: { block: { eastAsia: FONTS.body, size: SIZE.body }, level: HeadingLevel.HEADING_4 },
  h5: { block: { eastAsia: FONTS.body, size: SIZE.body }, level: HeadingLevel.HEADING_5 },
  h6: { block: { eastAsia: FONTS.body, size: SIZE.body }, level: HeadingLevel.HEADING_6 },
};

class Converter {
  private listInstance = 0;

  blocks(nodes: DomNode[] | undefined, inTable = false): FileChild[] {
    const out: FileChild[] = [];
    let pending: DomNode[] = [];
    const flush = () => {
      const runs = inlineRuns(pending, inTable ? { ...BODY, size: SIZE.table } : BODY);
      pending = [];
      if (runs.length) out.push(this.paragraph(runs, inTable));
    };
    for (const node of nodes ?? []) {
      const name = node.type === 'tag' ? (node.name ?? '') : '';
      if (!BLOCK_TAGS.has(name)) {
        if (node.type === 'text' && !pending.length && !(node.data ?? '').trim()) continue;
        pending.push(node);
        continue;
      }
      flush();
      out.push(...this.block(node, inTable));
    }
    flush();
    return out;
  }

  paragraph(
    children: ParagraphChild[],
    inTable: boolean,
    options: { indent?: boolean; align?: BlockFormat['align'] } = {},
  ): Paragraph {
    return new Paragraph({
      children,
      spacing: LINE,
      alignment: options.align ? ALIGNMENT[options.align] : undefined,
      indent: inTable || options.indent === false ? undefined : { firstLine: 640 },
    });
  }

  block(node: DomNode, inTable: boolean): FileChild[] {
    const name = node.name ?? '';
    const heading = HEADINGS[name];
    const format = formatOf(node.attribs?.class);
    if (heading) {
      const style = formatted(heading.block, format);
      return [
        new Paragraph({
          heading: heading.level,
          alignment: format.align ? ALIGNMENT[format.align] : heading.center ? AlignmentType.CENTER : undefined,
          spacing: LINE,
          children: inlineRuns(node.children, style.block, style.run),
        }),
      ];
    }
    if (name === 'p' || name === 'pre' || name === 'caption') {
      const style = formatted(inTable ? { ...BODY, size: SIZE.table } : BODY, format);
      const runs = inlineRuns(node.children, style.block, style.run);
      return runs.length
        ? [this.paragraph(runs, inTable, { indent: name === 'p' && !format.align, align: format.align })]
        : [];
    }
    if (name === 'ul' || name === 'ol') return this.list(node, name === 'ol', 0, inTable);
    if (name === 'table') return [this.table(node)];
    if (name === 'hr')
      return [
        new Paragraph({ children: [], border: { bottom: { style: 'single', size: 6, color: '000000', space: 1 } } }),
      ];
    return this.blocks(node.children, inTable);
  }

  list(node: DomNode, ordered: boolean, level: number, inTable: boolean): FileChild[] {
    const instance = ++this.listInstance;
    const out: FileChild[] = [];
    for (const li of node.children ?? []) {
      if (li.type !== 'tag' || li.name !== 'li') continue;
      const inline: DomNode[] = [];
      const nested: DomNode[] = [];
      for (const c of li.children ?? [])
        (c.type === 'tag' && (c.name === 'ul' || c.name === 'ol') ? nested : inline).push(c);
      const innerBlocks = inline.filter((c) => c.type === 'tag' && c.name === 'p');
      const runs = inlineRuns(
        innerBlocks.length ? innerBlocks.flatMap((p) => p.children ?? []) : inline,
        inTable ? { ...BODY, size: SIZE.table } : BODY,
      );
      out.push(
        new Paragraph({
          children: runs,
          spacing: LINE,
          numbering: { reference: ordered ? 'ordered' : 'bullets', level: Math.min(level, 2), instance },
        }),
      );
      for (const n of nested) out.push(...this.list(n, n.name === 'ol', level + 1, inTable));
    }
    return out;
  }

  table(node: DomNode): Table {
    const rows: DomNode[] = [];
    const collect = (n: DomNode) => {
      for (const c of n.children ?? []) {
        if (c.type !== 'tag') continue;
        if (c.name === 'tr') rows.push(c);
        else if (c.name === 'thead' || c.name === 'tbody' || c.name === 'tfoot') collect(c);
      }
    };
    collect(node);
    const tableRows = rows.map(
      (tr) =>
        new TableRow({
          children: (tr.children ?? [])
            .filter((c) => c.type === 'tag' && (c.name === 'td' || c.name === 'th'))
            .map((cell) => {
              const content = this.blocks(cell.children, true).filter((b): b is Paragraph => b instanceof Paragraph);
              const bold = cell.name === 'th';
              return new TableCell({
                columnSpan: Number(cell.attribs?.colspan) || undefined,
                rowSpan: Number(cell.attribs?.rowspan) || undefined,
                children: content.length
                  ? bold
                    ? [
                        new Paragraph({
                          spacing: LINE,
                          children: inlineRuns(cell.children, { ...BODY, size: SIZE.table, bold: true }),
                        }),
                      ]
                    : content
                  : [new Paragraph({ children: [] })],
              });
            }),
        }),
    );
    return new Table({
      width: { size: 100, type: WidthType.PERCENTAGE },
      rows: tableRows.length
        ? tableRows
        : [new TableRow({ children: [new TableCell({ children: [new Paragraph({})] })] })],
    });
  }
}

const numbering = {
  config: [
    {
      reference: 'bullets',
      levels: [0, 1, 2].map((level) => ({
        level,
        format: LevelFormat.BULLET,
        text: ['●', '○', '■'][level],
        alignment: AlignmentType.LEFT,
        style: { paragraph: { indent: { left: 640 * (level + 1), hanging: 320 } } },
      })),
    },
    {
      reference: 'ordered',
      levels: [0, 1, 2].map((level) => ({
        level,
        format: [LevelFormat.DECIMAL, LevelFormat.DECIMAL, LevelFormat.LOWER_LETTER][level],
        text: ['%1.', '（%2）', '%3)'][level],
        alignment: AlignmentType.LEFT,
        style: { paragraph: { indent: { left: 640 * (level + 1), hanging: 480 } } },
      })),
    },
  ],
};

const headingStyle = (eastAsia: string, size: number, bold: boolean) => ({
  run: { font: font(eastAsia), size, bold, color: '000000', italics: false },
  paragraph: { spacing: LINE },
});
const styles = {
  default: {
    document: { run: { font: font(FONTS.body), size: SIZE.body }, paragraph: { spacing: LINE } },
    title: headingStyle(FONTS.title, SIZE.title, true),
    heading1: headingStyle(FONTS.title, SIZE.title, true),
    heading2: headingStyle(FONTS.heading1, SIZE.body, false),
    heading3: headingStyle(FONTS.heading2, SIZE.body, false),
    heading4: headingStyle(FONTS.body, SIZE.body, true),
    heading5: headingStyle(FONTS.body, SIZE.body, true),
    heading6: headingStyle(FONTS.body, SIZE.body, true),
  },
};

/** HTML (sanitised first) to a .docx keeping text, headings, lists, tables, emphasis and Chinese fonts. */
export async function htmlToDocx(html: string, title?: string): Promise<Buffer> {
  const dom: DomNode = parseDocument(sanitize(html));
  const children = new Converter().blocks(dom.children);
  const doc = new Document({
    title,
    creator: 'workbench',
    styles,
    numbering,
    sections: [{ properties: { page: PAGE }, children: children.length ? children : [new Paragraph({})] }],
  });
  return Packer.toBuffer(doc);
}

/** A piece of a paragraph for the tracked-changes export. */
export type TrackedSegment =
  { text: string; comment?: string } | { inserted: string; comment?: string } | { deleted: string; comment?: string };

export interface TrackedParagraph {
  segments: TrackedSegment[];
  /** 1 = title (centred, 二号), 2-3 = heading levels; body otherwise. */
  heading?: 1 | 2 | 3;
  /** the block's own formatting (docx-format.ts) */
  format?: BlockFormat;
}

export interface TrackedOptions {
  author?: string;
  date?: Date;
  title?: string;
}

/**
 * A .docx where insertions/deletions are Word tracked changes (w:ins / w:del) and segments with a
 * `comment` carry a Word comment over their range — editors accept or reject them in Word or WPS.
 */
export async function buildTrackedDocx(paragraphs: TrackedParagraph[], options: TrackedOptions = {}): Promise<Buffer> {
  const author = options.author ?? '校对';
  const date = options.date ?? new Date();
  const iso = date.toISOString().replace(/\.\d{3}Z$/, 'Z');
  let revision = 0;
  let commentId = 0;
  const comments: { id: number; author: string; date: Date; children: Paragraph[] }[] = [];
  const blocks = paragraphs.map((p) => {
    const block =
      p.heading === 1
        ? HEADINGS.h1.block
        : p.heading === 2
          ? HEADINGS.h2.block
          : p.heading === 3
            ? HEADINGS.h3.block
            : BODY;
    const style = formatted(block, p.format ?? {});
    const runOptions = {
      font: font(block.eastAsia),
      size: style.block.size,
      bold: style.block.bold,
      italics: style.run.italics,
      underline: style.run.underline ? {} : undefined,
    };
    const children: ParagraphChild[] = [];
    for (const seg of p.segments) {
      let run: ParagraphChild;
      if ('inserted' in seg)
        run = new InsertedTextRun({ ...runOptions, text: seg.inserted, id: ++revision, author, date: iso });
      else if ('deleted' in seg)
        run = new DeletedTextRun({ ...runOptions, text: seg.deleted, id: ++revision, author, date: iso });
      else run = new TextRun({ ...runOptions, text: seg.text });
      if (seg.comment) {
        const id = commentId++;
        comments.push({
          id,
          author,
          date,
          children: [new Paragraph({ children: [new TextRun({ text: seg.comment, font: font(FONTS.body) })] })],
        });
        children.push(
          new CommentRangeStart(id),
          run,
          new CommentRangeEnd(id),
          new TextRun({ children: [new CommentReference(id)] }),
        );
      } else children.push(run);
    }
    return new Paragraph({
      children,
      spacing: LINE,
      alignment: p.format?.align ? ALIGNMENT[p.format.align] : p.heading === 1 ? AlignmentType.CENTER : undefined,
      indent: p.heading || p.format?.align ? undefined : { firstLine: 640 },
      heading: p.heading ? HEADINGS[`h${p.heading}`].level : undefined,
    });
  });
  const doc = new Document({
    title: options.title,
    creator: 'workbench',
    styles,
    comments: { children: comments },
    sections: [{ properties: { page: PAGE }, children: blocks.length ? blocks : [new Paragraph({})] }],
  });
  return Packer.toBuffer(doc);
}
