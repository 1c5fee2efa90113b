import { XMLParser } from 'fast-xml-parser';

/** A node of fast-xml-parser's `preserveOrder` output: `{tag: children[], ':@': attributes}` or `{'#text': value}`. */
export type XNode = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: false,
});

export function parseXml(xml: string | Buffer): XNode[] {
  return parser.parse(typeof xml === 'string' ? xml : xml.toString('utf8')) as XNode[];
}

export const tagOf = (node: XNode): string | undefined => Object.keys(node).find((k) => k !== ':@');

export const childrenOf = (node: XNode | undefined): XNode[] => {
  if (!node) return [];
  const tag = tagOf(node);
  const value = tag ? node[tag] : undefined;
  return Array.isArray(value) ? (value as XNode[]) : [];
};

export const attrsOf = (node: XNode | undefined): Record<string, string> =>
  (node?.[':@'] as Record<string, string>) ?? {};

export const attr = (node: XNode | undefined, name: string): string | undefined => attrsOf(node)[name];

export const child = (node: XNode | undefined, tag: string): XNode | undefined =>
  childrenOf(node).find((c) => tagOf(c) === tag);

export const childrenNamed = (node: XNode | undefined, tag: string): XNode[] =>
  childrenOf(node).filter((c) => tagOf(c) === tag);

/** Depth-first search for the first node with the tag. */
export function find(nodes: XNode[], tag: string): XNode | undefined {
  for (const n of nodes) {
    if (tagOf(n) === tag) return n;
    const hit = find(childrenOf(n), tag);
    if (hit) return hit;
  }
  return undefined;
}

export function findAll(nodes: XNode[], tag: string, out: XNode[] = []): XNode[] {
  for (const n of nodes) {
    if (tagOf(n) === tag) out.push(n);
    else findAll(childrenOf(n), tag, out);
  }
  return out;
}

export const textOf = (node: XNode): string =>
  childrenOf(node)
    .map((c) => (typeof c['#text'] === 'string' || typeof c['#text'] === 'number' ? String(c['#text']) : ''))
    .join('');

/** An OOXML on/off property: present without val, or val not false/0/off. */
export function onOff(node: XNode | undefined): boolean | undefined {
  if (!node) return undefined;
  const v = attr(node, 'w:val');
  return !(v === 'false' || v === '0' || v === 'off');
}
