import {
  attr,
  child,
  childrenNamed,
  childrenOf,
  find,
  findAll,
  onOff,
  parseXml,
  tagOf,
  textOf,
  type XNode,
} from './ooxml';

/** Effective run properties (what Word shows for a run). */
export interface RunProps {
  eastAsia?: string;
  ascii?: string;
  size?: number; // half-points
  bold?: boolean;
  color?: string;
}

export interface ParaProps {
  jc?: string;
  firstLine?: number; // twips
  firstLineChars?: number; // hundredths of a character
  hanging?: number;
  left?: number;
  right?: number;
  leftChars?: number;
  rightChars?: number;
  line?: number;
  lineRule?: string;
  styleId?: string;
  outlineLevel?: number;
}

export interface RunInfo extends RunProps {
  text: string;
}

export interface DocParagraph {
  index: number;
  text: string;
  inTable: boolean;
  props: ParaProps;
  runs: RunInfo[];
  /** The properties covering most of the paragraph's visible characters. */
  main: RunProps;
  /** Every distinct east-Asian font / size used by visible characters. */
  fonts: string[];
  sizes: number[];
}

export interface SectionInfo {
  pageWidth?: number;
  pageHeight?: number;
  margins: { top?: number; bottom?: number; left?: number; right?: number };
  gridType?: string;
  linePitch?: number;
  charSpace?: number;
  footers: { type: string; text: string; hasPageField: boolean; jc?: string; runs: RunInfo[] }[];
  evenAndOddHeaders: boolean;
}

export interface ParsedDocx {
  paragraphs: DocParagraph[];
  section: SectionInfo;
}

interface StyleDef {
  id: string;
  type: string;
  basedOn?: string;
  rPr?: XNode;
  pPr?: XNode;
  isDefault: boolean;
}

const num = (v: string | undefined) => (v === undefined || v === '' || Number.isNaN(Number(v)) ? undefined : Number(v));

function themeFonts(theme: Buffer | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!theme) return out;
  const nodes = parseXml(theme);
  for (const [key, tag] of [
    ['major', 'a:majorFont'],
    ['minor', 'a:minorFont'],
  ] as const) {
    const f = find(nodes, tag);
    if (!f) continue;
    const hans = childrenNamed(f, 'a:font').find((n) => attr(n, 'script') === 'Hans');
    const ea = attr(child(f, 'a:ea'), 'typeface');
    out[`${key}EastAsia`] = hans ? (attr(hans, 'typeface') ?? '') : ea || '';
    out[`${key}HAnsi`] = attr(child(f, 'a:latin'), 'typeface') ?? '';
    out[`${key}Ascii`] = out[`${key}HAnsi`];
  }
  return out;
}

function applyRPr(target: RunProps, rPr: XNode | undefined, theme: Record<string, string>) {
  if (!rPr) return;
  const fonts = child(rPr, 'w:rFonts');
  if (fonts) {
    const ea =
      attr(fonts, 'w:eastAsia') ??
      (attr(fonts, 'w:eastAsiaTheme') ? theme[attr(fonts, 'w:eastAsiaTheme')!] : undefined);
    if (ea) target.eastAsia = ea;
    const ascii =
      attr(fonts, 'w:ascii') ?? (attr(fonts, 'w:asciiTheme') ? theme[attr(fonts, 'w:asciiTheme')!] : undefined);
    if (ascii) target.ascii = ascii;
  }
  const sz = num(attr(child(rPr, 'w:sz'), 'w:val'));
  if (sz !== undefined) target.size = sz;
  const b = onOff(child(rPr, 'w:b'));
  if (b !== undefined) target.bold = b;
  const color = attr(child(rPr, 'w:color'), 'w:val');
  if (color) target.color = color;
}

function applyPPr(target: ParaProps, pPr: XNode | undefined) {
  if (!pPr) return;
  const jc = attr(child(pPr, 'w:jc'), 'w:val');
  if (jc) target.jc = jc;
  const ind = child(pPr, 'w:ind');
  if (ind) {
    const set = (k: keyof ParaProps, a: string) => {
      const v = num(attr(ind, a));
      if (v !== undefined) (target as Record<string, unknown>)[k] = v;
    };
    set('firstLine', 'w:firstLine');
    set('firstLineChars', 'w:firstLineChars');
    set('hanging', 'w:hanging');
    set('left', 'w:left');
    set('left', 'w:start');
    set('right', 'w:right');
    set('right', 'w:end');
    set('leftChars', 'w:leftChars');
    set('rightChars', 'w:rightChars');
    if (attr(ind, 'w:hanging') !== undefined) {
      target.firstLine = 0;
      target.firstLineChars = undefined;
    }
  }
  const spacing = child(pPr, 'w:spacing');
  if (spacing) {
    const line = num(attr(spacing, 'w:line'));
    if (line !== undefined) target.line = line;
    const rule = attr(spacing, 'w:lineRule');
    if (rule) target.lineRule = rule;
  }
  const ol = num(attr(child(pPr, 'w:outlineLvl'), 'w:val'));
  if (ol !== undefined) target.outlineLevel = ol;
}

const visible = (s: string) => s.replace(/\s/g, '').length;

/** Reads a .docx's parts into paragraphs with effective (inherited) properties and the section layout. */
export function parseDocx(parts: Map<string, Buffer>): ParsedDocx {
  const theme = themeFonts(parts.get('word/theme/theme1.xml'));
  const stylesXml = parts.get('word/styles.xml');
  const styles = new Map<string, StyleDef>();
  const defaults: { rPr?: XNode; pPr?: XNode } = {};
  if (stylesXml) {
    const root = parseXml(stylesXml);
    const docDefaults = find(root, 'w:docDefaults');
    defaults.rPr = child(child(docDefaults, 'w:rPrDefault'), 'w:rPr');
    defaults.pPr = child(child(docDefaults, 'w:pPrDefault'), 'w:pPr');
    for (const s of findAll(root, 'w:style')) {
      const id = attr(s, 'w:styleId');
      if (!id) continue;
      styles.set(id, {
        id,
        type: attr(s, 'w:type') ?? 'paragraph',
        basedOn: attr(child(s, 'w:basedOn'), 'w:val'),
        rPr: child(s, 'w:rPr'),
        pPr: child(s, 'w:pPr'),
        isDefault: attr(s, 'w:default') === '1' || attr(s, 'w:default') === 'true',
      });
    }
  }
  const defaultParaStyle = [...styles.values()].find((s) => s.type === 'paragraph' && s.isDefault)?.id;
  const chain = (id: string | undefined): StyleDef[] => {
    const out: StyleDef[] = [];
    const seen = new Set<string>();
    while (id && styles.has(id) && !seen.has(id)) {
      seen.add(id);
      const s = styles.get(id)!;
      out.unshift(s);
      id = s.basedOn;
    }
    return out;
  };

  const docXml = parts.get('word/document.xml');
  if (!docXml) throw new Error('word/document.xml missing');
  const docRoot = parseXml(docXml);
  const body = find(docRoot, 'w:body');
  const paragraphs: DocParagraph[] = [];

  const readParagraph = (p: XNode, inTable: boolean) => {
    const pPr = child(p, 'w:pPr');
    const styleId = attr(child(pPr, 'w:pStyle'), 'w:val') ?? defaultParaStyle;
    const styleChain = chain(styleId);
    const props: ParaProps = { styleId };
    applyPPr(props, defaults.pPr);
    for (const s of styleChain) applyPPr(props, s.pPr);
    applyPPr(props, pPr);
    const base: RunProps = {};
    applyRPr(base, defaults.rPr, theme);
    for (const s of styleChain) applyRPr(base, s.rPr, theme);
    const runs: RunInfo[] = [];
    const walk = (nodes: XNode[]) => {
      for (const n of nodes) {
        const tag = tagOf(n);
        if (tag === 'w:r') {
          const rPr = child(n, 'w:rPr');
          const props: RunProps = { ...base };
          for (const s of chain(attr(child(rPr, 'w:rStyle'), 'w:val'))) applyRPr(props, s.rPr, theme);
          applyRPr(props, rPr, theme);
          let text = '';
          for (const c of childrenOf(n)) {
            const ct = tagOf(c);
            if (ct === 'w:t') text += textOf(c);
            else if (ct === 'w:tab') text += '\t';
            else if (ct === 'w:br' || ct === 'w:cr') text += '\n';
          }
          if (text) runs.push({ ...props, text });
        } else if (tag === 'w:del' || tag === 'w:pPr' || tag === 'w:moveFrom') continue;
        else if (tag && tag !== '#text') walk(childrenOf(n));
      }
    };
    walk(childrenOf(p));
    const text = runs.map((r) => r.text).join('');
    // The dominant properties by visible characters.
    const weight = new Map<string, { props: RunProps; n: number }>();
    for (const r of runs) {
      const n = visible(r.text);
      if (!n) continue;
      const key = `${r.eastAsia}|${r.size}|${r.bold}|${r.color}`;
      const w = weight.get(key) ?? {
        props: { eastAsia: r.eastAsia, ascii: r.ascii, size: r.size, bold: r.bold, color: r.color },
        n: 0,
      };
      w.n += n;
      weight.set(key, w);
    }
    const main = [...weight.values()].sort((a, b) => b.n - a.n)[0]?.props ?? base;
    const cjkRuns = runs.filter((r) => /[\u3400-\u9fff]/.test(r.text));
    paragraphs.push({
      index: paragraphs.length,
      text,
      inTable,
      props,
      runs,
      main,
      fonts: [...new Set(cjkRuns.map((r) => r.eastAsia ?? ''))],
      sizes: [...new Set(runs.filter((r) => visible(r.text)).map((r) => r.size ?? 0))],
    });
  };
  const walkBody = (nodes: XNode[], inTable: boolean) => {
    for (const n of nodes) {
      const tag = tagOf(n);
      if (tag === 'w:p') readParagraph(n, inTable);
      else if (tag === 'w:tbl') walkBody(childrenOf(n), true);
      else if (tag === 'w:tr' || tag === 'w:tc' || tag === 'w:sdt' || tag === 'w:sdtContent' || tag === 'w:customXml')
        walkBody(childrenOf(n), inTable);
    }
  };
  walkBody(childrenOf(body), false);

  // The last section's properties (the document's own), its footers and the settings.
  const sectPrs = findAll(childrenOf(body), 'w:sectPr');
  const sectPr = sectPrs[sectPrs.length - 1];
  const pgSz = child(sectPr, 'w:pgSz');
  const pgMar = child(sectPr, 'w:pgMar');
  const grid = child(sectPr, 'w:docGrid');
  const rels = new Map<string, string>();
  const relsXml = parts.get('word/_rels/document.xml.rels');
  if (relsXml)
    for (const r of findAll(parseXml(relsXml), 'Relationship')) rels.set(attr(r, 'Id') ?? '', attr(r, 'Target') ?? '');
  const footers: SectionInfo['footers'] = [];
  for (const ref of childrenNamed(sectPr, 'w:footerReference')) {
    const target = rels.get(attr(ref, 'r:id') ?? '');
    if (!target) continue;
    const xml = parts.get('word/' + target.replace(/^\/?word\//, '').replace(/^\.\//, ''));
    if (!xml) continue;
    const fRoot = parseXml(xml);
    const instr = [
      ...findAll(fRoot, 'w:instrText').map(textOf),
      ...findAll(fRoot, 'w:fldSimple').map((f) => attr(f, 'w:instr') ?? ''),
    ].join(' ');
    const fParas = findAll(fRoot, 'w:p');
    const fRuns: RunInfo[] = [];
    let jc: string | undefined;
    for (const p of fParas) {
      const pj = attr(child(child(p, 'w:pPr'), 'w:jc'), 'w:val');
      if (pj) jc = pj;
      for (const r of findAll(childrenOf(p), 'w:r')) {
        const props: RunProps = {};
        applyRPr(props, defaults.rPr, theme);
        applyRPr(props, child(r, 'w:rPr'), theme);
        const t = findAll(childrenOf(r), 'w:t').map(textOf).join('');
        if (t) fRuns.push({ ...props, text: t });
      }
    }
    footers.push({
      type: attr(ref, 'w:type') ?? 'default',
      text: fRuns.map((r) => r.text).join(''),
      hasPageField: /\bPAGE\b/.test(instr),
      jc,
      runs: fRuns,
    });
  }
  const settings = parts.get('word/settings.xml');
  const evenAndOddHeaders = settings ? onOff(find(parseXml(settings), 'w:evenAndOddHeaders')) === true : false;
  return {
    paragraphs,
    section: {
      pageWidth: num(attr(pgSz, 'w:w')),
      pageHeight: num(attr(pgSz, 'w:h')),
      margins: {
        top: num(attr(pgMar, 'w:top')),
        bottom: num(attr(pgMar, 'w:bottom')),
        left: num(attr(pgMar, 'w:left')),
        right: num(attr(pgMar, 'w:right')),
      },
      gridType: attr(grid, 'w:type'),
      linePitch: num(attr(grid, 'w:linePitch')),
      charSpace: num(attr(grid, 'w:charSpace')),
      footers,
      evenAndOddHeaders,
    },
  };
}
