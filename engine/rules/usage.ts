/**
 * Family 0: 的/地/得 by part-of-speech context (jieba POS tags over the language-model segmentation).
 *  adverbial + 的 + verb            -> 地   (高兴的跳 -> 高兴地跳)
 *  verb + 的 + degree word / AABB   -> 得   (跑的非常快 -> 跑得非常快, 打扫的干干净净)
 *  adjective + 得 + verb            -> 地   (严重得危害 -> 严重地危害)
 *  adjective + 得 + noun            -> 的   (幸福得事 -> 幸福的事)
 * and, where both language models prefer the other particle by a margin (checkDeByLm):
 *  manner word + 得 + verb phrase   -> 地   (默默得做到 -> 默默地做到, 好好得带你去)
 *  adjective / pronoun / place + 得 + noun closing the phrase -> 的   (我们得剧本。 -> 我们的剧本。)
 * and from the phrase around the particle (checkDddPhrases), which overrules the rules above where it decides:
 *  verb + 的 + complement closing the clause -> 得   (发挥的十分出色, 把工作做的更细, 被刮的呼呼作响)
 *  feeling + 的 + complement of result -> 得          (激动的说不出话来, 累的要命)
 *  manner word + 的 + a verb phrase beyond doubt -> 地 (耐心的为老人讲解, 慢慢的抬起头, 应密切的观察)
 *  quality + 地 + noun closing the phrase -> 的       (珍贵地历史照片, where both language models agree)
 *  and it keeps 的 where a reading of the rules above would be wrong (我知道的很少, 这种认真的做法)
 */
import { note, type Note } from '../messages';
import { contextGain, type LanguageModel } from '../lm';
import type { JiebaDict } from '../jieba';

export interface UsageFinding {
  pos: number;
  orig: string;
  cand: string;
  /** why, as a catalogue note (engine/messages.ts) */
  reason: Note;
}

const DEGREE = new Set(['非常', '十分', '特别', '很', '极其', '格外', '相当', '太']);
/** a degree word, alone or fused with its adjective in the segmentation (很 / 很快 / 非常好) */
const startsWithDegree = (w: string | undefined) =>
  !!w && [...DEGREE].some((d) => w === d || (w.startsWith(d) && w.length <= d.length + 2));
const NOMINALISING = new Set('说讲写做想吃买卖用穿看听学要拿送画唱做'.split(''));
/** reduplicated forms that are (almost) always adverbials before a verb */
const REDUP_ADVERBIAL = new Set(
  '慢慢 深深 渐渐 好好 紧紧 轻轻 悄悄 静静 默默 狠狠 偷偷 匆匆 暗暗 早早 细细 静悄悄 慢慢悠悠 高高兴兴 认认真真 仔仔细细 清清楚楚 明明白白 快快乐乐 开开心心 安安静静 小心翼翼'.split(
    ' ',
  ),
);
/** adjectives that are typical manner adverbials (的 -> 地 only when a verb phrase follows) */
const MANNER = new Set(
  (
    '认真 仔细 努力 高兴 开心 热情 积极 耐心 大声 小心 轻易 主动 迅速 飞快 安静 拼命 用力 细心 快速 顺利 彻底 不断 逐渐 充分 严格 热烈 ' +
    '紧张 愉快 勇敢 坚决 默默 悄悄 轻轻 大胆 自觉 激动 疯狂 深刻 广泛 明显 用功'
  ).split(' '),
);
/** feelings and states whose 得 introduces a complement of degree, not a manner (高兴得跳了起来) */
const FEELING = new Set(
  '高兴 激动 兴奋 感动 紧张 害怕 难过 伤心 着急 开心 快乐 痛苦 生气 气愤 惊讶 吃惊 委屈 疲惫 累 饿 冷 热 忙 急 气 痛 疼 笑 哭 吓 乐 困 渴 羞 慌'.split(
    ' ',
  ),
);
/** words that open such a complement */
const COMPLEMENT_OPENERS = new Set([
  '要',
  '不',
  '不住',
  '直',
  '连',
  '差点',
  '说不出',
  '睡不着',
  '几乎',
  '能',
  '能够',
  '可以',
]);
const ASPECT = new Set(['了', '着', '过']);
const AGAIN_BEFORE = new Set([
  // after a first step: 确认合格后在安排付款
  '后',
  '之后',
  '然后',
  '随后',
  '下次',
  '明天',
  '以后',
  '改天',
  '回头',
  '待会',
  '等会',
  '稍后',
  '过几天',
  '下回',
  '将来',
]);
const isHan = (c: number) => c >= 0x4e00 && c <= 0x9fff;
const redup = (w: string) =>
  (w.length === 2 && w[0] === w[1]) ||
  (w.length === 4 && w[0] === w[1] && w[2] === w[3]) ||
  (w.length === 3 && w[1] === w[2]);

export function checkUsage(
  lm: LanguageModel,
  dict: JiebaDict,
  s: string,
  blocked: Uint8Array,
  lm2: LanguageModel | null = null,
): UsageFinding[] {
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
    if (!isHan(s.charCodeAt(i))) {
      i++;
      continue;
    }
    let j = i;
    while (j < s.length && isHan(s.charCodeAt(j))) j++;
    const words = lm.segment(s.slice(i, j));
    let off = i;
    const starts: number[] = [];
    for (const w of words) {
      starts.push(off);
      off += w.length;
    }
    for (let k = 1; k + 1 < words.length; k++) {
      const w = words[k];
      if (w !== '的' && w !== '得' && w !== '在') continue;
      const at = starts[k];
      if (blocked[at]) continue;
      const P = words[k - 1],
        N = words[k + 1],
        NN = words[k + 2];
      const pp = pos(P),
        pn = pos(N),
        pnn = pos(NN);
      if (w === '在') {
        if (AGAIN_BEFORE.has(P) && pn.startsWith('v') && !pn.startsWith('vn'))
          out.push({ pos: at, orig: '在', cand: '再', reason: note('reason.zai', { P }) });
        continue;
      }
      const adverbial =
        (pp === 'a' || pp === 'ad' || pp === 'z' || pp === 'b' || (redup(P) && !pp.startsWith('n'))) && P.length >= 2;
      if (w === '的') {
        // a verb phrase follows: a one-character verb with anything after it, or a longer verb not used as a modifier
        // (an aspect particle after it, or fused with it, marks a verb too: 开心的笑了)
        const verbFollows =
          (N.length >= 2 && ASPECT.has(N[N.length - 1])) ||
          (NN !== undefined &&
            NN !== '的' &&
            (ASPECT.has(NN) ||
              (!pnn.startsWith('u') &&
                !pnn.startsWith('y') &&
                !pnn.startsWith('c') &&
                (N.length === 1 || (!pnn.startsWith('n') && !pnn.startsWith('p'))))));
        // a verb closing the clause after 的 is usually a noun (带着深深的嫉妒！)
        if (
          ((REDUP_ADVERBIAL.has(P) && NN !== undefined) || (MANNER.has(P) && verbFollows)) &&
          pn.startsWith('v') &&
          !pn.startsWith('vn')
        ) {
          out.push({ pos: at, orig: '的', cand: '地', reason: note('reason.adv-verb', { P, N }) });
        } else if (
          pp.startsWith('v') &&
          !NOMINALISING.has(P) &&
          (startsWithDegree(N) || (redup(N) && N.length >= 3 && pn === 'z'))
        ) {
          out.push({ pos: at, orig: '的', cand: '得', reason: note('reason.complement', { P, N }) });
        }
      } else {
        // after a feeling or state (高兴得跳起来, 累得走不动) 得 opens a complement of degree
        if (
          adverbial &&
          !FEELING.has(P) &&
          pn.startsWith('v') &&
          !pn.startsWith('vn') &&
          !DEGREE.has(N) &&
          !COMPLEMENT_OPENERS.has(N)
        ) {
          out.push({ pos: at, orig: '得', cand: '地', reason: note('reason.adv-verb', { P, N }) });
        } else if (
          (pp === 'a' || pp === 'z') &&
          P.length >= 2 &&
          pn === 'n' &&
          N.length >= 1 &&
          (NN === undefined || (NN.length === 1 && PHRASE_END.test(NN)))
        ) {
          out.push({ pos: at, orig: '得', cand: '的', reason: note('reason.attr-noun', { P, N }) });
        } else if (lm2) {
          const f = checkDeByLm([lm, lm2], s, at, P, pp, N, pn, NN);
          if (f) out.push(f);
        }
      }
    }
    i = j;
  }
  // the phrase rules read a wider context than the word rules above: where they decide, their reading stands,
  // whether it changes the particle or keeps it (a finding whose candidate is the particle itself)
  const phrase = lm2 ? checkDddPhrases(lm, [lm, lm2], dict, s, blocked) : [];
  const decided = new Set(phrase.map((u) => u.pos));
  const kept = out.filter((u) => !decided.has(u.pos));
  out.length = 0;
  out.push(...phrase.filter((u) => u.cand !== u.orig), ...kept);
  const flagged = new Set([...out.map((u) => u.pos), ...decided]);
  for (const u of checkDddChars(dict, s, blocked)) if (!flagged.has(u.pos)) out.push(u);
  out.push(...checkInterjectionA(dict, s, blocked));
  out.push(...checkWhichever(s, blocked), ...checkBothAnd(s, blocked));
  return out.sort((x, y) => x.pos - y.pos);
}

const CLAUSE_MARK = /[，。！？；,.!?;\n]/;
/** measure words and place words after 哪 in a generalising clause (无论哪种, 不管哪里) */
const WHICH_NEXT = '种个些样里儿位家方类天条项件次';
/** question words: with one of them the clause already asks, and 那 is the demonstrative (无论那个人是谁) */
const QUESTION_WORDS = /谁|什么|怎么|怎样|如何|多少|几|哪|任何/;

/**
 * 那 for 哪 after 无论 / 不管 / 不论 in the same clause (无论遇到那种情况，都……): the concession needs a
 * question word, and 那 + a measure word is the only one there, so it can only be 哪.
 */
function checkWhichever(s: string, blocked: Uint8Array): UsageFinding[] {
  const out: UsageFinding[] = [];
  for (let i = s.indexOf('那'); i >= 0; i = s.indexOf('那', i + 1)) {
    if (blocked[i] || !WHICH_NEXT.includes(s[i + 1] ?? '')) continue;
    let a = i;
    while (a > 0 && !CLAUSE_MARK.test(s[a - 1])) a--;
    let b = i + 1;
    while (b < s.length && !CLAUSE_MARK.test(s[b])) b++;
    const before = s.slice(a, i);
    const m = /无论|不管|不论/.exec(before);
    if (!m || QUESTION_WORDS.test(s.slice(a + m.index + 2, i) + s.slice(i + 1, b))) continue;
    // a concession closing its phrase (生死不论的那种) or over alternatives (无论是那个人还是……) asks nothing
    // nor one whose consequence (都, 也) has already come: 无论在任何情况下都不放弃的那个态度
    const between = before.slice(m.index + 2);
    if (/^[的了]/.test(between) || /[都也总]/.test(between) || /还是|或/.test(s.slice(a, b))) continue;
    out.push({ pos: i, orig: '那', cand: '哪', reason: note('reason.na', { P: m[0], N: '哪' + s[i + 1] }) });
  }
  return out;
}

/** the verbs 既 pairs with 也/又/还/且 + the same verb (既是……也是……, 既有……又有……) */
const BOTH_VERBS = '是有要能会可在为';

/**
 * 即 for 既 in the correlative 既……也/又/还/且……, where the same verb follows both (她即是我的老师，也是我的朋友):
 * 即是 alone means "is exactly" and takes no second part.
 */
function checkBothAnd(s: string, blocked: Uint8Array): UsageFinding[] {
  const out: UsageFinding[] = [];
  for (let i = s.indexOf('即'); i >= 0; i = s.indexOf('即', i + 1)) {
    const verb = s[i + 1] ?? '';
    if (blocked[i] || !BOTH_VERBS.includes(verb) || /[立随旋当]/.test(s[i - 1] ?? '')) continue;
    let b = i + 2;
    while (b < s.length && !/[。！？!?\n]/.test(s[b])) b++;
    const rest = s.slice(i + 2, b);
    const k = rest.search(new RegExp(`[，,；;][^，,；;]{0,6}?[也又还且]${verb}`));
    if (k < 0) continue;
    out.push({ pos: i, orig: '即', cand: '既', reason: note('reason.ji', { P: `既${verb}……也/又${verb}……` }) });
  }
  return out;
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
    if (!inWord) out.push({ pos: i, orig: '阿', cand: '啊', reason: note('reason.a') });
  }
  return out;
}

/** what opens a complement after 得 (热得我受不了, 好得很, 忙得团团转), never a manner's verb */
const COMPLEMENT_START =
  /^(?:不|很|非常|十分|特别|要|直|连|差点|说不|睡不|几乎|都|没|好|太|更|真|这么|那么|多|少|快|慢|一|满|发|让|令|使|叫|我|你|他|她|它|人|能|可以)/;
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
function checkDeByLm(
  lms: LanguageModel[],
  s: string,
  at: number,
  P: string,
  pp: string,
  N: string,
  pn: string,
  NN: string | undefined,
): UsageFinding | null {
  const manner = (/^(?:a|ad|d|z)$/.test(pp) || redup(P) || MANNER.has(P)) && P.length >= 2 && !FEELING.has(P);
  if (manner && !COMPLEMENT_START.test(N) && contextGain(lms, s, at, at + 1, '地') >= DE_LM_GAIN) {
    return { pos: at, orig: '得', cand: '地', reason: note('reason.adv-after', { P }) };
  }
  const modifier = /^(?:a|ad|an|z|b|d|ns|nt)$/.test(pp) || PRONOUN_OWNER.test(P) || /^[好难][\u4e00-\u9fff]$/.test(P);
  const closes = NN === undefined || PHRASE_END.test(NN);
  if (modifier && pn.startsWith('n') && pn !== 'nr' && closes && contextGain(lms, s, at, at + 1, '的') >= DE_LM_GAIN) {
    return { pos: at, orig: '得', cand: '的', reason: note('reason.attr-noun', { P, N }) };
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
    if (
      ch === '的' &&
      !NOMINALISING.has(prev) &&
      (tag(prev) === 'v' || COMPLEMENT_VERBS.has(prev)) &&
      isHan(s.charCodeAt(k - 1)) &&
      !(k >= 2 && isWord(s.slice(k - 2, k)) && !tag(s.slice(k - 2, k)).startsWith('v'))
    ) {
      const d = DEGREE_CHARS.find((x) => after.startsWith(x));
      let comp = '';
      if (d) {
        for (const L of [2, 1]) {
          const a = after.slice(d.length, d.length + L);
          const rest = after.slice(d.length + L);
          // the complement may itself modify a noun (玩得很开心的样子)
          if (
            a.length === L &&
            (tag(a) === 'a' || (L === 2 && tag(a) === 'v' && tag(d + a) !== 'n')) &&
            (CLAUSE_END.test(rest) || rest[0] === '的')
          ) {
            comp = d + a;
            break;
          }
        }
      } else if (tag(after[0]) === 'a' && CLAUSE_END.test(after.slice(1))) comp = after[0];
      if (comp) out.push({ pos: k, orig: '的', cand: '得', reason: note('reason.complement', { P: prev, N: comp }) });
      continue;
    }
    if (
      k >= 4 &&
      s[k - 4] === s[k - 3] &&
      s[k - 2] === s[k - 1] &&
      s[k - 4] !== s[k - 2] &&
      isHan(s.charCodeAt(k - 4))
    ) {
      const v1 = after[0];
      const v2 = after.slice(0, 2);
      const vl = v2.length === 2 && isWord(v2) ? 2 : 1;
      const verb =
        (vl === 2 ? tag(v2) === 'v' : tag(v1) === 'v') &&
        !DEGREE.has(v1) &&
        !DEGREE.has(v2) &&
        !CLAUSE_END.test(after.slice(vl));
      // reduplicated verbs (吃吃喝喝的满足) modify nouns; reduplicated feelings and qualities are manners
      const ab = s[k - 4] + s[k - 2];
      const manner = tag(ab) !== 'v' || FEELING.has(ab);
      if (verb && manner)
        out.push({ pos: k, orig: ch, cand: '地', reason: note('reason.adv-any', { P: s.slice(k - 4, k) }) });
      continue;
    }
    if (ch === '得' && k >= 2) {
      const adj = s.slice(k - 2, k);
      const noun = after.slice(0, 2);
      // the noun closes the phrase (jieba tags many verbs as nouns: 严重得危害韩国 is a manner, 地)
      if (
        tag(adj) === 'a' &&
        noun.length === 2 &&
        tag(noun) === 'n' &&
        !isWord(s.slice(k - 1, k + 1)) &&
        PHRASE_END.test(after.slice(2))
      ) {
        out.push({ pos: k, orig: '得', cand: '的', reason: note('reason.attr-noun', { P: adj, N: noun }) });
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// 的/地/得 from the phrase around the particle: the words on each side are segmented apart from it (the run's
// segmentation fuses it with a neighbour: 静静的, 做的), and each rule asks for evidence that only one reading
// of the particle allows. Natives write 的 for 地 and 得 most often; where the sentence could also read the
// 的 as nominalising (我买的很便宜 = what I bought) or as attributive (认真的学习态度), the particle stays.

/** manner words that stand before a verb with 地 (besides jieba's adverbial adjectives, tag ad) */
const ADVERBIAL_WORDS = new Set(
  (
    '尽快 尽量 尽力 竭力 极力 全力 大力 奋力 逐步 逐渐 渐渐 日益 日渐 稳步 不断 不停 一再 再三 ' +
    '立刻 马上 赶紧 赶快 连忙 急忙 匆忙 匆匆 缓慢 缓缓 飞快 轻易 随意 随便 肆意 尽情 悄悄 默默 暗暗 偷偷 轻轻 ' +
    '静静 紧紧 深深 狠狠 好好 早早 远远 慢慢 独自 亲自 自动 自发 自觉 主动 耐心 细心 虚心 专心 热心 热情 小心 ' +
    '大胆 大声 轻声 低声 高声 激动 兴奋 开心 愉快 高兴 痛快 谨慎 慎重 稳妥 妥善 安静 平静 冷静 从容 ' +
    '迅速 快速 飞速 急速 顺利 密切 正确 准确 合理 有效 及时 全面 深入 广泛 系统 科学 严格 严肃 认真 ' +
    '仔细 详细 反复 一一 积极 努力 拼命 用力 猛烈 热烈 坚决 坚定 勇敢 顽强 彻底 充分 切实 扎实 严重 明显 ' +
    '清楚 清晰 简单 简要 具体 深刻 集中 统一 分别 单独 公开 悄然 毅然 断然 欣然 默然 茫然 依次 逐一 逐个'
  ).split(' '),
);
/** prepositions that open an adverbial phrase before the verb (耐心地为老人讲解, 主动地向社会公开) */
const PREPOSITIONS = new Set(
  (
    '为 向 朝 往 把 将 从 给 替 跟 和 与 同 对 被 让 由 以 用 按 沿 顺 冲 经 就 ' +
    '通过 根据 按照 依照 沿着 顺着 随着 朝着 向着 对着 冲着 为了'
  ).split(' '),
);
/** prepositions that also join nouns (主动的和被动的): the clause after them must end in a verb */
const CONJ_PREPOSITIONS = new Set(['和', '与', '同', '跟']);
/** auxiliaries and adverbs that open a predicate: what follows them is a verb phrase, not a noun phrase */
const PREDICATE_OPENERS = new Set(
  (
    '要 应 应该 应当 会 能 能够 可以 可 请 必须 务必 须 需 将 将要 正在 正 ' +
    '都 也 就 还 又 才 便 已 已经 仍 仍然 一直 始终 一定 别 不要 不能 不会 不可 曾 曾经 却 并 ' +
    '而 再 要求 希望 开始 继续 坚持 学会 懂得 善于 敢于 勇于'
  ).split(' '),
);
/** verbs whose object is a noun phrase (受到热烈的欢迎, 经过仔细的检查): the 的 after them is attributive */
const NOUN_OBJECT_VERBS = new Set(
  (
    '受到 得到 遭到 获得 赢得 博得 给予 给 加以 予以 进行 作出 做出 引起 需要 ' +
    '表示 表达 致以 报以 经过 通过 经 有 是 作 做 为 成为'
  ).split(' '),
);
/** verbs whose 的 makes a noun phrase of the thing made, said or handed (我买的很便宜 = what I bought) */
const THING_VERBS = new Set(
  (
    '说 讲 写 做 想 吃 喝 买 卖 用 穿 看 听 学 要 拿 送 画 唱 种 养 拍 编 寄 带 给 借 租 ' +
    '生产 制造 制作 设计 开发 推荐 提供 购买 采购 出售 销售 发表 出版 拍摄 种植 养殖 研制 发明 编写 创作 翻译 ' +
    '介绍 讲述 描述 报道 收集 准备好 选择 挑选 喜欢 知道 了解 认识 理解 掌握 学习 提出 说出 写出'
  ).split(' '),
);
/** verbs of being and having take no complement (有的 = some, 是的 = yes) */
const STATIVE_VERBS = new Set('是 有 在 像 姓 叫 为 成 属于 等于 作为 成为 具有 拥有 没有 存在 值得 显得'.split(' '));
/** verbs after 的 that make the phrase before it a subject (正确的是, 不正确的有, 独一无二的存在) */
const COPULAS = new Set('是 有 在于 属于 就是 便是 乃是 存在 即 系'.split(' '));
/** a direction alone after the particle is a potential complement (高兴得起来), not a manner's verb */
const DIRECTION_ONLY = new Set('起 起来 下去 出来 过来 上来 下来 进来 回来 出去 过去 上去 进去 回去'.split(' '));
/** things made or said, which cannot be who makes them: before the verb they are its topic */
const THEMES = '工作 任务 文章 作业 报告 材料 事情 饭菜 节目 字 活儿'.split(' ');
/** degree words that open a complement (跑得很快, 做得更细更实); longest first */
const COMP_DEGREES = [
  '越来越',
  '非常',
  '十分',
  '特别',
  '相当',
  '比较',
  '极其',
  '极为',
  '格外',
  '异常',
  '颇为',
  '更加',
  '那么',
  '这么',
  '如此',
  '过于',
  '太过',
  '有些',
  '有点',
  '很',
  '挺',
  '太',
  '真',
  '更',
  '极',
  '蛮',
  '好',
];
/** a degree word and a quality that modify a noun after them (非常重要的问题) */
const DEGREE_QUALITY_DE = new RegExp(`^(?:${COMP_DEGREES.join('|')})[\u4e00-\u9fff]{1,2}的`);
/** complements of extreme degree (累得要命, 好得很, 闷得慌), whatever stands before them */
const EXTREME = /^(?:要命|要死|不得了|不行|够呛|慌|厉害|很|出奇|发慌|发抖|发麻|发烫|发疼|发酸|发晕|发白|发紫|发红)$/;
/** what closes a clause after a complement */
const CLAUSE_CLOSE = /^(?:$|[，。！？；：、,.!?;:）)」』”…]|[了啊呀吗呢吧啦哦嘛](?:$|[，。！？；：、,.!?;:）)」』”…]))/;
/** the end of a clause (for the rest of the clause after a particle) */
const CLAUSE_BREAK = /[，。！？；：、,.!?;:（）()「」『』“”…]/;
/** directional and result morphemes closing a verb (抬起, 坐在, 走向): it is a predicate, not a noun */
const DIRECTIONAL = new Set('起在到向进回上下开住完掉过'.split(''));
/** objects no compound noun ends in (认真地对待这件事, 仔细地检查一下): a verb takes them */
const OBJECT_START = /^(?:这|那|此|该|本|其|每|各|自己|他|她|它|我|你|您|大家|一下|一遍|一番)/;
/** feelings and states whose 得 opens a complement of result (激动得说不出话来, 紧张得连话都说不利索) */
const FEELING_COMP = new Set([...FEELING].filter((w) => w !== '冷' && w !== '热'));
/** a negative potential complement (说不出, 喘不过, 睡不着, 合不拢) */
const POTENTIAL = /^[\u4e00-\u9fff]不[出来去下起过动住着了清见到完开上拢]/;
/** what opens a complement of result after a feeling (急得直跺脚, 紧张得连话都说不好, 吓得差点哭了) */
const RESULT_OPENERS = /^(?:直(?!接)|连|差点|差一点|几乎|快要|恨不得|满头大汗|满脸通红|浑身|全身|泪流|脸都|手脚)/;

/** the words before the particle and after it (segmented apart from it), and the rest of its clause */
interface Words {
  left: string[];
  right: string[];
  rest: string;
}

/**
 * The phrase rules:
 *   verb + 的 + complement closing the clause -> 得   (发挥得十分出色, 做得更细更实, 收拾得整整齐齐, 累得要命)
 *   feeling + 的 + complement of result -> 得          (激动得说不出话来, 紧张得连话都说不利索了)
 *   manner word + 的 + verb phrase -> 地, where the verb phrase is certain: a preposition opens it (耐心地为…讲解),
 *     the verb carries an aspect or a direction (迅速地清理了, 慢慢地抬起头), an auxiliary stands before the manner
 *     word (应密切地观察), or the verb takes a pronoun or demonstrative as object (正确地安装和使用本产品)
 *   modifier + 地 + noun closing the phrase -> 的, where both language models agree (珍贵的历史照片)
 * A finding whose candidate is the particle itself says the 的 is right as it stands (我知道的很少).
 */
function checkDddPhrases(
  lm: LanguageModel,
  lms: LanguageModel[],
  dict: JiebaDict,
  s: string,
  blocked: Uint8Array,
): UsageFinding[] {
  const out: UsageFinding[] = [];
  const tag = (w: string | undefined) => (w ? (dict.pos.get(w) ?? '') : '');
  const isWord = (w: string) => (dict.freq.get(w) ?? 0) >= 10;
  /** forward maximum matching over the dictionary's words (up to four characters) */
  const longest = (r: string): string[] => {
    const ws: string[] = [];
    for (let i = 0; i < r.length && ws.length < 4;) {
      let L = Math.min(4, r.length - i);
      while (L > 1 && !isWord(r.slice(i, i + L))) L--;
      ws.push(r.slice(i, i + L));
      i += L;
    }
    return ws;
  };
  for (let k = 1; k + 1 < s.length; k++) {
    const ch = s[k];
    if ((ch !== '的' && ch !== '地' && ch !== '得') || blocked[k] || !isHan(s.charCodeAt(k - 1))) continue;
    let a = k;
    while (a > 0 && k - a < 12 && isHan(s.charCodeAt(a - 1))) a--;
    if (!isHan(s.charCodeAt(k + 1))) {
      const f = ch === '的' && s[k + 1] === '，' ? adverbBeforeComma(lm.segment(s.slice(a, k)), tag, k) : null;
      if (f) out.push(f);
      continue;
    }
    let b = k + 1;
    while (b < s.length && b - k < 12 && isHan(s.charCodeAt(b))) b++;
    // the particle inside a word (目的, 的确, 当地, 地方, 觉得) is no particle: a common word that the segmentation
    // keeps whole (认真的 is 认真 + 的 though 真的 is a word; the dictionary's 静静的 is a particle after 静静)
    if (isWord(s.slice(k - 1, k + 1)) || isWord(s.slice(k, k + 2))) {
      let at = a,
        alone = false;
      for (const x of lm.segment(s.slice(a, b))) {
        if (at === k) alone = x === ch;
        at += x.length;
        if (at > k) break;
      }
      if (!alone) continue;
    }
    // (windows of a few dozen characters: a long text must not make each particle cost its length)
    const tail = s.slice(k + 1, k + 41);
    const brk = tail.search(CLAUSE_BREAK);
    const w: Words = {
      left: [...lm.segment(s.slice(a, k))],
      right: [...lm.segment(s.slice(k + 1, b))],
      rest: brk < 0 ? tail : tail.slice(0, brk),
    };
    const f =
      ch === '地'
        ? nounAfterDi(lms, tag, s, k, w, longest)
        : ch === '的'
          ? (complementOrManner(tag, s, k, w, longest) ?? idiomComplement(tag, s, k, w))
          : null;
    if (f) out.push(f);
  }
  return out;
}

/**
 * 的 between a verb and a four-character idiom that closes the clause (组织的井井有条， -> 组织得井井有条,
 * 演绎的淋漓尽致。, 围堵的水泄不通): a state the action reached, the complement. Not after 是 or 所 in the clause, where
 * the idiom names a thing (这是我们讨论的重中之重), nor after a degree word jieba tags as a verb (无比的盛气凌人).
 * The models are no help here: they prefer 的 before most idioms (by 5.5 nats in 组织的井井有条); over the CSC sets,
 * which leave 的/地/得 alone, the rule made nine changes, eight of them right.
 */
function idiomComplement(tag: (w: string | undefined) => string, s: string, k: number, w: Words): UsageFinding | null {
  const P = w.left[w.left.length - 1] ?? '';
  const I = w.rest.slice(0, 4);
  if (P.length < 2 || !/^v/.test(tag(P)) || DEGREE_WORDS.has(P) || tag(I) !== 'i' || w.rest.length !== 4) return null;
  const clause =
    s
      .slice(Math.max(0, k - 40), k)
      .split(CLAUSE_BREAK)
      .pop() ?? '';
  if (/[是所]/.test(clause.slice(0, clause.length - P.length))) return null;
  return { pos: k, orig: '的', cand: '得', reason: note('reason.complement', { P, N: I }) };
}
/** degree adverbs that jieba tags as verbs */
const DEGREE_WORDS = new Set(['无比', '异常', '万分', '格外', '极度']);

/** 的 before a complement (-> 得) or between a manner word and its verb (-> 地) */
function complementOrManner(
  tag: (w: string | undefined) => string,
  s: string,
  k: number,
  w: Words,
  longest: (r: string) => string[],
): UsageFinding | null {
  const whole = w.left[w.left.length - 1],
    PP = w.left[w.left.length - 2] ?? '';
  // a compound the segmentation keeps whole acts as its verb (程序运行, 被风吹)
  const tailWord = tag(whole) ? '' : (longest(whole).pop() ?? '');
  const P = tailWord && tailWord !== whole && tag(tailWord) === 'v' ? tailWord : whole;
  const pp = P.length >= 4 && /^n/.test(tag(P)) && tag(P.slice(-2)) === 'v' ? 'v' : tag(P);
  const keep = { pos: k, orig: '的', cand: '的', reason: note('') };
  // a quantity is what was done, not how (我知道的很少); a verb with a direction takes no complement (说不出来的冷)
  if (/^v/.test(pp) && /^(?:[很太最]?[多少]|不[多少]|非常[多少]|有限)/.test(w.rest)) return keep;
  if (/(?:出来|起来|过来|下来|进来|上来|回来|出去|下去|过去|回去)$/.test(s.slice(k - 2, k))) return keep;
  const clause =
    s
      .slice(Math.max(0, k - 40), k)
      .split(CLAUSE_BREAK)
      .pop() ?? '';
  // 把/被 before the verb leave it no other reading: the phrase after 的 is its complement (把家里收拾得整整齐齐)
  const caused = /[把被]/.test(clause.slice(0, clause.length - P.length));
  const verb =
    (pp === 'v' || pp === 'vi' || pp === 'vd') &&
    !/[到见完掉过着了]$/.test(P) &&
    !PP.endsWith('所') &&
    !STATIVE_VERBS.has(P);
  // the thing made or said standing right before its verb is no maker (工作做的扎实, 文章写的很好): a complement
  const theme = THEMES.some((x) => clause.endsWith(x + P));
  if (verb && (caused || theme || !THING_VERBS.has(P))) {
    const comp = complement(tag, w.rest, caused) || (caused ? soundState(w.rest) : '');
    if (comp) return { pos: k, orig: '的', cand: '得', reason: note('reason.complement', { P, N: comp }) };
  }
  if (FEELING_COMP.has(P) || ((pp === 'a' || pp === 'v') && FEELING.has(P))) {
    const r = w.rest;
    const m = EXTREME.test(r.replace(/[了啊呀]$/, ''))
      ? r
      : POTENTIAL.test(r) || RESULT_OPENERS.test(r)
        ? r.slice(0, 4)
        : '';
    // 连 as "even" stands alone and needs its 都/也 (紧张得连话都说不利索; not 紧张的连队生活也很充实)
    if (m && (!r.startsWith('连') || (w.right[0] === '连' && /[都也]/.test(r)))) {
      return { pos: k, orig: '的', cand: '得', reason: note('reason.degree', { P, N: m }) };
    }
  }
  // a disyllabic verb, then a degree word and a quality that modifies a noun: two modifiers of that noun
  // (讨论的非常重要的问题, 提出的更高的要求)
  if (/^v/.test(pp) && P.length >= 2 && DEGREE_QUALITY_DE.test(w.rest)) return keep;
  // a modifier after 的, a number, a measure word or a demonstrative modifies a noun (他们的热情的接待,
  // 这种认真的做法)
  if (
    PP === '的' ||
    /^(?:m|q|mq)$/.test(tag(PP)) ||
    /^[这那每各某此该本][个种样些位项类]?$/.test(PP) ||
    /[个种位项次份件条样些类]$/.test(PP)
  )
    return keep;
  // a verb before 让/使/是, or before another verb and its 了, is a noun, the subject (老师耐心的讲解让…,
  // 积极的参与是…, 她耐心的解释消除了误会)
  const N = w.right[0] ?? '';
  const then = w.rest.slice(N.length);
  if (
    /^v/.test(tag(N)) &&
    (/^(?:让|使|令|叫|给人|是|就是|才是|也是|都是|成为)/.test(then) ||
      (N.length >= 2 && tag(then.slice(0, 2)) === 'v' && then[2] === '了'))
  )
    return keep;
  // after 是/有 (便是独一无二的存在), a verb taking a noun phrase (受到热烈的欢迎) or a verb with its aspect
  // (充满着满满的付出, 露出了淡淡的微笑) the 的 is attributive
  if (!isAdverbial(tag, P) || NOUN_OBJECT_VERBS.has(PP) || /[是有着著了过]$/.test(PP)) return null;
  const why = verbPhraseAfter(tag, w, PREDICATE_OPENERS.has(PP) || PP.startsWith('请'), longest);
  if (why)
    return {
      pos: k,
      orig: '的',
      cand: '地',
      reason: note(why.kind === 'verb' ? 'reason.adv-verb' : 'reason.adv-action', { P, N: why.N }),
    };
  return null;
}

/**
 * a reduplicated adverb alone before a comma, opening its clause (渐渐地，天黑了): it modifies the clause after
 * it; after a subject it is the predicate, a state (她的英文好好的，; 一切都是慢慢的，)
 */
function adverbBeforeComma(left: string[], tag: (w: string | undefined) => string, k: number): UsageFinding | null {
  const P = left[0] ?? '';
  if (left.length !== 1 || !REDUP_ADVERBIAL.has(P) || tag(P) !== 'd') return null;
  return { pos: k, orig: '的', cand: '地', reason: note('reason.adv-clause', { P }) };
}

/** manner words: the lists above, jieba's adverbial adjectives, manner reduplications and four-character idioms */
function isAdverbial(tag: (w: string | undefined) => string, P: string): boolean {
  if (P.length < 2) return false;
  if (MANNER.has(P) || REDUP_ADVERBIAL.has(P) || ADVERBIAL_WORDS.has(P)) return true;
  const t = tag(P);
  if (t === 'ad') return true;
  // reduplicated qualities (慢慢, 扎扎实实), not numbers or nouns (许许多多, 点点滴滴)
  if (redup(P) && t !== 'm' && !t.startsWith('n') && tag(P[0] + (P[2] ?? '')) !== 'm') return true;
  return P.length === 4 && t === 'i' && !/[的之]/.test(P);
}

/** evidence that a verb phrase follows the particle (the verb, or an action a preposition opens), or null */
function verbPhraseAfter(
  tag: (w: string | undefined) => string,
  w: Words,
  opened: boolean,
  longest: (r: string) => string[],
): { kind: 'verb' | 'action'; N: string } | null {
  // a word the language model knows and the dictionary does not (提高自己) is read in the dictionary's words
  const right = w.right.flatMap((x) => (x.length >= 3 && !tag(x) ? longest(x) : [x]));
  const N = right[0];
  if (!N || COPULAS.has(N) || DIRECTION_ONLY.has(N)) return null;
  const pn = tag(N);
  // a preposition opens an adverbial phrase; one that also joins nouns needs a verb closing the clause
  const p1 = PREPOSITIONS.has(N) ? N : !pn ? N[0] : '';
  if (p1 && PREPOSITIONS.has(p1)) {
    // the preposition needs its object and a verb after it (正确的为。 is a subject)
    if (w.rest.length < 3 || (p1 === '对' && /^[了吗呢吧啊]|^不对/.test(w.rest.slice(1)))) return null;
    if (CONJ_PREPOSITIONS.has(p1) && (w.rest.includes('的') || !/^v/.test(tag(lastWord(w.rest))))) return null;
    return { kind: 'action', N: w.rest.slice(0, 4) };
  }
  const verbal = pn === 'v' || pn === 'vi' || pn === 'vd' || pn === 'vn';
  // an aspect particle or a direction after the verb (迅速地清理了, 慢慢地抬起头, 静静地坐在)
  const after = w.rest.slice(N.length);
  if ((verbal || pn === 'a') && /^[了着过](?![解去来])/.test(after)) return { kind: 'verb', N };
  if (pn === 'v' && N.length === 2 && DIRECTIONAL.has(N[1]) && tag(N[0]) === 'v') return { kind: 'verb', N };
  if (!pn && N.length >= 2 && tag(N[0]) === 'v' && DIRECTIONAL.has(N[1])) return { kind: 'verb', N: N.slice(0, 2) };
  if (!verbal) return null;
  // the verb takes a pronoun or a demonstrative (or its partner in 安装和使用 does)
  let obj = after;
  const co = /^[和与并或及]/.exec(obj);
  if (co && right[2] && /^v/.test(tag(right[2]))) obj = obj.slice(1 + right[2].length);
  if (OBJECT_START.test(obj) && pn !== 'vn') return { kind: 'verb', N };
  if (OBJECT_START.test(obj) && opened) return { kind: 'verb', N };
  // after an auxiliary (应密切地观察, 会自动地检测) a verb with an object or closing the clause is a predicate
  if (opened && (pn === 'v' || (pn === 'vn' && after && !CLAUSE_CLOSE.test(after) && !after.startsWith('的')))) {
    return { kind: 'verb', N };
  }
  return null;
}

/** the last word of a clause, near enough for its tag: its last two characters */
function lastWord(r: string): string {
  return r.length >= 2 ? r.slice(-2) : r;
}

/** the complement after 的 when it closes the clause, or '' */
function complement(tag: (w: string | undefined) => string, r: string, caused: boolean): string {
  const rest = (x: string) => CLAUSE_CLOSE.test(x);
  if (EXTREME.test(r.replace(/[了啊呀]$/, ''))) return r;
  // reduplicated state (整整齐齐, 清清楚楚, 明明白白)
  if (
    r.length >= 4 &&
    r[0] === r[1] &&
    r[2] === r[3] &&
    r[0] !== r[2] &&
    rest(r.slice(4)) &&
    /^(?:a|z|ad|v)$/.test(tag(r[0] + r[2]) || tag(r.slice(0, 4)))
  )
    return r.slice(0, 4);
  // a comparison closing the clause (运行得比旧版本快很多, 跑得比谁都快): 比, what is compared, a quality
  if (r.startsWith('比')) {
    for (let j = 2; j <= 8 && j < r.length; j++) {
      for (const L of [1, 2]) {
        const x = r.slice(j, j + L);
        if (x.length < L || !/^(?:a|ad)$/.test(tag(x))) continue;
        const tail = r.slice(j + L).replace(/^(?:很多|得多|多了|一些|一点|不少|许多)/, '');
        if (rest(tail)) return r.slice(0, r.length - tail.length);
      }
    }
    return '';
  }
  // [degree] adjective, possibly coordinated (十分出色, 更细更实, 扎实有序, 又快又好)
  /** the length of a quality at r[at] (after a degree word or not, after other qualities or not), or 0 */
  const quality = (at: number, degree: boolean, adjs: number): number => {
    for (const L of [2, 1]) {
      const x = r.slice(at, at + L);
      if (x.length < L) continue;
      const t = tag(x);
      // a two-character stative verb after a degree word (十分出色, 很满意), a quality of negation or possession
      // beside another (扎实有序), one character after a degree word (更细更实); not quantities (很多 = what)
      const stative =
        (degree && L === 2 && t === 'v') ||
        (adjs > 0 && L === 2 && /^[有无不]/.test(x)) ||
        (degree && L === 1 && t === 'n');
      if ((t === 'a' || t === 'ad' || t === 'an' || t === 'z' || stative) && !/^[多少]/.test(x)) return L;
    }
    return 0;
  };
  let i = 0,
    adjs = 0,
    degrees = 0;
  let last = '';
  while (i < r.length) {
    // a conjunct after the first (扎实有序, 又快又好: 又 may open the first too)
    const lead = /^[又也还而且、]/.exec(r.slice(i));
    if (lead && (adjs || (r[i] === '又' && r.includes('又', i + 2)))) i += 1;
    const d = COMP_DEGREES.find((x) => r.startsWith(x, i));
    // not where the degree word begins a noun (干的好事)
    if (d && [1, 2].some((L) => /^n/.test(tag(r.slice(i, i + d.length + L))))) return '';
    // a degree word needs its quality; else the word is the quality (好 in 又快又好)
    let got = d ? quality(i + d.length, true, adjs) : 0;
    if (got) {
      i += d!.length;
      degrees++;
    } else got = quality(i, false, adjs);
    if (!got) return '';
    last = r.slice(i, i + got);
    i += got;
    adjs++;
    if (rest(r.slice(i))) break;
  }
  if (!adjs || !rest(r.slice(i))) return '';
  // a bare adjective needs a degree word, a partner (扎实有序) or one character (跑得快); 4-char idioms need 把/被
  if (!degrees && adjs < 2 && last.length > 1) return caused && tag(r.slice(0, i)) === 'i' ? r.slice(0, i) : '';
  return r.slice(0, i);
}

/** a sound reduplicated and its verb closing the clause (刮得呼呼作响, 吹得哗哗直响), or '' */
function soundState(r: string): string {
  return r.length >= 4 && r[0] === r[1] && r[1] !== r[2] && CLAUSE_CLOSE.test(r.slice(4)) ? r.slice(0, 4) : '';
}

/** 地 before a noun that closes its phrase -> 的 (珍贵的历史照片), where both language models agree */
function nounAfterDi(
  lms: LanguageModel[],
  tag: (w: string | undefined) => string,
  s: string,
  k: number,
  w: Words,
  longest: (r: string) => string[],
): UsageFinding | null {
  const P = w.left[w.left.length - 1],
    PP = w.left[w.left.length - 2] ?? '';
  const pp = tag(P);
  // a quality before it: after a noun 地 is often the noun "place" (经常居所地法律, 所在地, 发生地); words of
  // negation (不力, 无效) and words after a degree adverb (最美丽) are qualities whatever jieba tags them; jieba
  // tags some qualities as places (美丽), so places count with the wider margin
  const quality = /^(?:a|an|b|z|i|ns)$/.test(pp) || /^[不无]/.test(P) || COMP_DEGREES.includes(PP) || PP === '最';
  // after an auxiliary (不要懒惰地浪费时间) a verb phrase is due: what follows 地 is its verb
  if (!P || P.length < 2 || !quality || PREDICATE_OPENERS.has(PP)) return null;
  // manner words do stand before verbs that jieba tags as nouns (严重地危害): they need a wider margin
  const margin = isAdverbial(tag, P) || pp === 'ns' ? 5 : DE_LM_GAIN;
  // the segmentation, else the dictionary's longest words (笛声, where the segmentation splits 笛/声)
  return (
    nounPhraseAfterDi(lms, tag, s, k, P, w.right, margin) ??
    nounPhraseAfterDi(lms, tag, s, k, P, longest(w.rest), margin)
  );
}

/** 地 before a noun phrase that closes there: the finding, where both models prefer 的 by the margin */
function nounPhraseAfterDi(
  lms: LanguageModel[],
  tag: (w: string | undefined) => string,
  s: string,
  k: number,
  P: string,
  words: string[],
  margin: number,
): UsageFinding | null {
  const [N, NN] = words;
  const pn = headTag(tag, N);
  // a noun, or an adjective before one (成效的重要标准); jieba tags many verbs as nouns too (严重地危害), so the
  // phrase must close after the nouns
  let end = N.length;
  if (pn === 'a' && /^n/.test(headTag(tag, NN))) end += NN.length;
  else if (/^(?:n|nz|ng)$/.test(pn)) {
    for (let j = 1; j < words.length && /^(?:n|nz|ng)$/.test(headTag(tag, words[j])); j++) end += words[j].length;
  } else return null;
  const after = s.slice(k + 1 + end);
  if (!PHRASE_END.test(after) && !/^(?:予以|给予|进行|加以)/.test(after)) return null;
  if (contextGain(lms, s, k, k + 1, '的') < margin) return null;
  return { pos: k, orig: '地', cand: '的', reason: note('reason.attr-noun', { P, N }) };
}

/**
 * the tag of a word, or for a word the dictionary lacks (合作关系, 浪费时间) the tag of its last part, unless a
 * part is a verb (浪费时间 is a verb and its object)
 */
function headTag(tag: (w: string | undefined) => string, x: string | undefined): string {
  if (!x) return '';
  const t = tag(x);
  if (t || x.length < 3) return t;
  let last = '';
  for (let i = 0; i < x.length;) {
    let L = Math.min(4, x.length - i);
    while (L > 1 && !tag(x.slice(i, i + L))) L--;
    last = tag(x.slice(i, i + L));
    if (last === 'v') return 'v';
    i += L;
  }
  return last;
}
