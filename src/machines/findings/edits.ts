// Findings follow the text they point into: an edit keeps those before it, shifts those after it and drops those it
// touches. Shared by every machine that holds findings over an editable text (text proofreading, documents).

export interface Edit {
  /** first changed UTF-16 offset (the same in both texts) */
  prefix: number;
  /** end of the changed range in the old / new text */
  oldEnd: number;
  newEnd: number;
}

/** The one changed range between two texts: their common prefix and suffix left aside. */
export function diffRange(before: string, after: string): Edit {
  let prefix = 0;
  const max = Math.min(before.length, after.length);
  while (prefix < max && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (
    suffix < max - prefix &&
    before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)
  )
    suffix++;
  return { prefix, oldEnd: before.length - suffix, newEnd: after.length - suffix };
}

/** Ranges before the edit stay, ranges after it shift, ranges touching it are dropped. */
export function shiftRanges<T extends { start: number; end: number }>(items: readonly T[], edit: Edit): T[] {
  const delta = edit.newEnd - edit.oldEnd;
  const out: T[] = [];
  for (const item of items) {
    if (item.end <= edit.prefix && !(item.start === item.end && item.start === edit.prefix)) out.push(item);
    else if (item.start >= edit.oldEnd) out.push({ ...item, start: item.start + delta, end: item.end + delta });
  }
  return out;
}
