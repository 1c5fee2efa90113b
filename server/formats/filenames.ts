/** The longest file name kept, in code points (the extension included). */
export const FILENAME_MAX = 200;
/** Longer "extensions" are part of the name (a.这是一个很长的说明文字), not a type to keep. */
const EXTENSION_MAX = 16;

/**
 * Characters a file name never needs and that can disguise it: C0/C1 controls (line breaks forge log lines and
 * headers), format characters (the bidi overrides and isolates U+202A–U+202E, U+2066–U+2069 make "abc‮gpj.docx"
 * display as "abcxcod.jpg"; zero-width characters, U+00AD and U+FEFF hide inside it), line and paragraph
 * separators, and lone surrogates (not text at all).
 */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/**
 * The name an uploaded file is stored and shown under: its last path segment (browsers on Windows may send
 * C:\fakepath\a.docx), without the characters above, trimmed, at most FILENAME_MAX code points
 * with the extension kept when shortened (the type is read from it later); `fallback` when nothing is left.
 */
export function sanitizeFilename(name: string, fallback = '文件'): string {
  const last =
    String(name ?? '')
      .split(/[\\/]/)
      .pop() ?? '';
  const clean = last.normalize('NFC').replace(UNSAFE, '').trim();
  if (!clean || /^\.+$/.test(clean)) return fallback;
  const chars = Array.from(clean);
  if (chars.length <= FILENAME_MAX) return clean;
  const dot = clean.lastIndexOf('.');
  const extension = dot > 0 ? Array.from(clean.slice(dot)) : [];
  if (extension.length < 2 || extension.length > EXTENSION_MAX) return chars.slice(0, FILENAME_MAX).join('').trim();
  const base = chars
    .slice(0, FILENAME_MAX - extension.length)
    .join('')
    .trim();
  return `${base}${extension.join('')}`;
}
