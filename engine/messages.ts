/**
 * The engine's finding messages as a catalogue: each id has a cn and an en template (hk is generated from cn, see
 * messages.hk.ts), so a finding's `note` can be shown in the reader's language. Pure: the SPA imports it without
 * the lexicons or OpenCC.
 *
 * Templates: `{name}` is an argument; `{=字}` (en only) a literal Chinese fragment, shown marked like a string
 * argument. String arguments are Chinese text (the user's words, dictionary words, marks, pinyin) and read the same
 * in every language; numbers are printed as they are; nested notes render in the same language.
 */
import { CATEGORIES, LEVELS } from './categories';
import { HK_MESSAGES } from './messages.hk';

export type NoteArg = string | number | Note;
export interface Note {
  id: string;
  args?: Record<string, NoteArg>;
}
/** a note as it arrives from the wire or from storage: its arguments are checked as it renders */
export interface WireNote {
  id: string;
  args?: { [name: string]: unknown };
}
export type NoteLang = 'cn' | 'en' | 'hk';
/** a piece of a rendered note; `quoted` marks Chinese fragments (string arguments and `{=…}` literals) */
export interface NotePart {
  text: string;
  quoted?: boolean;
}

const SENTENCE_SHOULD = { cn: '“{orig}”应为“{cand}”', en: '“{orig}” should be “{cand}”' };
const should = (cn: string, en: string) => ({ cn: SENTENCE_SHOULD.cn + cn, en: SENTENCE_SHOULD.en + en });

export const MESSAGES: Record<string, { cn: string; en: string }> = {
  // the speller and the non-word pass
  'spell.word': should('：同音词误用（{a} {pa}，{b} {pb}）。', ': a word of the same sound ({a} {pa}, {b} {pb}).'),
  'spell.same': should('：同音字误用（{a} {pa}，{b} {pb}）。', ': a character of the same sound ({a} {pa}, {b} {pb}).'),
  'spell.fuzzy': should('：读音相近（{a} {pa}，{b} {pb}）。', ': similar sound ({a} {pa}, {b} {pb}).'),
  'spell.shape': should('：字形相近（{a}/{b}）。', ': similar-looking characters ({a}/{b}).'),
  'spell.special': should(
    '：“{a}”与“{b}”用法不同，此处宜用“{b}”。',
    ': “{a}” and “{b}” differ in use; “{b}” fits here.',
  ),
  'nonword.idiom': should('：成语用字有误（{a}/{b}）。', ': wrong character in the idiom ({a}/{b}).'),
  'nonword.missing': { cn: '“{orig}”疑缺字，应为“{cand}”。', en: '“{orig}” seems to lack a character: “{cand}”.' },
  'nonword.repeated': { cn: '“{word}”重复，疑为多余。', en: '“{word}” is repeated and probably redundant.' },
  'nonword.swap': {
    cn: '“{orig}”疑为“{cand}”的语序颠倒。',
    en: '“{orig}” looks like “{cand}” with characters swapped.',
  },
  'wording.repeated-word': {
    cn: '词语“{word}”重复，疑为多余。',
    en: 'The word “{word}” is repeated and probably redundant.',
  },
  'wording.idiom': { cn: '疑似成语“{idiom}”漏字。', en: 'A character seems to be missing from the idiom “{idiom}”.' },
  'typo.shape': should(
    '：常见误写，字形相近（{a}/{b}）。',
    ': a common miswriting; similar-looking characters ({a}/{b}).',
  ),
  'typo.fuzzy': should(
    '：常见误写，读音相近（{a} {pa}，{b} {pb}）。',
    ': a common miswriting; similar sound ({a} {pa}, {b} {pb}).',
  ),
  'typo.same': should(
    '：常见误写，同音字误用（{a} {pa}，{b} {pb}）。',
    ': a common miswriting; a character of the same sound ({a} {pa}, {b} {pb}).',
  ),
  'typo.plain': should('：常见误写（{a} {pa}，{b} {pb}）。', ': a common miswriting ({a} {pa}, {b} {pb}).'),
  'repeat.redup': should('：“{w}”应为“{r}”，重叠形式同改。', ': “{w}” should be “{r}”, in its reduplicated form too.'),
  // word lists
  'dict.wrong.personal': {
    cn: '“{word}”在自定义词库中登记为错词，应为“{cand}”。',
    en: '“{word}” is listed as a wrong word in your dictionary; it should be “{cand}”.',
  },
  'dict.wrong.team': {
    cn: '“{word}”在共享词库中登记为错词，应为“{cand}”。',
    en: '“{word}” is listed as a wrong word in the shared dictionary; it should be “{cand}”.',
  },
  'dict.key.personal': {
    cn: '“{word}”是自定义重点词，请核对。',
    en: '“{word}” is one of your key words; please check it.',
  },
  'dict.key.team': {
    cn: '“{word}”是共享词库重点词，请核对。',
    en: '“{word}” is a key word of the shared dictionary; please check it.',
  },
  'sensitive.personal': {
    cn: '“{word}”是自定义敏感词（{label}）。',
    en: '“{word}” is one of your sensitive words ({label}).',
  },
  'sensitive.team': {
    cn: '“{word}”是共享词库敏感词（{label}）。',
    en: '“{word}” is a sensitive word of the shared dictionary ({label}).',
  },
  'sensitive.builtin': {
    cn: '“{word}”属于敏感词（{label}），请斟酌。',
    en: '“{word}” is a sensitive word ({label}); use it with care.',
  },
  'sensitive.label': { cn: '敏感', en: 'sensitive' },
  // usage and confusable words: the reason is a nested note
  'usage.should': should('：{reason}。', ': {reason}.'),
  'reason.zai': {
    cn: '“{P}”之后表示重复或继续的动作，用“再”',
    en: 'after “{P}”, a repeated or continued action takes “{=再}”',
  },
  'reason.adv-verb': {
    cn: '“{P}”修饰动词“{N}”，状语后用“地”',
    en: '“{P}” modifies the verb “{N}”, and an adverbial takes “{=地}”',
  },
  'reason.adv-action': {
    cn: '“{P}”修饰“{N}”这一动作，状语后用“地”',
    en: '“{P}” modifies the action “{N}”, and an adverbial takes “{=地}”',
  },
  'reason.adv-after': {
    cn: '“{P}”修饰后面的动作，状语后用“地”',
    en: '“{P}” modifies the action after it, and an adverbial takes “{=地}”',
  },
  'reason.adv-any': { cn: '“{P}”修饰动词，状语后用“地”', en: '“{P}” modifies a verb, and an adverbial takes “{=地}”' },
  'reason.adv-clause': {
    cn: '副词“{P}”修饰后面的分句，状语后用“地”',
    en: 'the adverb “{P}” modifies the clause after it, and an adverbial takes “{=地}”',
  },
  'reason.complement': {
    cn: '动词“{P}”后接补语“{N}”，补语前用“得”',
    en: 'the verb “{P}” takes the complement “{N}”, introduced by “{=得}”',
  },
  'reason.degree': {
    cn: '“{P}”后接表示程度或结果的补语“{N}”，补语前用“得”',
    en: '“{P}” takes “{N}”, a complement of degree or result, introduced by “{=得}”',
  },
  'reason.attr-noun': {
    cn: '“{P}”修饰名词“{N}”，定语后用“的”',
    en: '“{P}” modifies the noun “{N}”, and an attributive takes “{=的}”',
  },
  'reason.na': {
    cn: '“{P}”后面要用疑问代词，应为“{N}”',
    en: 'after “{P}” an interrogative is needed: “{N}”',
  },
  'reason.ji': {
    cn: '“{P}”是并列关联词，应为“既”',
    en: '“{P}” is a paired conjunction, written with “{=既}”',
  },
  'reason.a': {
    cn: '句末语气词用“啊”（“阿”用作前缀或译音）',
    en: 'the particle closing a sentence is “{=啊}” (“{=阿}” is a prefix or used in transliteration)',
  },
  'reason.jiezhi': {
    cn: '后接时间表示“到某时为止”用“截至”，“截止”不带宾语',
    en: 'before a time, “up to” is “{=截至}”; “{=截止}” takes no object',
  },
  'reason.peidai': { cn: '穿戴在身上的东西用“佩戴”', en: 'things worn on the body take “{=佩戴}”' },
  'reason.dai': { cn: '穿戴在身上的东西用“戴”', en: 'things worn on the body take “{=戴}”' },
  'reason.shoudao': {
    cn: '遭受或承受（关注、批评、影响等）用“受到”，“收到”指接到实物或信息',
    en: 'undergoing something (attention, criticism, influence) is “{=受到}”; “{=收到}” is receiving a thing or a message',
  },
  'reason.qishi': {
    cn: '公开告知的文字用“启事”，“启示”指启发',
    en: 'a public notice is “{=启事}”; “{=启示}” means an insight',
  },
  'reason.gongshi': { cn: '公开告示一段时间用“公示”', en: 'a notice posted for a period is “{=公示}”' },
  'reason.denglu': {
    cn: '进入网站、系统或账号用“登录”，“登陆”指登上陆地',
    en: 'signing in to a site, system or account is “{=登录}”; “{=登陆}” is landing ashore',
  },
  'reason.tiaoshi': {
    cn: '设备、程序的调整测试用“调试”，“调式”是音乐术语',
    en: 'adjusting and testing equipment or programs is “{=调试}”; “{=调式}” is a musical mode',
  },
  'reason.yuanxing': {
    cn: '设计或产品的样板用“原型”，“原形”指本来面目',
    en: 'the model of a design or product is “{=原型}”; “{=原形}” is a true form',
  },
  'reason.ronghua': {
    cn: '固体受热变成液体用“熔化”，“溶化”指在液体中溶解',
    en: 'a solid melting with heat is “{=熔化}”; “{=溶化}” is dissolving in a liquid',
  },
  'reason.bixu': {
    cn: '表示“一定要”、修饰动作用“必须”，“必需”指一定要有的',
    en: '“must”, before an action, is “{=必须}”; “{=必需}” means indispensable',
  },
  'reason.jishi': {
    cn: '表示“不拖延”用“及时”，“即使”是让步连词，需与“也”“都”等呼应',
    en: '“without delay” is “{=及时}”; “{=即使}” is the concessive “even if”, answered by “{=也}” or “{=都}”',
  },
  'reason.busheng': {
    cn: '固定说法“不胜……”表示非常或承受不了',
    en: 'the set phrase “{=不胜……}” means “very much” or “more than one can bear”',
  },
  'reason.fanying': {
    cn: '把情况、意见告诉上级或有关方面用“反映”',
    en: 'bringing a situation or an opinion to superiors or those concerned is “{=反映}”',
  },
  'reason.quanli': {
    cn: '依法享有的利益和资格用“权利”，“权力”指支配力量',
    en: 'what one is entitled to by law is “{=权利}”; “{=权力}” is power over others',
  },
  'reason.quanli-power': {
    cn: '支配和管理的力量用“权力”，“权利”指依法享有的利益',
    en: 'the power to command and manage is “{=权力}”; “{=权利}” is an entitlement by law',
  },
  'reason.zhuyi': { cn: '想法、办法用“主意”', en: 'an idea or a plan is “{=主意}”' },
  'reason.xingshi': {
    cn: '事物发展的状况用“形势”，“形式”指形状、结构或方式',
    en: 'the state of affairs is “{=形势}”; “{=形式}” is form, structure or manner',
  },
  'reason.xingshi-form': {
    cn: '方式、结构用“形式”，“形势”指发展的状况',
    en: 'form and structure are “{=形式}”; “{=形势}” is the state of affairs',
  },
  'reason.peizhi': {
    cn: '设备、系统、资源的安排设定用“配置”，“配制”指按比例调制',
    en: 'setting up equipment, systems or resources is “{=配置}”; “{=配制}” is mixing in proportion',
  },
  'reason.peizhi-mix': {
    cn: '按比例调制（溶液、药剂等）用“配制”，“配置”指安排设定',
    en: 'mixing in proportion (solutions, medicines) is “{=配制}”; “{=配置}” is setting up',
  },
  'reason.baofu': {
    cn: '远大的志向用“抱负”，“报复”指打击报仇',
    en: 'a lofty aim is “{=抱负}”; “{=报复}” is revenge',
  },
  // punctuation
  'punct.ellipsis': {
    cn: '省略号应写作“……”（两个三连点），不写作“{mark}”。',
    en: 'Write the ellipsis as “……” (two three-dot marks), not “{mark}”.',
  },
  'punct.dash': { cn: '破折号应写作“——”，不写作“{mark}”。', en: 'Write the dash as “——”, not “{mark}”.' },
  'punct.halfwidth': {
    cn: '数字和拉丁字母宜用半角形式：“{half}”。',
    en: 'Digits and Latin letters are better half-width: “{half}”.',
  },
  'punct.fullwidth': {
    cn: '中文语境中应使用全角标点“{full}”，不用半角“{mark}”。',
    en: 'Chinese text takes the full-width “{full}”, not the half-width “{mark}”.',
  },
  'punct.repeated': {
    cn: '标点“{marks}”重复或连用不当，应只保留“{keep}”。',
    en: 'The marks “{marks}” are repeated or clash; keep only “{keep}”.',
  },
  'punct.space': { cn: '中文字符之间不应有空格。', en: 'No space belongs between Chinese characters.' },
  'punct.unpaired': { cn: '“{mark}”缺少与之配对的“{pair}”。', en: '“{mark}” has no matching “{pair}”.' },
  'punct.unpaired-at': {
    cn: '“{mark}”缺少与之配对的“{pair}”，应在“{where}”之后补上。',
    en: '“{mark}” has no matching “{pair}”; add it after “{where}”.',
  },
  'punct.unpaired-both': {
    cn: '“{mark}”缺少与之配对的“{pair}”，外面的“{outer}”也未闭合，应在“{where}”之后补上“{closer}”。',
    en: '“{mark}” has no matching “{pair}” and the outer “{outer}” is unclosed too; add “{closer}” after “{where}”.',
  },
  'punct.missing': {
    cn: '此处缺少“{closer}”，与前面的“{mark}”配对。',
    en: '“{closer}” is missing here, to match the “{mark}” before it.',
  },
  'punct.missing-both': {
    cn: '此处缺少“{closer}”，与前面的“{mark}”和“{outer}”配对。',
    en: '“{closer}” is missing here, to match the “{mark}” and the “{outer}” before it.',
  },
  // facts
  'address.mismatch': {
    cn: '{place}属于{real}，不属于{claimed}。',
    en: '“{place}” is in “{real}”, not in “{claimed}”.',
  },
  'date.month': { cn: '日期不存在：没有{month}月。', en: 'No such date: there is no month {month}.' },
  'date.days': {
    cn: '日期不存在：{year}年{month}月只有{days}天。',
    en: 'No such date: month {month} of {year} has only {days} days.',
  },
  'date.weekday': {
    cn: '{year}年{month}月{day}日是星期{weekday}，不是星期{given}。',
    en: '{year}-{month}-{day} is a {weekday}, not a {given}.',
  },
  'date.invalid': { cn: '日期不存在：{date}。', en: 'No such date: {date}.' },
  'weekday.0': { cn: '日', en: 'Sunday' },
  'weekday.1': { cn: '一', en: 'Monday' },
  'weekday.2': { cn: '二', en: 'Tuesday' },
  'weekday.3': { cn: '三', en: 'Wednesday' },
  'weekday.4': { cn: '四', en: 'Thursday' },
  'weekday.5': { cn: '五', en: 'Friday' },
  'weekday.6': { cn: '六', en: 'Saturday' },
  // 星期天, the other name of Sunday
  'weekday.0-tian': { cn: '天', en: 'Sunday' },
  // advanced proofreading
  'leader.title': {
    cn: '领导人“{name}”的职务是“{titles}”，“{title}”对应的是{others}。',
    en: 'The leader “{name}” holds “{titles}”; “{title}” belongs to “{others}”.',
  },
  'leader.name': {
    cn: '“{title}”是{name}的职务，“{cand}”疑为“{name}”之误。',
    en: '“{title}” is the title of “{name}”; “{cand}” is probably a slip for “{name}”.',
  },
  'leader.order': {
    cn: '按领导人词库的排序，应为“{order}”。',
    en: 'In the order of the leader dictionary this reads “{order}”.',
  },
  amount: {
    cn: '大写金额“{words}”与小写金额 {figure} 元不一致。',
    en: 'The amount in words “{words}” does not match the figure {figure} yuan.',
  },
};

const CATEGORY_LABELS = new Map(CATEGORIES.map((c) => [c.code, c]));
const LEVEL_LABELS = new Map(LEVELS.map((l) => [String(l.level), l]));

/** a note's template in a language: the catalogue's, or a category's (`category.8-2`) or level's (`level.1`) label */
export function noteTemplate(id: string, lang: NoteLang): string | undefined {
  if (id.startsWith('category.')) return CATEGORY_LABELS.get(id.slice(9))?.[lang];
  if (id.startsWith('level.')) return LEVEL_LABELS.get(id.slice(6))?.[lang];
  const m = MESSAGES[id];
  if (!m) return undefined;
  return lang === 'hk' ? HK_MESSAGES[id] : m[lang];
}

/**
 * The note as parts, Chinese fragments marked; undefined when the catalogue lacks an id or an argument (a note
 * from a newer engine: the caller shows the finding's message instead).
 */
export function renderNoteParts(note: WireNote, lang: NoteLang): NotePart[] | undefined {
  const template = noteTemplate(note.id, lang);
  if (template === undefined) return undefined;
  const parts: NotePart[] = [];
  const text = (t: string, quoted?: boolean) => {
    if (!t) return;
    const last = parts[parts.length - 1];
    if (last && !last.quoted && !quoted) last.text += t;
    else parts.push(quoted ? { text: t, quoted } : { text: t });
  };
  let at = 0;
  for (const m of template.matchAll(/\{(=?)([^{}]+)\}/g)) {
    text(template.slice(at, m.index));
    at = m.index + m[0].length;
    if (m[1]) {
      text(m[2], true);
      continue;
    }
    const arg = note.args?.[m[2]];
    if (typeof arg === 'string') text(arg, true);
    else if (typeof arg === 'number') text(String(arg));
    else {
      const inner = isNote(arg) ? renderNoteParts(arg, lang) : undefined;
      if (!inner) return undefined;
      for (const p of inner) text(p.text, p.quoted);
    }
  }
  text(template.slice(at));
  return parts;
}

const isNote = (v: unknown): v is WireNote =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as { id?: unknown }).id === 'string' &&
  (typeof (v as { args?: unknown }).args === 'object' || (v as { args?: unknown }).args === undefined);

/** The note as a sentence in a language; undefined as renderNoteParts. */
export function renderNote(note: WireNote, lang: NoteLang): string | undefined {
  return renderNoteParts(note, lang)
    ?.map((p) => p.text)
    .join('');
}

/** The note with every string argument mapped (hk findings: the user's words in traditional characters). */
export function mapNoteStrings(note: Note, f: (s: string) => string): Note {
  if (!note.args) return note;
  const args: Record<string, NoteArg> = {};
  for (const [k, v] of Object.entries(note.args))
    args[k] = typeof v === 'string' ? f(v) : typeof v === 'number' ? v : mapNoteStrings(v, f);
  return { id: note.id, args };
}

/** the ids of a note and of the notes nested in it */
export function noteIds(note: Note): string[] {
  const ids = [note.id];
  for (const v of Object.values(note.args ?? {})) if (typeof v === 'object') ids.push(...noteIds(v));
  return ids;
}

export const note = (id: string, args?: Record<string, NoteArg>): Note => (args ? { id, args } : { id });

/** A finding's note and its cn message (the engine's `message`: the note's cn rendering). */
export function noted(id: string, args?: Record<string, NoteArg>): { message: string; note: Note } {
  const n = note(id, args);
  const message = renderNote(n, 'cn');
  if (message === undefined) throw new Error(`engine message ${id}: unknown id or missing argument`);
  return { message, note: n };
}
