/**
 * Family 0: 的/地/得 by part-of-speech context (jieba POS tags over the language-model segmentation).
 *  adverbial + 的 + verb            -> 地   (高兴的跳 -> 高兴地跳)
 *  verb + 的 + degree word / AABB   -> 得   (跑的非常快 -> 跑得非常快, 打扫的干干净净)
 *  adjective + 得 + verb            -> 地   (严重得危害 -> 严重地危害)
 *  adjective + 得 + noun            -> 的   (幸福得事 -> 幸福的事)
 * and, where both language models prefer the other particle by a margin (checkDeByLm):
 *  manner word + 得 + verb phrase   -> 地   (默默得做到 -> 默默地做到, 好好得带你去)
 *  adjective / pronoun / place + 得 + noun closing the phrase -> 的   (我们得剧本。 -> 我们的剧本。)
 */
import { contextGain, type LanguageModel } from '../lm';
import type { JiebaDict } from '../jieba';

export interface UsageFinding { pos: number; orig: string; cand: string; reason: string }

const DEGREE = new Set(['非常', '十分', '特别', '很', '极其', '格外', '相当', '太']);
/** a degree word, alone or fused with its adjective in the segmentation (很 / 很快 / 非常好) */
const startsWithDegree = (w: string | undefined) => !!w && [...DEGREE].some((d) => w === d || (w.startsWith(d) && w.length <= d.length + 2));
const NOMINALISING = new Set('说讲写做想吃买卖用穿看听学要拿送画唱做'.split(''));
/** reduplicated forms that are (almost) always adverbials before a verb */
const REDUP_ADVERBIAL = new Set('慢慢 深深 渐渐 好好 紧紧 轻轻 悄悄 静静 默默 狠狠 偷偷 匆匆 暗暗 早早 细细 静悄悄 慢慢悠悠 高高兴兴 认认真真 仔仔细细 清清楚楚 明明白白 快快乐乐 开开心心 安安静静 小心翼翼'.split(' '));
/** adjectives that are typical manner adverbials (的 -> 地 only when a verb phrase follows) */
const MANNER = new Set('认真 仔细 努力 高兴 开心 热情 积极 耐心 大声 小心 轻易 主动 迅速 飞快 安静 拼命 用力 细心 快速 顺利 彻底 不断 逐渐 充分 严格 热烈 紧张 愉快 勇敢 坚决 默默 悄悄 轻轻 大胆 自觉 激动 疯狂 深刻 广泛 明显 用功'.split(' '));
/** feelings and states whose 得 introduces a complement of degree, not a manner (高兴得跳了起来) */
const FEELING = new Set('高兴 激动 兴奋 感动 紧张 害怕 难过 伤心 着急 开心 快乐 痛苦 生气 气愤 惊讶 吃惊 委屈 疲惫 累 饿 冷 热 忙 急 气 痛 疼 笑 哭 吓 乐 困 渴 羞 慌'.split(' '));
/** words that open such a complement */
const COMPLEMENT_OPENERS = new Set(['要', '不', '不住', '直', '连', '差点', '说不出', '睡不着', '几乎']);
const ASPECT = new Set(['了', '着', '过']);
const AGAIN_BEFORE = new Set(['下次', '明天', '以后', '改天', '回头', '待会', '等会', '稍后', '过几天', '下回', '将来']);
const isHan = (c: number) => c >= 0x4e00 && c <= 0x9fff;
const redup = (w: string) => (w.length === 2 && w[0] === w[1]) || (w.length === 4 && w[0] === w[1] && w[2] === w[3]) || (w.length === 3 && w[1] === w[2]);

export function checkUsage(lm: LanguageModel, dict: JiebaDict, s: string, blocked: Uint8Array, lm2: LanguageModel | null = null): UsageFinding[] {
  const out: UsageFinding[] = [];
  const pos = (w: string | undefined): string => {
    if (!w) return '';
    const p = dict.pos.get(w);
    if (p) return p;
    if (w.length > 1 && /[了着过]$/.test(w)) return pos(w.slice(0, -1));
    return '';
  };
  let i = 0;
  while (i < s.length) {
    if (!isHan(s.charCodeAt(i))) { i++; continue; }
    let j = i;
    while (j < s.length && isHan(s.charCodeAt(j))) j++;
    const words = lm.segment(s.slice(i, j));
    let off = i;
    const starts: number[] = [];
    for (const w of words) { starts.push(off); off += w.length; }
    for (let k = 1; k + 1 < words.length; k++) {
      const w = words[k];
      if (w !== '的' && w !== '得' && w !== '在') continue;
      const at = starts[k];
      if (blocked[at]) continue;
      const P = words[k - 1], N = words[k + 1], NN = words[k + 2];
      const pp = pos(P), pn = pos(N), pnn = pos(NN);
      if (w === '在') {
        if (AGAIN_BEFORE.has(P) && pn.startsWith('v') && !pn.startsWith('vn')) out.push({ pos: at, orig: '在', cand: '再', reason: `“${P}”之后表示重复或继续的动作，用“再”` });
        continue;
      }
      const adverbial = (pp === 'a' || pp === 'ad' || pp === 'z' || pp === 'b' || (redup(P) && !pp.startsWith('n'))) && P.length >= 2;
      if (w === '的') {
        // a verb phrase follows: a one-character verb with anything after it, or a longer verb not used as a modifier
        // (an aspect particle after it, or fused with it, marks a verb too: 开心的笑了)
        const verbFollows = (N.length >= 2 && ASPECT.has(N[N.length - 1])) || NN !== undefined && NN !== '的' && (ASPECT.has(NN) || (!pnn.startsWith('u') && !pnn.startsWith('y') && !pnn.startsWith('c')
          && (N.length === 1 || (!pnn.startsWith('n') && !pnn.startsWith('p')))));
        // a verb closing the clause after 的 is usually a noun (带着深深的嫉妒！)
        if (((REDUP_ADVERBIAL.has(P) && NN !== undefined) || (MANNER.has(P) && verbFollows)) && pn.startsWith('v') && !pn.startsWith('vn')) {
          out.push({ pos: at, orig: '的', cand: '地', reason: `“${P}”修饰动词“${N}”，状语后用“地”` });
        } else if (pp.startsWith('v') && !NOMINALISING.has(P) && (startsWithDegree(N) || (redup(N) && N.length >= 3 && pn === 'z'))) {
          out.push({ pos: at, orig: '的', cand: '得', reason: `动词“${P}”后接补语“${N}”，补语前用“得”` });
        }
      } else {
        // after a feeling or state (高兴得跳起来, 累得走不动) 得 opens a complement of degree
        if (adverbial && !FEELING.has(P) && pn.startsWith('v') && !pn.startsWith('vn') && !DEGREE.has(N) && !COMPLEMENT_OPENERS.has(N)) {
          out.push({ pos: at, orig: '得', cand: '地', reason: `“${P}”修饰动词“${N}”，状语后用“地”` });
        } else if ((pp === 'a' || pp === 'z') && P.length >= 2 && pn === 'n' && N.length >= 1 && (NN === undefined || (NN.length === 1 && PHRASE_END.test(NN)))) {
          out.push({ pos: at, orig: '得', cand: '的', reason: `“${P}”修饰名词“${N}”，定语后用“的”` });
        } else if (lm2) {
          const f = checkDeByLm([lm, lm2], s, at, P, pp, N, pn, NN);
          if (f) out.push(f);
        }
      }
    }
    i = j;
  }
  const flagged = new Set(out.map((u) => u.pos));
  for (const u of checkDddChars(dict, s, blocked)) if (!flagged.has(u.pos)) out.push(u);
  out.push(...checkInterjectionA(dict, s, blocked));
  return out.sort((x, y) => x.pos - y.pos);
}

const A_CLOSERS = new Set('，。！？；,.!?;」』”’…～~'.split(''));

/**
 * 阿 closing a clause (很好阿！, 听不懂阿」) is the interjection 啊: 阿 is a prefix (阿姨, 阿Q) or a
 * transliteration character and ends no phrase, except at the end of words such as 刚正不阿 and 东阿
 * (jieba entries seen at least 5 times, or idioms).
 */
function checkInterjectionA(dict: JiebaDict, s: string, blocked: Uint8Array): UsageFinding[] {
  const out: UsageFinding[] = [];
  for (let i = s.indexOf('阿', 1); i >= 0; i = s.indexOf('阿', i + 1)) {
    if (blocked[i] || !isHan(s.charCodeAt(i - 1)) || !A_CLOSERS.has(s[i + 1] ?? '')) continue;
    let inWord = false;
    // jieba's rarest entries (美阿, 口阿 at count 3) are noise; idioms count whatever their count
    for (let L = 2; L <= 4 && L <= i + 1; L++) {
      const w = s.slice(i + 1 - L, i + 1);
      if ((dict.freq.get(w) ?? 0) >= 5 || dict.pos.get(w) === 'i') inWord = true;
    }
    if (!inWord) out.push({ pos: i, orig: '阿', cand: '啊', reason: '句末语气词用“啊”（“阿”用作前缀或译音）' });
  }
  return out;
}

/** what opens a complement after 得 (热得我受不了, 好得很, 忙得团团转), never a manner's verb */
const COMPLEMENT_START = /^(?:不|很|非常|十分|特别|要|直|连|差点|说不|睡不|几乎|都|没|好|太|更|真|这么|那么|多|少|快|慢|一|满|发|让|令|使|叫|我|你|他|她|它|人)/;
const PRONOUN_OWNER = /^(?:[我你他她它咱]们?|大家|自己|您)$/;
/** gain (nats, the smaller of the two LMs) the other particle must have over 得 */
const DE_LM_GAIN = 2;

/**
 * 得 for 地 or 的 where the part of speech alone is too weak a clue (jieba tags 用功 and 危害 as nouns,
 * the segmentation fuses 听他): a manner word before and no complement after (地), or a modifier
 * before and a noun closing the phrase after (的); in both cases the two language models must agree.
 * Natives seldom write 得 for the other two (learners do), so the rule sees little correct text that
 * looks like this, and the models' margin keeps 得 as a verb (媳妇得癌症) and in complements.
 */
function checkDeByLm(lms: LanguageModel[], s: string, at: number,
  P: string, pp: string, N: string, pn: string, NN: string | undefined): UsageFinding | null {
  const manner = (/^(?:a|ad|d|z)$/.test(pp) || redup(P) || MANNER.has(P)) && P.length >= 2 && !FEELING.has(P);
  if (manner && !COMPLEMENT_START.test(N) && contextGain(lms, s, at, at + 1, '地') >= DE_LM_GAIN) {
    return { pos: at, orig: '得', cand: '地', reason: `“${P}”修饰后面的动作，状语后用“地”` };
  }
  const modifier = /^(?:a|ad|an|z|b|d|ns|nt)$/.test(pp) || PRONOUN_OWNER.test(P) || /^[好难][\u4e00-\u9fff]$/.test(P);
  const closes = NN === undefined || PHRASE_END.test(NN);
  if (modifier && pn.startsWith('n') && pn !== 'nr' && closes && contextGain(lms, s, at, at + 1, '的') >= DE_LM_GAIN) {
    return { pos: at, orig: '得', cand: '的', reason: `“${P}”修饰名词“${N}”，定语后用“的”` };
  }
  return null;
}

/** degree words that open a complement after 得 (or an adjective phrase) */
const DEGREE_CHARS = ['非常', '十分', '特别', '相当', '比较', '越来越', '很', '挺', '太', '真', '极', '更'];
const PUNCT = '，。！？；：、,.!?;:）)」』”…\\s';
/** what may close a clause after a complement */
const CLAUSE_END = new RegExp(`^(?:$|[${PUNCT}]|[了啊呀吗呢吧啦哦喔嘛])`);
/** what may follow the noun that closes a noun phrase */
const PHRASE_END = new RegExp(`^(?:$|[${PUNCT}]|[是和与也都])`);
/** verbs jieba tags otherwise that take a 得 complement */
const COMPLEMENT_VERBS = new Set('过长活'.split(''));

/**
 * 的/地/得 from the characters around them, independent of the segmentation (which often fuses the
 * particle with a neighbour: 玩的, 听他):
 *   one-character verb + 的 + degree word + adjective, or + one-character adjective, closing the clause -> 得
 *     (玩的很开心。 跑的快。; not after verbs whose 的 makes a noun phrase: 说的很好 = what was said)
 *   reduplicated AABB adverbial + 的/得 + verb -> 地   (开开心心得回家, 平平安安的过)
 *   two-character adjective + 得 + two-character noun closing the phrase -> 的   (漂亮得姑娘。)
 */
function checkDddChars(dict: JiebaDict, s: string, blocked: Uint8Array): UsageFinding[] {
  const out: UsageFinding[] = [];
  const tag = (w: string) => dict.pos.get(w) ?? '';
  const isWord = (w: string) => dict.freq.has(w);
  for (let k = 1; k + 1 < s.length; k++) {
    const ch = s[k];
    if ((ch !== '的' && ch !== '得') || blocked[k]) continue;
    const prev = s[k - 1];
    // the particle inside a word (目的, 的确, 难得, 得到) is not a particle
    if (isWord(prev + ch) || isWord(s.slice(k, k + 2))) continue;
    const after = s.slice(k + 1);
    if (ch === '的' && !NOMINALISING.has(prev) && (tag(prev) === 'v' || COMPLEMENT_VERBS.has(prev)) && isHan(s.charCodeAt(k - 1))
      && !(k >= 2 && isWord(s.slice(k - 2, k)) && !tag(s.slice(k - 2, k)).startsWith('v'))) {
      const d = DEGREE_CHARS.find((x) => after.startsWith(x));
      let comp = '';
      if (d) {
        for (const L of [2, 1]) {
          const a = after.slice(d.length, d.length + L);
          const rest = after.slice(d.length + L);
          // the complement may itself modify a noun (玩得很开心的样子)
          if (a.length === L && (tag(a) === 'a' || (L === 2 && tag(a) === 'v' && tag(d + a) !== 'n')) && (CLAUSE_END.test(rest) || rest[0] === '的')) { comp = d + a; break; }
        }
      } else if (tag(after[0]) === 'a' && CLAUSE_END.test(after.slice(1))) comp = after[0];
      if (comp) out.push({ pos: k, orig: '的', cand: '得', reason: `动词“${prev}”后接补语“${comp}”，补语前用“得”` });
      continue;
    }
    if (k >= 4 && s[k - 4] === s[k - 3] && s[k - 2] === s[k - 1] && s[k - 4] !== s[k - 2] && isHan(s.charCodeAt(k - 4))) {
      const v1 = after[0];
      const v2 = after.slice(0, 2);
      const vl = v2.length === 2 && isWord(v2) ? 2 : 1;
      const verb = (vl === 2 ? tag(v2) === 'v' : tag(v1) === 'v') && !DEGREE.has(v1) && !DEGREE.has(v2)
        && !CLAUSE_END.test(after.slice(vl));
      // reduplicated verbs (吃吃喝喝的满足) modify nouns; reduplicated feelings and qualities are manners
      const ab = s[k - 4] + s[k - 2];
      const manner = tag(ab) !== 'v' || FEELING.has(ab);
      if (verb && manner) out.push({ pos: k, orig: ch, cand: '地', reason: `“${s.slice(k - 4, k)}”修饰动词，状语后用“地”` });
      continue;
    }
    if (ch === '得' && k >= 2) {
      const adj = s.slice(k - 2, k);
      const noun = after.slice(0, 2);
      // the noun closes the phrase (jieba tags many verbs as nouns: 严重得危害韩国 is a manner, 地)
      if (tag(adj) === 'a' && noun.length === 2 && tag(noun) === 'n' && !isWord(s.slice(k - 1, k + 1)) && PHRASE_END.test(after.slice(2))) {
        out.push({ pos: k, orig: '得', cand: '的', reason: `“${adj}”修饰名词“${noun}”，定语后用“的”` });
      }
    }
  }
  return out;
}
