/** Spans that the engine must never change: URLs, e-mail, numbers, Latin words, allowed words. */

const PATTERNS: RegExp[] = [
  /(?:https?:\/\/|ftp:\/\/|www\.)[^\s\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\u4e00-\u9fff"'<>]+/gi,
  /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g,
  /[A-Za-z][A-Za-z0-9_.'-]*/g,
  /[0-9０-９]+(?:[.,：:．／/-][0-9０-９]+)*%?/g,
];

/** returns a mask: 1 = protected UTF-16 unit */
export function protectedMask(text: string, allowed: string[] = []): Uint8Array {
  const mask = new Uint8Array(text.length);
  for (const re of PATTERNS) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text))) {
      mask.fill(1, m.index, m.index + m[0].length);
      if (m[0].length === 0) re.lastIndex++;
    }
  }
  for (const w of allowed) {
    if (!w) continue;
    let idx = text.indexOf(w);
    while (idx >= 0) {
      mask.fill(1, idx, idx + w.length);
      idx = text.indexOf(w, idx + 1);
    }
  }
  return mask;
}

/** URL and e-mail spans only (punctuation rules skip them) */
export function linkMask(text: string): Uint8Array {
  const mask = new Uint8Array(text.length);
  for (const re of PATTERNS.slice(0, 2)) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text))) mask.fill(1, m.index, m.index + m[0].length);
  }
  return mask;
}
