/**
 * Family 0: 的/地/得 by part-of-speech context (jieba POS tags over the language-model segmentation).
 *  adverbial + 的 + verb            -> 地   (高兴的跳 -> 高兴地跳)
 *  verb + 的 + degree word / AABB   -> 得   (跑的非常快 -> 跑得非常快, 打扫的干干净净)
 *  adjective + 得 + verb            -> 地   (严重得危害 -> 严重地危害)
 *  adjective + 得 + noun            -> 的   (幸福得事 -> 幸福的事)
 */
import type { LanguageModel } from '../lm';
import type { JiebaDict } from '../jieba';

export interface UsageFinding { pos: number; orig: string; cand: string; reason: string }

const DEGREE = new Set(['非常', '十分', '特别', '很', '极其', '格外', '相当', '太']);
/** a degree word, alone or fused with its adjective in the segmentation (很 / 很快 / 非常好) */
const startsWithDegree = (w: string | undefined) => !!w && [...DEGREE].some((d) => w === d || (w.startsWith(d) && w.length <= d.length + 2));
const NOMINALISING = new Set('说讲写做想吃买卖用穿看听学要拿送画唱做'.split(''));
/** reduplicated forms that are (almost) always adverbials before a verb */
const REDUP_ADVERBIAL = new Set('慢慢 深深 渐渐 好好 紧紧 轻轻 悄悄 静静 默默 狠狠 偷偷 匆匆 暗暗 早早 细细 静悄悄 慢慢悠悠 高高兴兴 认认真真 仔仔细细 清清楚楚 明明白白 快快乐乐 开开心心 安安静静 小心翼翼'.split(' '));
/** adjectives that are typical manner adverbials (的 -> 地 only when a verb phrase follows) */
const MANNER = new Set('认真 仔细 努力 高兴 热情 积极 耐心 大声 小心 轻易 主动 迅速 飞快 安静 拼命 用力 细心 快速 顺利 彻底 不断 逐渐 充分 严格 热烈 紧张 愉快 勇敢 坚决 默默 悄悄 轻轻 大胆 自觉 激动 疯狂 深刻 广泛 明显'.split(' '));
const AGAIN_BEFORE = new Set(['下次', '明天', '以后', '改天', '回头', '待会', '等会', '稍后', '过几天', '下回', '将来']);
const isHan = (c: number) => c >= 0x4e00 && c <= 0x9fff;
const redup = (w: string) => (w.length === 2 && w[0] === w[1]) || (w.length === 4 && w[0] === w[1] && w[2] === w[3]) || (w.length === 3 && w[1] === w[2]);

export function checkUsage(lm: LanguageModel, dict: JiebaDict, s: string, blocked: Uint8Array): UsageFinding[] {
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
        const verbFollows = NN !== undefined && NN !== '的' && !pnn.startsWith('u') && !pnn.startsWith('y') && !pnn.startsWith('c')
          && (N.length === 1 || (!pnn.startsWith('n') && !pnn.startsWith('p')));
        if ((REDUP_ADVERBIAL.has(P) || (MANNER.has(P) && verbFollows)) && pn.startsWith('v') && !pn.startsWith('vn')) {
          out.push({ pos: at, orig: '的', cand: '地', reason: `“${P}”修饰动词“${N}”，状语后用“地”` });
        } else if (pp.startsWith('v') && !NOMINALISING.has(P) && (startsWithDegree(N) || (redup(N) && N.length >= 3 && pn === 'z'))) {
          out.push({ pos: at, orig: '的', cand: '得', reason: `动词“${P}”后接补语“${N}”，补语前用“得”` });
        }
      } else {
        if (adverbial && pn.startsWith('v') && !pn.startsWith('vn') && !DEGREE.has(N)) {
          out.push({ pos: at, orig: '得', cand: '地', reason: `“${P}”修饰动词“${N}”，状语后用“地”` });
        } else if ((pp === 'a' || pp === 'z') && P.length >= 2 && pn === 'n' && N.length >= 1) {
          out.push({ pos: at, orig: '得', cand: '的', reason: `“${P}”修饰名词“${N}”，定语后用“的”` });
        }
      }
    }
    i = j;
  }
  return out;
}
