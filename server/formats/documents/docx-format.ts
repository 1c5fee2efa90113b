// The formatting of a .docx paragraph the editor keeps (bold, italic, underline, alignment, size), carried as a
// small set of classes on the block (never a style attribute): sanitize.ts lets only these through, the editor shows
// them, and both exports write them back. Partly formatted text keeps its inline <strong>, <em> and <u>.

/** Every class a block may carry. */
export const FORMAT_CLASSES = [
  'wb-align-center',
  'wb-align-right',
  'wb-align-justify',
  'wb-bold',
  'wb-italic',
  'wb-underline',
  'wb-size-s',
  'wb-size-l',
  'wb-size-xl',
] as const;

export type FormatClass = (typeof FORMAT_CLASSES)[number];

/** A block's formatting, read back from its classes (the exports). */
export interface BlockFormat {
  align?: 'center' | 'right' | 'justify';
  bold?: boolean;
  italics?: boolean;
  underline?: boolean;
  /** font size in half-points, as docx writes it */
  size?: number;
}

/** Sizes of the size classes in half-points: 9 pt, 18 pt (小二), 22 pt (二号). */
const SIZE_HALF_POINTS: Record<'wb-size-s' | 'wb-size-l' | 'wb-size-xl', number> = {
  'wb-size-s': 18,
  'wb-size-l': 36,
  'wb-size-xl': 44,
};

/** The size class of a font size in points: small below 10, large from 18, extra large from 22. */
export function sizeClass(points: number | null | undefined): FormatClass | null {
  if (!points) return null;
  if (points >= 22) return 'wb-size-xl';
  if (points >= 18) return 'wb-size-l';
  if (points < 10) return 'wb-size-s';
  return null;
}

export function formatOf(classAttribute: string | undefined): BlockFormat {
  const classes = new Set((classAttribute ?? '').split(/\s+/));
  const format: BlockFormat = {};
  if (classes.has('wb-align-center')) format.align = 'center';
  else if (classes.has('wb-align-right')) format.align = 'right';
  else if (classes.has('wb-align-justify')) format.align = 'justify';
  if (classes.has('wb-bold')) format.bold = true;
  if (classes.has('wb-italic')) format.italics = true;
  if (classes.has('wb-underline')) format.underline = true;
  for (const [name, size] of Object.entries(SIZE_HALF_POINTS)) if (classes.has(name)) format.size = size;
  return format;
}

// ---- reading a .docx through mammoth ----------------------------------------------------------------------

// mammoth's document model, as far as it is read here
interface MammothRun {
  type: 'run';
  children: MammothNode[];
  isBold?: boolean;
  isItalic?: boolean;
  isUnderline?: boolean;
  fontSize?: number | null;
}
interface MammothNode {
  type: string;
  value?: string;
  children?: MammothNode[];
}
interface MammothParagraph extends MammothNode {
  type: 'paragraph';
  alignment?: string | null;
  children: MammothNode[];
}

// A marker of private-use characters put before a paragraph's content by the transform and turned into the
// block's class attribute after conversion (mammoth's style map cannot add classes by formatting).
const OPEN = '\uE000';
const CLOSE = '\uE001';

const ALIGN: Record<string, FormatClass> = {
  center: 'wb-align-center',
  right: 'wb-align-right',
  end: 'wb-align-right',
  both: 'wb-align-justify',
  distribute: 'wb-align-justify',
};

function textRuns(nodes: MammothNode[], out: MammothRun[] = []): MammothRun[] {
  for (const node of nodes) {
    if (node.type === 'run') {
      const run = node as MammothRun;
      if (run.children.some((c) => c.type === 'text' && (c.value ?? '').trim())) out.push(run);
    } else if (node.children) textRuns(node.children, out);
  }
  return out;
}

/** The classes a paragraph's formatting gives its block: alignment, and what all its text has in common. */
export function paragraphClasses(paragraph: MammothParagraph): FormatClass[] {
  const classes: FormatClass[] = [];
  const align = ALIGN[paragraph.alignment ?? ''];
  if (align) classes.push(align);
  const runs = textRuns(paragraph.children);
  if (runs.length) {
    if (runs.every((r) => r.isBold)) classes.push('wb-bold');
    if (runs.every((r) => r.isItalic)) classes.push('wb-italic');
    if (runs.every((r) => r.isUnderline)) classes.push('wb-underline');
    const size = sizeClass(Math.max(...runs.map((r) => r.fontSize ?? 0)));
    if (size) classes.push(size);
  }
  return classes;
}

/** mammoth's transformDocument: marks each formatted paragraph for `applyMarkers`. */
export function markParagraph<P extends MammothParagraph>(paragraph: P): P {
  const classes = paragraphClasses(paragraph);
  if (!classes.length) return paragraph;
  const marker: MammothRun = {
    type: 'run',
    children: [{ type: 'text', value: `${OPEN}${classes.join(' ')}${CLOSE}` }],
  };
  return { ...paragraph, children: [marker, ...paragraph.children] };
}

/** mammoth's transformDocument: every paragraph of the document (tables' too) marked by markParagraph. */
export function markParagraphs(element: MammothNode): MammothNode {
  const children = element.children?.map(markParagraphs);
  const node = children ? { ...element, children } : element;
  return node.type === 'paragraph'
    ? markParagraph({ ...node, type: 'paragraph', children: node.children ?? [] })
    : node;
}

const MARKED = new RegExp(`<(p|h[1-6]|li)>((?:<[a-z]+[^>]*>)*)${OPEN}([a-z -]*)${CLOSE}`, 'g');
const STRAY = new RegExp(`${OPEN}[^${CLOSE}]*${CLOSE}|[${OPEN}${CLOSE}]`, 'g');

/** What a heading is already (the editor's and the exports' heading styles): not repeated as classes. */
const IMPLIED: Record<string, readonly string[]> = {
  h1: ['wb-align-center', 'wb-bold', 'wb-size-xl'],
  h2: ['wb-bold'],
  h3: ['wb-bold'],
  h4: ['wb-bold'],
  h5: ['wb-bold'],
  h6: ['wb-bold'],
};

/** The converted HTML with each marker turned into its block's class attribute (only known classes). */
export function applyMarkers(html: string): string {
  const known = new Set<string>(FORMAT_CLASSES);
  return html
    .replace(MARKED, (_all, tag: string, opened: string, classes: string) => {
      const implied = IMPLIED[tag] ?? [];
      const kept = classes.split(' ').filter((c) => known.has(c) && !implied.includes(c));
      return `<${tag}${kept.length ? ` class="${kept.join(' ')}"` : ''}>${opened}`;
    })
    .replace(STRAY, '');
}
