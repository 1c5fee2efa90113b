/**
 * Where an unclosed quote or bracket (10-2) should close, when the grammar of the marks (GB/T 15834) leaves one
 * reading: null when it does not, and the finding then only points at the opener.
 *
 *  - a quotation after a colon that runs to the end of the paragraph closes there (说：“……。 -> 。”);
 *  - a quotation that opens a sentence closes after its first sentence-final mark (“你去不去？她问 -> ？”);
 *  - a quoted term or a title closes before the head word that follows it (“安全第一”的理念, “……”为主题,
 *    《……通知》印发, 《……日报》报道), else before the next clause mark;
 *  - a bracket holding a reference or a code closes after it (（见附件1）报送, （GB 50204—2015）的规定, 【确定】按钮),
 *    else before the next clause mark.
 *  - a bracket naming a term after 简称 closes after the term's quote (（以下简称“委托方”应在 -> “委托方”）应在);
 *    the term's own quote, if unclosed, before its predicate, closing the bracket too where that is unclosed.
 * Nothing is suggested where another unclosed mark lies inside, or where the stretch is too long to be a term.
 */
const CLOSER: Record<string, string> = {
  '“': '”',
  '‘': '’',
  '（': '）',
  '《': '》',
  '【': '】',
  '「': '」',
  '『': '』',
};
const QUOTES = '“‘「『';
const SENTENCE_END = '。！？';

/** words that a quoted term names or qualifies (“……”的理念, “……”为主题, “……”实践活动) */
const HEADS = [
  '为主题',
  '为主线',
  '为目标',
  '为核心',
  '为口号',
  '主题',
  '理念',
  '精神',
  '口号',
  '原则',
  '方针',
  '战略',
  '工程',
  '行动',
  '活动',
  '实践活动',
  '专项行动',
  '计划',
  '项目',
  '提示',
  '字样',
  '称号',
  '奖',
  '按钮',
  '选项',
  '菜单',
  '命令',
  '模式',
];
/** the kinds of documents and publications a title ends with */
const TITLE_ENDS = [
  '通知',
  '决定',
  '意见',
  '办法',
  '规定',
  '方案',
  '报告',
  '条例',
  '规范',
  '标准',
  '细则',
  '纲要',
  '规划',
  '协议',
  '合同',
  '法',
  '日报',
  '晚报',
  '时报',
  '周刊',
  '杂志',
  '导则',
  '指南',
  '函',
  '公告',
  '通报',
  '批复',
  '请示',
];
/** what follows a title and is not part of it */
const AFTER_TITLE = /^(印发|发布|报道|讯|执行|实施|施行|要求|规定|精神|的|和|及|与|等|中|上|里|一书|一文|第)/;
/** UI words after a label in 【】 */
const UI_WORDS = /^(.{1,10}?)(按钮|键|菜单|选项|页面|标签|窗口|对话框|图标)/;

/** 简称 and its kin inside a bracket, right before the quote that names the term (（以下简称“甲方”）) */
const ABBREVIATION = /[（(](?:以下|下文)?(?:简称|统称|下称|称)为?$/;
/** where the predicate after such a term starts (“委托方”应在……) */
const TERM_END =
  /^[^，。；：？！、“”‘’（）()]{1,10}?(?=应当|应该|应|须|必须|将|有权|负责|同意|承诺|保证|在|于|是|和|与|及|的|[，。；）)]|$)/;

/**
 * The term a quote names after 简称 in a bracket (甲方（以下简称“委托方”应在……): where its quote closes, and
 * whether the bracket is to close there too (it is unclosed as well), or null when the term is unclear.
 */
export function abbreviationTerm(text: string, open: number): number | null {
  if (!QUOTES.includes(text[open]) || !ABBREVIATION.test(text.slice(Math.max(0, open - 8), open))) return null;
  const m = TERM_END.exec(text.slice(open + 1, open + 12));
  return m && m[0].length >= 2 ? open + 1 + m[0].length : null;
}

export function closingPlace(text: string, open: number): number | null {
  const term = abbreviationTerm(text, open);
  if (term !== null) return term;
  // a bracket that names a term: it closes after the term's quote (（以下简称“委托方”应在 -> “委托方”）应在)
  const named = /^(?:以下|下文)?(?:简称|统称|下称|称)为?(?:“[^“”]{1,12}”|‘[^‘’]{1,12}’)/.exec(
    text.slice(open + 1, open + 24),
  );
  if ((text[open] === '（' || text[open] === '(') && named) return open + 1 + named[0].length;
  const o = text[open];
  const c = CLOSER[o];
  if (!c) return null;
  let ps = open,
    pe = open + 1;
  while (ps > 0 && text[ps - 1] !== '\n') ps--;
  while (pe < text.length && text[pe] !== '\n') pe++;
  while (pe > open + 1 && /\s/.test(text[pe - 1])) pe--;
  let b = open - 1;
  while (b >= ps && /\s/.test(text[b])) b--;
  const prev = b >= ps ? text[b] : '';
  const nextOpener = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (CLOSER[text[k]]) return true;
    return false;
  };
  const firstOf = (marks: string, from: number) => {
    for (let k = from; k < pe; k++) if (marks.includes(text[k])) return k;
    return -1;
  };

  if (QUOTES.includes(o) && (prev === '：' || prev === ':' || prev === '' || SENTENCE_END.includes(prev))) {
    const f = firstOf(SENTENCE_END, open + 1);
    if (f < 0 || nextOpener(open + 1, f)) return null;
    let end = f + 1;
    while (end < pe && SENTENCE_END.includes(text[end])) end++;
    // after a colon the quotation is the rest of the paragraph: one sentence, or the paragraph's last
    if (prev === '：' || prev === ':') return end === pe ? end : null;
    // a sentence in quotes with more text after it: the words after it are the narrator's
    return end < pe ? end : null;
  }

  // a title ends at a pause (、) too; a quoted term may hold one (“安全第一、预防为主”); a bracket may hold a colon
  const marks = o === '《' ? '，。；：？！、' : QUOTES.includes(o) ? '，。；：？！→' : '，。；？！';
  const q0 = firstOf(marks, open + 1);
  const q = q0 < 0 ? pe : q0;
  const seg = text.slice(open + 1, q);
  if (!seg || (o !== '《' && nextOpener(open + 1, q))) return null;

  if (QUOTES.includes(o)) {
    if (seg.length > 16) return null;
    for (const h of [...HEADS].sort((x, y) => y.length - x.length)) {
      if (seg.length > h.length && seg.endsWith(h)) {
        let cut = seg.length - h.length;
        if (seg[cut - 1] === '的' && cut > 1) cut--;
        return open + 1 + cut;
      }
    }
    const de = seg.lastIndexOf('的');
    if (de > 0 && seg.length - de <= 3) return open + 1 + de;
    return q0 >= 0 ? q : null;
  }

  if (o === '《') {
    const inner = seg.lastIndexOf('）');
    for (let k = 1; k <= seg.length; k++) {
      for (const t of TITLE_ENDS) {
        if (k < t.length + 1 || !seg.startsWith(t, k - t.length)) continue;
        // the title may end in a bracketed part: 《……协议（草案）》
        let end = open + 1 + k;
        if (text[end] === '（') {
          const close = text.indexOf('）', end);
          if (close > 0 && close < q) end = close + 1;
        }
        const rest = text.slice(end, pe);
        if (end === q || AFTER_TITLE.test(rest)) return end;
      }
    }
    if (inner >= 0 && inner === seg.length - 1) return q;
    return q0 >= 0 && seg.length <= 30 ? q : null;
  }

  // （ and 【
  const ref = /^见(附件|附录|附表|图|表)[\dA-Za-z一二三四五六七八九十]+/.exec(seg);
  if (ref) return open + 1 + ref[0].length;
  const code = /^[A-Z]{1,4}[ /]?[\dA-Za-z.\-—–/ ]*\d/.exec(seg);
  if (code && seg.slice(code[0].length).startsWith('的')) return open + 1 + code[0].length;
  if (o === '【') {
    const ui = UI_WORDS.exec(seg);
    if (ui) return open + 1 + ui[1].length;
  }
  if (q0 < 0 || seg.length > 30) return null;
  return q;
}

export const closerOf = (o: string): string | undefined => CLOSER[o];
