/**
 * Family 0: real words written for one another (易混词), each pair decided by the grammar or the word class of its
 * context, where the language models cannot tell them apart (收到/受到 before 关注 differ by 0.3 nats, 带/戴 before
 * 口罩 by the wrong sign): 截止 takes no object and 截至 takes a time; 受到 takes what one undergoes (关注, 批评,
 * 影响) and 收到 what arrives (信, 货款); 戴 is for what one wears; 启事 is a notice (招聘启事), 启示 an insight;
 * 公示 a public display for a period (公示五个工作日); 登录 a log-in to a system (登录后台), 登陆 a landing; 调试 the
 * tuning of equipment (安装调试), 调式 a musical mode; 原型 a prototype (产品原型), 原形 the true form (原形毕露);
 * 熔化 the melting of metal by heat, 溶化 dissolving; 必须 a modal before a verb, 必需 "needed" before a noun;
 * 及时 "in time" before an action with no concession after it, 即使 "even if" with its 也/都; 不胜 in the set
 * phrases 不胜感激, 不胜枚举; 反映 the reporting of views (市民反映，, 反映情况); 权利 a right one holds (享有…权利,
 * 合法权利), 权力 power (权力寻租, 把权力关进制度的笼子); 主意 an idea (出主意, 好主意); 抱负 an ambition (远大的抱负);
 * 形势 how things stand (形势严峻), 形式 a form (形式多样); 配置 the setting up of equipment (配置服务器), 配制 the
 * mixing of a solution (配制溶液).
 * Each rule names the context that decides; where the context says nothing, the pair is left alone.
 */
import type { Note } from '../messages';
import type { JiebaDict } from '../jieba';
import type { LanguageModel } from '../lm';

export interface ConfusableFinding {
  start: number;
  end: number;
  orig: string;
  cand: string;
  /** why, as a catalogue note (engine/messages.ts) */
  reason: Note;
}

interface Rule {
  wrong: string;
  right: string;
  /** what must follow the word (tested on the rest of the sentence, from the word's end) */
  after?: RegExp;
  /** what must precede it (tested on the sentence up to the word) */
  before?: RegExp;
  /** what the sentence must hold somewhere */
  sentence?: RegExp;
  /** what must not follow in the sentence (即使 … 也) */
  unlessAfter?: RegExp;
  /** what must not precede it */
  unlessBefore?: RegExp;
  /** the jieba tag the next word of the segmentation must have */
  nextTag?: RegExp;
  reason: Note;
}

const TIME =
  '(?:今年|去年|明年|前年|本年|本月|上月|当月|本周|上周|目前|现在|今天|今日|昨天|昨日|记者发稿|发稿|\\d|' +
  '[〇零一二三四五六七八九十两]+[年月日]|[上下]半年|年底|年末|月底|第[一二三四]季度)';
const WORN =
  '(?:口罩|帽子|安全帽|头盔|眼镜|墨镜|护目镜|手套|手表|戒指|耳环|项链|面具|面罩|红领巾|袖章|袖标|胸牌|胸卡|工牌|徽章|假发|头巾)';
const UNDERGONE =
  '(?:关注|欢迎|好评|表扬|批评|处分|处罚|惩罚|影响|伤害|冲击|重视|鼓舞|启发|教育|打击|威胁|侵害|质疑|追捧|青睐|热捧|' +
  '赞扬|称赞|肯定|表彰|嘉奖|谴责|指责|非议|干扰|限制|制约|阻碍|损害|惊吓|冷落|歧视|排挤|重创|好评如潮)';
const CLAUSE_END = '(?=$|[，。！？；、,.!?;])';
const SYSTEMS =
  '(?:系统|后台|管理后台|账号|帐号|账户|网站|平台|页面|邮箱|官网|网页|APP|app|App|客户端|界面|微信|QQ|小程序|网银|门户|服务器)';
const ACTIONS =
  '(?:发货|处理|回复|答复|通知|解决|报告|上报|更新|反馈|就医|纠正|止损|补充|跟进|清理|整改|维修|送达|传达|沟通|汇报|救治|' +
  '提醒|制止|调整|兑现|办理|支付|付款|归还|退款|联系|到位|赶到|采取|发现并)';
const REPORTERS =
  '(?:群众|市民|居民|网友|村民|职工|员工|家长|消费者|读者|乘客|业主|用户|师生|学生|代表|委员|旅客|顾客|游客|商户|企业)';

const RULES: Rule[] = [
  {
    wrong: '截止',
    right: '截至',
    after: new RegExp(`^${TIME}`),
    reason: { id: 'reason.jiezhi' },
  },
  {
    wrong: '佩带',
    right: '佩戴',
    after: new RegExp(`^[好上着]?${WORN}`),
    reason: { id: 'reason.peidai' },
  },
  {
    wrong: '带',
    right: '戴',
    after: new RegExp(`^着${WORN}(?:的|${CLAUSE_END})`),
    unlessBefore: /[携附夹佩捎自顺连]$/,
    reason: { id: 'reason.dai' },
  },
  {
    wrong: '收到',
    right: '受到',
    after: new RegExp(`^[^，。！？；]{0,14}?${UNDERGONE}${CLAUSE_END}`),
    reason: { id: 'reason.shoudao' },
  },
  {
    wrong: '启示',
    right: '启事',
    before:
      /(?:招聘|招租|招生|招商|寻人|寻物|失物招领|征婚|征稿|征文|更正|开业|迁址|停业|停诊|搬迁|遗失|挂失|认领|招标)$/,
    reason: { id: 'reason.qishi' },
  },
  {
    wrong: '公式',
    right: '公示',
    after: /^(?:期|期间|期满|名单|[\d一二三四五六七八九十]+个?(?:工作日|天|日))/,
    reason: { id: 'reason.gongshi' },
  },
  {
    wrong: '登陆',
    right: '登录',
    after: new RegExp(`^(?:到|进)?${SYSTEMS}`),
    reason: { id: 'reason.denglu' },
  },
  {
    wrong: '登陆',
    right: '登录',
    before: /(?:用户|账号|帐号|密码|扫码|重新|自动|免密|注册)$/,
    reason: { id: 'reason.denglu' },
  },
  {
    wrong: '调式',
    right: '调试',
    before: /(?:安装|设备|系统|程序|软件|联合|单机|硬件|线路|电路|仪器|现场|联机|安装和)$/,
    reason: { id: 'reason.tiaoshi' },
  },
  {
    wrong: '调式',
    right: '调试',
    after: /^(?:完成|完毕|结束|工作|运行|阶段|人员|记录|报告|合格)/,
    reason: { id: 'reason.tiaoshi' },
  },
  {
    wrong: '原形',
    right: '原型',
    before: /(?:产品|软件|系统|界面|交互|样机|新品)$/,
    reason: { id: 'reason.yuanxing' },
  },
  {
    wrong: '原形',
    right: '原型',
    after: /^(?:设计|机|图|开发|验证|制作)/,
    reason: { id: 'reason.yuanxing' },
  },
  {
    wrong: '溶化',
    right: '熔化',
    sentence: /摄氏度|℃|高温|熔点|高炉|钢|铁水|金属|[铜铝锡铅]|矿石|岩浆/,
    reason: { id: 'reason.ronghua' },
  },
  {
    wrong: '必需',
    right: '必须',
    nextTag: /^(?:v|d|p|ad|vd)$/,
    unlessAfter: /^[品的之用]/,
    reason: { id: 'reason.bixu' },
  },
  {
    wrong: '即使',
    right: '及时',
    after: new RegExp(`^${ACTIONS}`),
    unlessAfter: /[也都还仍]|依然|照样|总是/,
    reason: { id: 'reason.jishi' },
  },
  {
    wrong: '不甚',
    right: '不胜',
    after: /^(?:感激|感谢|荣幸|欣慰|感慨|惶恐|其烦|枚举|唏嘘|酒力)/,
    reason: { id: 'reason.busheng' },
  },
  {
    wrong: '反应',
    right: '反映',
    after: /^了?(?:情况|问题|意见|诉求|建议|心声|呼声)/,
    reason: { id: 'reason.fanying' },
  },
  {
    wrong: '反应',
    right: '反映',
    before: new RegExp(`${REPORTERS}们?(?:纷纷|普遍|多次|强烈)?$`),
    after: /^[，,：:]/,
    reason: { id: 'reason.fanying' },
  },
  {
    wrong: '权力',
    right: '权利',
    before: /(?:合法|基本|民主|平等|正当|应有|同等)$/,
    reason: { id: 'reason.quanli' },
  },
  {
    wrong: '权力',
    right: '权利',
    before: /享有[^，。；]{0,12}$/,
    reason: { id: 'reason.quanli' },
  },
  {
    wrong: '权利',
    right: '权力',
    after: /^(?:寻租|腐败|关进|运行|制约和监督|监督和制约)/,
    reason: { id: 'reason.quanli-power' },
  },
  {
    wrong: '注意',
    right: '主意',
    before: /(?:个|馊|坏|鬼|出|拿|(?<!好)好)$/,
    after: new RegExp(`^${CLAUSE_END}`),
    reason: { id: 'reason.zhuyi' },
  },
  {
    wrong: '形式',
    right: '形势',
    after: /^(?:严峻|严重|紧迫|紧张|复杂|逼人|所迫|不容乐观|一片大好|好转|喜人|依然|十分|非常|更加|越来越)/,
    reason: { id: 'reason.xingshi' },
  },
  {
    wrong: '形势',
    right: '形式',
    after: /^(?:多样|多种多样|单一|灵活|新颖|主义|上的|化)/,
    reason: { id: 'reason.xingshi-form' },
  },
  {
    wrong: '配制',
    right: '配置',
    after: /^(?:电脑|计算机|服务器|参数|环境|资源|硬件|软件|系统|文件|网络|路由)/,
    reason: { id: 'reason.peizhi' },
  },
  {
    wrong: '配置',
    right: '配制',
    after: /^(?:溶液|药剂|药水|药液|农药|试剂|饲料|消毒液|营养液|鸡尾酒)/,
    reason: { id: 'reason.peizhi-mix' },
  },
  {
    wrong: '报复',
    right: '抱负',
    before: /(?:远大的?|宏伟的?|施展|实现|胸怀|雄心|人生)$/,
    reason: { id: 'reason.baofu' },
  },
];

const SENTENCE_MARKS = /[。！？!?\n]/;

export function checkConfusables(
  lm: LanguageModel,
  dict: JiebaDict,
  s: string,
  blocked: Uint8Array,
): ConfusableFinding[] {
  const out: ConfusableFinding[] = [];
  for (const r of RULES) {
    for (let i = s.indexOf(r.wrong); i >= 0; i = s.indexOf(r.wrong, i + 1)) {
      const end = i + r.wrong.length;
      if (blocked.subarray(i, end).includes(1)) continue;
      let a = i;
      while (a > 0 && !SENTENCE_MARKS.test(s[a - 1])) a--;
      let b = end;
      while (b < s.length && !SENTENCE_MARKS.test(s[b])) b++;
      const before = s.slice(a, i),
        after = s.slice(end, b);
      if (r.before && !r.before.test(before)) continue;
      if (r.after && !r.after.test(after)) continue;
      if (r.sentence && !r.sentence.test(s.slice(a, b))) continue;
      if (r.unlessAfter?.test(after)) continue;
      if (r.unlessBefore?.test(before)) continue;
      if (r.nextTag) {
        // (a set phrase or a word the dictionary does not tag, such as 按规定, by its first character)
        const next = lm.segment(after.slice(0, 8))[0] ?? '';
        let t = dict.pos.get(next) ?? '';
        if (t === '' || t === 'l') t = dict.pos.get(next[0] ?? '') ?? '';
        if (!r.nextTag.test(t)) continue;
      }
      // the differing characters only (截[止] -> 截[至])
      let x = 0;
      while (r.wrong[x] === r.right[x]) x++;
      let y = r.wrong.length;
      while (r.wrong[y - 1] === r.right[y - 1]) y--;
      out.push({ start: i + x, end: i + y, orig: r.wrong.slice(x, y), cand: r.right.slice(x, y), reason: r.reason });
    }
  }
  return out;
}
