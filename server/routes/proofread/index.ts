// categories only: the engine itself (lexicons) lives in the checker workers
import { CATEGORIES, LEVELS, RESULT_TYPES, Bits, ALL_STANDARD } from '../../../engine/categories';
import { nowIso } from '../../db';
import { insertClick, insertFindingFeedback } from '../../db/repos/feedback';
import { envelope } from '../../errors';
import { checkService } from '../../workers/checker/jobs';
import { rightBalance, Right } from '../../domain/rights/ledger';
import { caller, type OperationRequest, type Operations } from '../types';
import { localize, requestLang } from '../../domain/locale';

const checkText = async (request: OperationRequest<'postMisscutV1CheckText' | 'postMisscutV2CheckText'>) => {
  const { uid } = await caller(request);
  await request.server.limiters.checkText(request, uid);
  const body = request.body;
  const sessionId = String(request.headers.session ?? '');
  // a QuotaError (402 with the dialog's kind) is written by the shared error handler
  const started = await checkService(request.server).start({
    uid,
    sessionId,
    text: body.text,
    mode: body.checkMode === 4 ? 4 : 3,
    checkOptions: body.checkOptions ?? ALL_STANDARD,
    lang: body.lang === 'hk' ? 'hk' : 'cn',
  });
  return envelope({ check_id: started.check_id });
};

type Texts = { name: string; description: string };

/** The check families (hk: the cn texts in traditional characters). */
const FAMILIES: Array<{ bit: number; en: Texts } & Texts> = [
  {
    bit: Bits.spelling,
    name: '字词错误',
    description: '同音、谐音、形近字',
    en: { name: 'Typos', description: 'Homophones, near-homophones, look-alike characters' },
  },
  {
    bit: Bits.wording,
    name: '语法错误',
    description: '遗漏、冗余、语序',
    en: { name: 'Grammar', description: 'Missing or redundant characters, word order' },
  },
  {
    bit: Bits.usage,
    name: '常见误用',
    description: '的/地/得、在/再、做/作等',
    en: { name: 'Common misuse', description: '的/地/得, 在/再, 做/作 and the like' },
  },
  {
    bit: Bits.sensitive,
    name: '敏感词',
    description: '内置敏感词、自定义与共享词库敏感词',
    en: { name: 'Sensitive words', description: 'Built-in, custom and shared-dictionary sensitive words' },
  },
  {
    bit: Bits.facts,
    name: '知识性错误',
    description: '地址、日期',
    en: { name: 'Factual errors', description: 'Addresses, dates' },
  },
  {
    bit: Bits.punctuation,
    name: '标点符号',
    description: 'GB/T 15834 标点规范',
    en: { name: 'Punctuation', description: 'GB/T 15834 punctuation rules' },
  },
  {
    bit: Bits.dictionary,
    name: '自定义词库',
    description: '自定义错词与重点词，含所用的团队共享词库',
    en: {
      name: 'Custom dictionary',
      description: "Your wrong words and key words, and the team's shared dictionaries",
    },
  },
  {
    bit: Bits.advanced,
    name: '高级校对',
    description: '领导人职务与姓名、金额大小写（需高级校对权益）',
    en: {
      name: 'Advanced proofreading',
      description: "Leaders' titles and names, amounts in words and figures (needs the advanced proofreading right)",
    },
  },
];

export const proofreadOperations: Operations = {
  postMisscutV1CheckText: checkText,
  postMisscutV2CheckText: checkText,

  postMisscutV1Cancel: async (request) => {
    const { uid } = await caller(request);
    const { check_id } = request.body;
    await checkService(request.server).cancel(uid, check_id);
    return envelope(null, '已取消');
  },

  getMisscutV1GetAllMistakesType: async (request) => {
    // spec §7: st_flag 1 asks for hk; otherwise the request's language
    const lang = Number(request.query?.st_flag) === 1 ? 'hk' : requestLang(request);
    return envelope({
      category_description: CATEGORIES.map((c) => [c.code, c[lang], c.level]),
      recommendation_level: LEVELS.map((l) => [l.level, null, l[lang]]),
      result_type: RESULT_TYPES.map((t) => [t.type, t[lang]]),
    });
  },

  getMisscutV1CheckFunctionGet: async (request) => {
    const { uid } = await caller(request);
    const advanced = (await rightBalance(request.server.db, uid, Right.advancedChecks)) > 0;
    const lang = requestLang(request);
    return envelope({
      default_options: ALL_STANDARD,
      functions: FAMILIES.map(({ en, ...f }) => ({
        ...f,
        ...localize(lang, { name: f.name, description: f.description }, { en }),
        categories: CATEGORIES.filter((c) => c.bit === f.bit).map((c) => c.code),
        enabled: (ALL_STANDARD & f.bit) !== 0,
        available: f.bit === Bits.advanced ? advanced : true,
      })),
    });
  },

  getMisscutV1Click: async (request) => {
    await request.server.limiters.clickAddress(request);
    const { uid } = await caller(request);
    await request.server.limiters.click(request, uid);
    const { click_type } = request.query as { click_type: number };
    await insertClick(request.server.db, { uid, click_type, created_at: nowIso() });
    return envelope(null);
  },

  postProofreadResultCollectReceive: async (request) => {
    await request.server.limiters.collectAddress(request);
    const { uid } = await caller(request);
    await request.server.limiters.collect(request, uid);
    const b = request.body;
    await insertFindingFeedback(request.server.db, {
      uid,
      action: b.action,
      check_id: b.check_id ?? null,
      original: b.original,
      suggestion: b.suggestion ?? null,
      category: b.category,
      context: b.context ?? null,
      comment: b.comment ?? null,
      created_at: nowIso(),
    });
    return envelope(null, '感谢反馈');
  },
};
