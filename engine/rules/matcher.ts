/** Simple multi-word matcher (first character index, longest match first). */
export interface Match<T> { start: number; end: number; word: string; value: T }

export class WordMatcher<T> {
  private byFirst = new Map<string, Array<[string, T]>>();
  add(word: string, value: T) {
    if (!word) return;
    const k = word[0];
    let arr = this.byFirst.get(k);
    if (!arr) this.byFirst.set(k, (arr = []));
    arr.push([word, value]);
    arr.sort((a, b) => b[0].length - a[0].length);
  }
  get size() { return this.byFirst.size; }
  /** non-overlapping, left to right, longest first */
  find(text: string): Array<Match<T>> {
    const out: Array<Match<T>> = [];
    if (this.byFirst.size === 0) return out;
    for (let i = 0; i < text.length; i++) {
      const arr = this.byFirst.get(text[i]);
      if (!arr) continue;
      for (const [w, v] of arr) {
        if (text.startsWith(w, i)) {
          out.push({ start: i, end: i + w.length, word: w, value: v });
          i += w.length - 1;
          break;
        }
      }
    }
    return out;
  }
}
