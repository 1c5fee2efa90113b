/**
 * The HTML elements that make a block of a document's content (a paragraph of its own): the server splits the text
 * it checks at them, writes them as paragraphs in a .docx export, and the SPA lays its marks over the same blocks,
 * so the offsets of a finding mean the same on both sides.
 */
export const BLOCK_TAGS: ReadonlySet<string> = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'td',
  'th',
  'caption',
  'blockquote',
  'pre',
  'div',
  'section',
  'article',
  'hr',
]);
