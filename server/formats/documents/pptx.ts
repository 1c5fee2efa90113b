import { badRequest } from '../../errors';
import { attr, childrenOf, findAll, parseXml, tagOf, type XNode } from '../format/ooxml';
import { escapeHtml } from './sanitize';
import { DEFAULT_ZIP_LIMITS, unzip, type ZipLimits } from './zip';

/** A .pptx's parts, inflated within limits; requires the parts every PowerPoint presentation has. */
export function openPptx(data: Buffer, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Map<string, Buffer> {
  const parts = unzip(data, limits);
  if (!parts.has('[Content_Types].xml') || !parts.has('ppt/presentation.xml')) {
    throw badRequest('document.zip_not_pptx');
  }
  return parts;
}

/** The slides' part names in the order the presentation shows them (p:sldIdLst, through its relationships). */
function slideOrder(parts: Map<string, Buffer>): string[] {
  const presentation = parseXml(parts.get('ppt/presentation.xml')!);
  const rels = parts.get('ppt/_rels/presentation.xml.rels');
  const targets = new Map<string, string>();
  if (rels) {
    for (const rel of findAll(parseXml(rels), 'Relationship')) {
      const id = attr(rel, 'Id');
      const target = attr(rel, 'Target');
      // targets are relative to ppt/ (or absolute from the package root)
      if (id && target) targets.set(id, target.startsWith('/') ? target.slice(1) : `ppt/${target}`);
    }
  }
  const ordered = findAll(presentation, 'p:sldId')
    .map((s) => targets.get(attr(s, 'r:id') ?? ''))
    .filter((name): name is string => !!name && parts.has(name));
  if (ordered.length > 0) return ordered;
  // no usable list: the slide parts by number
  return [...parts.keys()]
    .filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name))
    .sort((a, b) => Number(/(\d+)\.xml$/.exec(a)![1]) - Number(/(\d+)\.xml$/.exec(b)![1]));
}

/** The text of a DrawingML paragraph: its runs and fields, a line break as a space. */
function paragraphText(p: XNode): string {
  let text = '';
  const walk = (nodes: XNode[]) => {
    for (const n of nodes) {
      const tag = tagOf(n);
      if (tag === 'a:t') {
        for (const c of childrenOf(n)) if (c['#text'] !== undefined) text += String(c['#text']);
      } else if (tag === 'a:br') text += ' ';
      else if (tag && tag !== 'a:pPr' && tag !== 'a:rPr' && tag !== 'a:endParaRPr') walk(childrenOf(n));
    }
  };
  walk(childrenOf(p));
  return text;
}

/**
 * The presentation as HTML: a heading per slide (第 N 张幻灯片), then its paragraphs in the order the slide
 * holds them (text boxes, placeholders, tables, grouped shapes), so each finding's place names its slide.
 */
export function pptxToHtml(parts: Map<string, Buffer>): string {
  const out: string[] = [];
  slideOrder(parts).forEach((name, i) => {
    out.push(`<h2>第 ${i + 1} 张幻灯片</h2>`);
    for (const p of findAll(parseXml(parts.get(name)!), 'a:p')) {
      const text = paragraphText(p).trim();
      if (text) out.push(`<p>${escapeHtml(text)}</p>`);
    }
  });
  return out.join('\n');
}
