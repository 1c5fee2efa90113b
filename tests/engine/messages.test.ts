/**
 * The findings' notes (engine/messages.ts): every message the engine writes is a catalogue note whose cn rendering is
 * the message, and the catalogue speaks en and hk too. The corpus exercises every id of the catalogue.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { check, loadEngine, type CheckOptions, type Issue } from '../../engine/index';
import { MESSAGES, noteIds, renderNote, renderNoteParts, type Note } from '../../engine/messages';
import { HK_MESSAGES } from '../../engine/messages.hk';
import { HK_MESSAGES_FILE, hkMessagesSource, toHk } from '../../scripts/engine-messages-source';

// (the first load after an engine change builds its image)
beforeAll(() => {
  loadEngine();
}, 120_000);

const LEADERS = [
  { name: '张三', titles: ['主席'] },
  { name: '李四', titles: ['总理'] },
];

/** texts and the ids they are here for (each must produce them) */
const CORPUS: Array<[string, string[], CheckOptions?]> = [
  ['这家公司的起夜文化很有特色。', ['spell.word']],
  ['我们明天在会议室讨论这个问提。', ['spell.same']],
  ['中华人名共和国', ['spell.fuzzy']],
  ['不能随意传播末经证实的消息。', ['spell.shape']],
  ['你明天想去那里玩？', ['spell.special']],
  ['他们一予成名，大家都知道。', ['nonword.idiom'], { checkOptions: 1 }],
  ['这些年来他始如一地坚持自己的理想。', ['nonword.missing']],
  ['我们的的目标是完成任务。', ['nonword.repeated']],
  ['我们必须尽快决解这个问题。', ['nonword.swap']],
  ['这个方案需要我们我们认真研究。', ['wording.repeated-word']],
  ['他们名副实，大家都知道。', ['wording.idiom'], { checkOptions: 2 }],
  ['她的眼晴很大，也很漂亮。', ['typo.shape']],
  ['那段经历让人刻苦铭心。', ['typo.fuzzy']],
  ['我以经把报告交给老师了。', ['typo.same']],
  ['我们要有破釜沉船的决心。', ['typo.plain']],
  ['这份工作比较经松。周末大家经经松松地去爬山。', ['repeat.redup']],
  [
    '请把帐户信息发给我。',
    ['dict.wrong.personal', 'dict.key.personal'],
    { wrongWords: [{ word: '帐户', correct: '账户' }], keyWords: [{ word: '信息' }] },
  ],
  [
    '请把帐户信息发给我。',
    ['dict.wrong.team', 'dict.key.team'],
    { wrongWords: [{ word: '帐户', correct: '账户', source: 'team' }], keyWords: [{ word: '信息', source: 'team' }] },
  ],
  ['这里有违禁内容。', ['sensitive.personal', 'category.8-6'], { sensitiveWords: [{ word: '违禁', category: '8-6' }] }],
  [
    '这里有违禁内容。',
    ['sensitive.team', 'sensitive.label'],
    { sensitiveWords: [{ word: '违禁', category: '8-99', source: 'team' }] },
  ],
  ['警方破获了一起网络赌博案件，该官员因贪污受贿被查处。', ['sensitive.builtin']],
  ['这个问题我们下次在讨论吧。', ['usage.should', 'reason.zai']],
  ['她悄悄的走进了房间。', ['reason.adv-verb']],
  ['志愿者们热心的为游客指路。', ['reason.adv-action']],
  ['他们开开心心得回家了。', ['reason.adv-after']],
  ['希望大家平平安安的活到一百岁。', ['reason.adv-any']],
  ['渐渐的，街上的行人少了。', ['reason.adv-clause']],
  ['这次年会组织的井井有条，大家都很满意。', ['reason.complement']],
  ['听到这个消息，她高兴的合不拢嘴。', ['reason.degree']],
  ['他送给我一件珍贵地礼物。', ['reason.attr-noun']],
  ['无论走到那里，我都会想你。', ['reason.na']],
  ['这本书即是教材，也是一本很好的参考书。', ['reason.ji']],
  ['这里的风景真美阿！', ['reason.a']],
  ['截止本月十日，报名人数已超过三千人。', ['reason.jiezhi']],
  ['上岗前请佩带好工牌。', ['reason.peidai']],
  ['工人们都带着安全帽，在工地上忙碌。', ['reason.dai']],
  ['他的新书一上市就收到了读者的热烈欢迎。', ['reason.shoudao']],
  ['本店现发布招租启示，有意者请来电。', ['reason.qishi']],
  ['考察对象名单将在网上公式七天。', ['reason.gongshi']],
  ['请用手机扫码登陆系统后再提交申请。', ['reason.denglu']],
  ['新生产线的设备调式工作已经结束。', ['reason.tiaoshi']],
  ['团队用两周时间做出了软件原形。', ['reason.yuanxing']],
  ['铁块在高温下慢慢溶化成铁水。', ['reason.ronghua']],
  ['所有人员必需按规定登记。', ['reason.bixu']],
  ['发现故障后请即使报告值班室。', ['reason.jishi']],
  ['承蒙关照，不甚荣幸。', ['reason.busheng']],
  ['许多家长反应，学校门口的交通秩序混乱。', ['reason.fanying']],
  ['劳动者依法享有休息休假的权力。', ['reason.quanli']],
  ['要严防权利寻租，确保权力在阳光下运行。', ['reason.quanli-power']],
  ['遇到难题时，他总能出个好注意。', ['reason.zhuyi']],
  ['当前防汛形式严峻，各地要提高警惕。', ['reason.xingshi']],
  ['活动形势多样。', ['reason.xingshi-form']],
  ['请按说明书配制服务器参数。', ['reason.peizhi']],
  ['实验员正在配置溶液。', ['reason.peizhi-mix']],
  ['他从小就有远大的报复。', ['reason.baofu']],
  ['他想了很久...终于开口了。', ['punct.ellipsis']],
  ['他是个非常成功的人--至少看起来是。', ['punct.dash']],
  ['这次考试的第１名是他。', ['punct.halfwidth']],
  ['他来了,我们走吧。', ['punct.fullwidth']],
  ['我们明天见面，，不见不散。', ['punct.repeated']],
  ['我们 明天见面。', ['punct.space']],
  ['他说：“我们先走吧。大家都同意了，只有小李还在犹豫', ['punct.unpaired']],
  ['王经理在会上说：“这个季度的任务必须按时完成。', ['punct.unpaired-at', 'punct.missing']],
  ['本公司（以下简称“我方与贵司签订协议。', ['punct.unpaired-both', 'punct.missing-both']],
  ['他的地址是广东省杭州市西湖区文三路100号。', ['address.mismatch']],
  ['活动将在2024年13月5日举行。', ['date.month']],
  ['会议定于2023年2月29日召开。', ['date.days']],
  ['会议改在2023-02-30举行。', ['date.invalid']],
  // 2024-09-01 was a Sunday
  ['2024年9月1日（星期一）', ['date.weekday', 'weekday.0', 'weekday.1']],
  ['2024年9月3日（星期天）', ['weekday.2', 'weekday.0-tian']],
  ['2024年9月4日（星期六）', ['weekday.3', 'weekday.6']],
  ['2024年9月5日（星期五）', ['weekday.4', 'weekday.5']],
  ['主席李四出席了会议。', ['leader.title'], { leaders: LEADERS }],
  ['主席张山出席了会议。', ['leader.name'], { leaders: LEADERS }],
  ['李四、张三出席了会议。', ['leader.order'], { leaders: LEADERS }],
  ['合同总价为人民币壹万贰仟元整（¥12,500.00）。', ['amount'], { advancedProofreading: true }],
];

const HAN = /\p{Script=Han}/u;

function findings(): Array<{ text: string; issue: Issue; ids: string[] }> {
  return CORPUS.flatMap(([text, ids, options]) => check(text, options ?? {}).map((issue) => ({ text, issue, ids })));
}

describe('finding notes', () => {
  it('every corpus text produces the ids it stands for, and every catalogue id is produced', () => {
    const produced = new Set<string>();
    for (const [text, ids, options] of CORPUS) {
      const got = check(text, options ?? {}).flatMap((i) => (i.note ? noteIds(i.note) : []));
      for (const id of got) produced.add(id);
      expect({ text, missing: ids.filter((id) => !got.includes(id)) }).toEqual({ text, missing: [] });
    }
    // a new message id needs a text here that produces it
    expect(Object.keys(MESSAGES).filter((id) => !produced.has(id))).toEqual([]);
  });

  it('every finding carries a note whose cn rendering is its message', () => {
    const all = findings();
    expect(all.length).toBeGreaterThan(CORPUS.length);
    for (const { text, issue } of all) {
      expect({ text, note: issue.note !== undefined }).toEqual({ text, note: true });
      expect(renderNote(issue.note!, 'cn')).toBe(issue.message);
    }
  });

  it('renders en with Chinese only in the marked fragments, hk without simplified-only characters', () => {
    const s2t = toHk();
    for (const { issue } of findings()) {
      const en = renderNoteParts(issue.note!, 'en')!;
      expect(en.map((p) => p.text).join('')).not.toBe(issue.message);
      expect(en.filter((p) => !p.quoted && HAN.test(p.text))).toEqual([]);
      const hk = renderNoteParts(issue.note!, 'hk')!;
      // what the hk catalogue says is already traditional: converting it again changes nothing
      for (const p of hk.filter((q) => !q.quoted)) expect(p.text).toBe(s2t(p.text));
    }
    const note = check('我们明天在会议室讨论这个问提。')[0].note!;
    expect(renderNote(note, 'en')).toBe(
      '“这个问提” should be “这个问题”: a character of the same sound (提 tí/dī, 题 tí).',
    );
    expect(renderNoteParts(note, 'en')!.slice(0, 2)).toEqual([{ text: '“' }, { text: '这个问提', quoted: true }]);
  });

  it('hk text: the note renders in hk as the message, its words in traditional characters', () => {
    const [issue] = check('我們明天在會議室討論這個問提。', { lang: 'hk' });
    expect(issue.message).toBe('“這個問提”應為“這個問題”：同音字誤用（提 tí/dī，題 tí）。');
    expect(renderNote(issue.note!, 'hk')).toBe(issue.message);
    expect(renderNote(issue.note!, 'en')).toBe(
      '“這個問提” should be “這個問題”: a character of the same sound (提 tí/dī, 題 tí).',
    );
  });

  it('nested notes render in the language of their parent; category and level labels come from the table', () => {
    const [issue] = check('这里有违禁内容。', { sensitiveWords: [{ word: '违禁', category: '8-6' }] });
    expect(renderNote(issue.note!, 'en')).toBe('“违禁” is one of your sensitive words (Illegal information).');
    expect(renderNote({ id: 'level.2' }, 'en')).toBe('Suggestion');
    expect(renderNote({ id: 'category.9-2' }, 'hk')).toBe('日期錯誤');
    expect(renderNote(check('2024年9月1日（星期一）')[0].note!, 'en')).toBe('2024-9-1 is a Sunday, not a Monday.');
  });

  it('an unknown id or a missing argument renders nothing (the caller shows the message)', () => {
    expect(renderNote({ id: 'no.such.id' }, 'en')).toBeUndefined();
    expect(renderNote({ id: 'nonword.repeated' }, 'en')).toBeUndefined();
    const nested: Note = { id: 'usage.should', args: { orig: '在', cand: '再', reason: { id: 'reason.none' } } };
    expect(renderNote(nested, 'cn')).toBeUndefined();
  });
});

describe('the catalogue', () => {
  const names = (t: string) => [...new Set([...t.matchAll(/\{([^{}=][^{}]*)\}/g)].map((m) => m[1]))].sort();

  it('has the same arguments in cn and en, and en in English', () => {
    for (const [id, m] of Object.entries(MESSAGES)) {
      expect({ id, args: names(m.en) }).toEqual({ id, args: names(m.cn) });
      // Chinese in an en template is a marked fragment ({=字})
      expect({ id, han: HAN.test(m.en.replace(/\{=[^{}]*\}/g, '')) }).toEqual({ id, han: false });
    }
  });

  it('has hk templates that are the cn ones converted by the engine’s OpenCC, and the file is up to date', async () => {
    const s2t = toHk();
    expect(Object.keys(HK_MESSAGES).sort()).toEqual(Object.keys(MESSAGES).sort());
    for (const [id, m] of Object.entries(MESSAGES)) expect({ id, hk: HK_MESSAGES[id] }).toEqual({ id, hk: s2t(m.cn) });
    // `npm run gen:engine-messages` writes it
    expect(readFileSync(HK_MESSAGES_FILE, 'utf8')).toBe(await hkMessagesSource());
  });
});
