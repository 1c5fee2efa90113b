// The document as the editor shows it: the server's sanitised HTML, whose leaf blocks are the lines of
// the document's text (the same walk as server/formats/documents/content.ts: p, h1-h6, li, td/th,
// pre, caption, blockquote, div without inner blocks; inline content around inner blocks is its own
// block; blocks without text skipped). Each block's inline content is replaced by its line with the
// findings marked (<mark data-finding=id>), so the highlights sit exactly on the characters the
// offsets name, inside the document's own headings, lists and tables. When the text no longer has as
// many lines as the HTML has blocks (lines added or removed by hand), the lines are shown as paragraphs.
// The HTML is sanitised on the server; scripts, event handlers and javascript: URLs are removed here too.
import { BLOCK_TAGS } from '../../../../openapi/document-blocks';

export interface MarkRange {
  id: string;
  start: number;
  end: number;
  level: number;
}

const DROP_TAGS = new Set([
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'link',
  'meta',
  'base',
  'form',
  'frame',
  'frameset',
  'template',
]);

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function clean(root: Element): void {
  for (const el of [...root.querySelectorAll('*')]) {
    if (DROP_TAGS.has(el.tagName.toLowerCase())) {
      el.remove();
      continue;
    }
    for (const attr of [...el.attributes]) {
      const name = attr.name.toLowerCase();
      const value = attr.value.replace(/[\s\u0000-\u001f]/g, '').toLowerCase();
      if (
        name.startsWith('on') ||
        name === 'style' ||
        name === 'srcdoc' ||
        ((name === 'href' || name === 'src' || name === 'xlink:href' || name === 'action') &&
          /^(javascript|vbscript|data):/.test(value) &&
          !/^data:image\//.test(value))
      )
        el.removeAttribute(attr.name);
    }
  }
}

function inlineText(nodes: Node[]): string {
  let out = '';
  const walk = (list: Iterable<Node>) => {
    for (const n of list) {
      if (n.nodeType === 3) out += n.nodeValue ?? '';
      else if (n.nodeType === 1) {
        if ((n as Element).tagName.toLowerCase() === 'br') out += ' ';
        else walk(n.childNodes);
      }
    }
  };
  walk(nodes);
  return out.replace(/[\s\u00a0]+/g, ' ').trim();
}

/** The runs of inline nodes that make the leaf blocks, in document order. */
function leafRuns(root: Element): Node[][] {
  const runs: Node[][] = [];
  const visit = (parent: Node) => {
    let pending: Node[] = [];
    const flush = () => {
      if (inlineText(pending)) runs.push(pending);
      pending = [];
    };
    for (const n of [...parent.childNodes]) {
      if (n.nodeType === 1 && BLOCK_TAGS.has((n as Element).tagName.toLowerCase())) {
        flush();
        visit(n);
      } else pending.push(n);
    }
    flush();
  };
  visit(root);
  return runs;
}

/** One line with its findings marked (ranges relative to the whole text). */
export function markLine(line: string, lineStart: number, marks: readonly MarkRange[]): string {
  let out = '';
  let at = 0;
  for (const m of marks) {
    const s = Math.max(m.start - lineStart, at);
    const e = Math.min(m.end - lineStart, line.length);
    if (e <= s && !(m.start === m.end)) continue;
    out += escapeHtml(line.slice(at, s));
    out += `<mark data-finding="${escapeHtml(m.id)}" data-level="${m.level}">${escapeHtml(line.slice(s, e))}</mark>`;
    at = e;
  }
  return out + escapeHtml(line.slice(at));
}

/** The HTML to show: the document with every line's findings marked. */
export function renderDocument(
  html: string,
  text: string,
  marks: readonly MarkRange[],
): { html: string; structured: boolean } {
  const lines = text ? text.split('\n') : [];
  const starts: number[] = [];
  let at = 0;
  for (const line of lines) {
    starts.push(at);
    at += line.length + 1;
  }
  // marks per line (sorted by start)
  const sorted = [...marks].sort((a, b) => a.start - b.start);
  const perLine: MarkRange[][] = lines.map(() => []);
  let li = 0;
  for (const m of sorted) {
    while (li < lines.length - 1 && m.start > starts[li] + lines[li].length) li++;
    if (li < lines.length) perLine[li].push(m);
  }
  const lineHtml = (i: number) => markLine(lines[i], starts[i], perLine[i]);

  const doc = new DOMParser().parseFromString(`<!doctype html><html><body>${html}</body></html>`, 'text/html');
  const body = doc.body;
  clean(body);
  const runs = leafRuns(body);
  if (runs.length === lines.length && lines.length > 0) {
    runs.forEach((run, i) => {
      const span = doc.createElement('span');
      span.setAttribute('data-line', String(i));
      span.innerHTML = lineHtml(i);
      run[0].parentNode?.insertBefore(span, run[0]);
      for (const n of run) n.parentNode?.removeChild(n);
    });
    return { html: body.innerHTML, structured: true };
  }
  return {
    html: lines.map((_, i) => `<p><span data-line="${i}">${lineHtml(i)}</span></p>`).join(''),
    structured: false,
  };
}
