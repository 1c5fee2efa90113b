import sanitizeHtml from 'sanitize-html';
import { FORMAT_CLASSES } from './docx-format';

const SAFE_IMAGE = /^data:image\/(png|jpe?g|gif|webp|bmp);base64,[a-z0-9+/=\s]+$/i;

/**
 * The HTML the editor may render: structure and basic emphasis only. Scripts, event handlers,
 * javascript:/vbscript: URLs, iframes/objects/embeds, forms and all style attributes or style
 * elements (CSS injection) are removed; images only as inline raster data URLs. A block's formatting travels
 * as a class of docx-format.ts's short list, the only classes kept.
 */
export function sanitize(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [
      'h1',
      'h2',
      'h3',
      'h4',
      'h5',
      'h6',
      'p',
      'br',
      'hr',
      'blockquote',
      'pre',
      'code',
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
      'strong',
      'b',
      'em',
      'i',
      'u',
      's',
      'del',
      'ins',
      'sub',
      'sup',
      'span',
      'a',
      'img',
    ],
    disallowedTagsMode: 'discard',
    nonTextTags: [
      'script',
      'style',
      'textarea',
      'option',
      'noscript',
      'iframe',
      'object',
      'embed',
      'template',
      'title',
      // raw-text elements whose content a browser would not parse as markup (sanitize-html's own list has xmp
      // since 2.17.4; this list replaces that one, so it names them too)
      'xmp',
      'noembed',
      'noframes',
      'plaintext',
    ],
    allowedAttributes: {
      a: ['href', 'title', 'rel'],
      img: ['src', 'alt', 'width', 'height'],
      td: ['colspan', 'rowspan'],
      th: ['colspan', 'rowspan'],
      ol: ['start'],
    },
    allowedClasses: Object.fromEntries(
      ['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li'].map((tag) => [tag, [...FORMAT_CLASSES]]),
    ),
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['data'] },
    allowProtocolRelative: false,
    allowedStyles: {},
    exclusiveFilter: (frame) => frame.tag === 'img' && !SAFE_IMAGE.test(frame.attribs.src ?? ''),
    transformTags: {
      a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: 'noopener noreferrer' } }),
    },
  });
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
