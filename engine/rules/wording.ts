/**
 * Word-level families:
 *  4 冗余  repeated function characters (的的, 了了) and repeated non-verbal words (我们我们)
 *  3 遗漏  a character missing from a four-character idiom (一丝不苟 written 一不苟)
 *  7 语序  two adjacent characters swapped (决解 -> 解决)
 * All expressed as replacements of a span; each accepted only with a language-model margin.
 */
import { contextGain, type LanguageModel } from '../lm';
import type { JiebaDict } from '../jieba';
import { noted } from '../messages';
import type { Issue } from '../types';
import { FrozenStrings, type ImageReader, type ImageWriter } from '../image';

const FUNCTION_CHARS = new Set('的了是在和与及把被将从对为也都就还而但又很吗呢吧着过所以因我你他她它这那有'.split(''));
const isHan = (c: string | undefined) => !!c && c >= '\u4e00' && c <= '\u9fff';

/**
 * an adverb (jieba tag d: 终于, 已经, 总算) or a negation ends right before position i: a 了 there is the verb
 * 了 liǎo (settled: 终于了了, 未了), which takes its particle
 */
export function afterAdverb(dict: JiebaDict, text: string, i: number): boolean {
  if (i > 0 && '未没不难'.includes(text[i - 1])) return true;
  for (let L = 2; L <= 3 && i - L >= 0; L++) if (dict.pos.get(text.slice(i - L, i)) === 'd') return true;
  return false;
}

export interface WordingParams {
  dupGain: number;
  missGain: number;
  swapGain: number;
  window: number;
}
export const WORDING3: WordingParams = { dupGain: 4, missGain: 8, swapGain: 9, window: 4 };
export const WORDING4: WordingParams = { ...WORDING3 };

export class WordingChecker {
  private idiomByMissing: FrozenStrings;
  /** img: the index as saved in an engine image (see save) instead of built from the dictionary */
  constructor(
    private lm: LanguageModel,
    private dict: JiebaDict,
    img: { r: ImageReader; p: string } | null = null,
  ) {
    if (img) {
      this.idiomByMissing = FrozenStrings.read(img.r, `${img.p}.idiomByMissing`);
      return;
    }
    // idioms that lose the same character to the same three (一丝不苟, 一毫不苟 -> 一不苟): the commonest
    // stands for the key only where it is at least ten times as common as every other, else none does
    const best = new Map<string, { w: string; f: number; next: number }>();
    for (const w of dict.idioms) {
      const f = dict.freq.get(w) ?? 0;
      for (let k = 0; k < 4; k++) {
        const key = w.slice(0, k) + w.slice(k + 1);
        const b = best.get(key);
        if (!b) best.set(key, { w, f, next: 0 });
        else if (b.w !== w) {
          if (f > b.f) best.set(key, { w, f, next: b.f });
          else b.next = Math.max(b.next, f);
        }
      }
    }
    const byMissing = new Map<string, string>();
    for (const [key, b] of best) byMissing.set(key, b.f >= 10 * b.next ? b.w : '');
    this.idiomByMissing = FrozenStrings.build(byMissing);
  }

  save(w: ImageWriter, p: string) {
    this.idiomByMissing.save(w, `${p}.idiomByMissing`);
  }

  /** w has the idiom's length and differs from it in exactly one character */
  private oneOff(w: string, idiom: string) {
    if (w.length !== idiom.length) return false;
    let d = 0;
    for (let k = 0; k < w.length; k++) if (w[k] !== idiom[k]) d++;
    return d === 1;
  }

  private known(w: string) {
    return this.lm.has(w) || this.dict.freq.has(w);
  }

  private gain(text: string, s: number, e: number, repl: string, W: number): number {
    return contextGain([this.lm], text, s, e, repl, W);
  }

  check(text: string, blocked: Uint8Array, p: WordingParams): Issue[] {
    const out: Issue[] = [];
    const free = (s: number, e: number) => {
      for (let k = s; k < e; k++) if (blocked[k]) return false;
      return true;
    };
    for (let i = 0; i + 1 < text.length; i++) {
      const c = text[i];
      if (!isHan(c)) continue;
      // 4: a doubled aspect particle closing the clause (做完了了。 讨论过过了): no word of three or more
      // characters spans the pair (小时了了), and the text does not read worse without it
      // (not after an adverb: 终于了了 is the verb 了 liǎo, settled, with its particle)
      if (
        (c === '了' || c === '过') &&
        text[i + 1] === c &&
        !(isHan(text[i + 2]) && !'了吗呢吧啊呀'.includes(text[i + 2])) &&
        free(i, i + 2) &&
        !(c === '了' && afterAdverb(this.dict, text, i))
      ) {
        let spanned = false;
        for (let a = Math.max(0, i - 2); a <= i && !spanned; a++)
          for (let L = 3; L <= 4; L++)
            if (a + L >= i + 2 && a + L <= text.length && this.known(text.slice(a, a + L))) {
              spanned = true;
              break;
            }
        if (!spanned && this.gain(text, i, i + 2, c, p.window) >= 0) {
          out.push({
            start: i,
            end: i + 2,
            original: c + c,
            suggestions: [c],
            category: '4',
            level: 2,
            ...noted('nonword.repeated', { word: c }),
          });
          i++;
          continue;
        }
      }
      // 4: repeated character
      if (text[i + 1] === c && FUNCTION_CHARS.has(c) && free(i, i + 2)) {
        let inWord = false;
        for (let a = Math.max(0, i - 2); a <= i + 1 && !inWord; a++) {
          for (let L = 2; L <= 4; L++) {
            if (a <= i && a + L >= i + 2 && a + L <= text.length && this.known(text.slice(a, a + L))) {
              inWord = true;
              break;
            }
          }
        }
        // the first of the pair ends a word and the second starts the next (可以|以剑, 一把|把, 自自在在)
        const prevWord = i > 0 && isHan(text[i - 1]) && this.dict.freq.has(text.slice(i - 1, i + 1));
        const aabb = i >= 2 && text[i - 1] === text[i - 2];
        if (!inWord && !prevWord && !aabb && text[i + 2] !== c && this.gain(text, i, i + 2, c, p.window) >= p.dupGain) {
          out.push({
            start: i,
            end: i + 2,
            original: c + c,
            suggestions: [c],
            category: '4',
            level: 2,
            ...noted('nonword.repeated', { word: c }),
          });
          i++;
          continue;
        }
      }
      // 4: repeated two-character word
      if (
        i + 3 < text.length &&
        text.slice(i, i + 2) === text.slice(i + 2, i + 4) &&
        isHan(text[i + 1]) &&
        free(i, i + 4)
      ) {
        const w = text.slice(i, i + 2);
        const pos = this.dict.pos.get(w) ?? '';
        // verbs, adjectives and adverbs reduplicate; so do numeral-classifier phrases (一个一个, 一刀一刀: one by one),
        // and emphasis (很强很强)
        const verbal = /^[vadmq]/.test(pos) || w[0] === w[1] || /^[一每很好太真]/.test(w);
        if (
          this.known(w) &&
          !verbal &&
          !this.known(text.slice(i, i + 4)) &&
          this.gain(text, i, i + 4, w, p.window) >= p.dupGain
        ) {
          out.push({
            start: i,
            end: i + 4,
            original: w + w,
            suggestions: [w],
            category: '4',
            level: 2,
            ...noted('wording.repeated-word', { word: w }),
          });
          i += 3;
          continue;
        }
      }
      // 3: idiom missing a character
      if (i + 2 < text.length && isHan(text[i + 1]) && isHan(text[i + 2]) && free(i, i + 3)) {
        const key = text.slice(i, i + 3);
        const idiom = this.idiomByMissing.get(key);
        if (
          idiom &&
          !this.known(key) &&
          !text.startsWith(idiom, i) &&
          !(i > 0 && text.startsWith(idiom, i - 1)) &&
          // a neighbour that makes four characters one substitution away from the idiom is a misspelling, not an
          // omission (四脏六腑, 漫无目地, 声临其境); a known four-character neighbour word is no omission at all (拒人千里)
          !this.oneOff(text.slice(i - 1, i + 3), idiom) &&
          !this.oneOff(text.slice(i, i + 4), idiom) &&
          !(i > 0 && this.known(text.slice(i - 1, i + 3))) &&
          !this.known(text.slice(i, i + 4)) &&
          this.gain(text, i, i + 3, idiom, p.window) >= p.missGain
        ) {
          out.push({
            start: i,
            end: i + 3,
            original: key,
            suggestions: [idiom],
            category: '3',
            level: 2,
            ...noted('wording.idiom', { idiom }),
          });
          i += 2;
          continue;
        }
      }
      // 7: swapped characters
      const d = text[i + 1];
      if (isHan(d) && d !== c && free(i, i + 2)) {
        const sw = d + c;
        if (this.lm.has(sw) && !this.known(c + d)) {
          let partOfWord = false;
          for (let a = Math.max(0, i - 3); a <= i + 1 && !partOfWord; a++) {
            for (let L = 2; L <= 4; L++) {
              const e = a + L;
              if (e > text.length || (a === i && e === i + 2)) continue;
              if (((a <= i && e > i) || (a <= i + 1 && e > i + 1)) && this.lm.wordCost(text.slice(a, e)) < 16) {
                partOfWord = true;
                break;
              }
            }
          }
          if (!partOfWord && this.gain(text, i, i + 2, sw, p.window) >= p.swapGain) {
            out.push({
              start: i,
              end: i + 2,
              original: c + d,
              suggestions: [sw],
              category: '7',
              level: 2,
              ...noted('nonword.swap', { orig: c + d, cand: sw }),
            });
            i++;
          }
        }
      }
    }
    return out;
  }
}
