import { readFileSync } from 'node:fs';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
// categories only: the engine itself (lexicons) lives in the checker workers
import { CATEGORY_BY_CODE, ALL_STANDARD, Bits } from '../../../engine/categories';
import type { Issue } from '../../../engine/types';
import { AppError } from '../../errors';
import { checkService, QuotaError } from '../../workers/checker/jobs';
import { ALLOWED } from '../../domain/dictionaries/dictionary';
import { nowIso } from '../../db';
import { addWordIfMissing, deleteWordOfType, findWordsOfType } from '../../db/repos/dictionary-words';
import { describeValidation } from '../../plugins/errors';
import { uidByApiKey } from './api-key';
import type { Handler, Operation, OperationId, Operations } from '../types';

const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/**
 * LanguageTool-compatible API (see README.md beside this file). Answers in LanguageTool's shapes, errors as
 * plain text with the HTTP status (not the envelope).
 */

/** Result types of dictionary hits: personal 4 / 5 / 9, the team's shared dictionaries 6 / 7 / 10. */
const DICTIONARY_TYPES = new Set([4, 5, 6, 7, 9, 10]);

/** LanguageTool-style category ids and the category codes they cover. */
export const LT_CATEGORIES: Record<string, { name: string; codes: (code: string, type?: number) => boolean }> = {
  TYPOS: { name: '字词错误', codes: (c) => c === '1' || c === '2' || c === '5' },
  GRAMMAR: {
    name: '语法与用法',
    codes: (c, t) => (c === '0' && t === undefined) || c === '3' || c === '4' || c === '7',
  },
  SENSITIVE: { name: '敏感词', codes: (c, t) => c.startsWith('8-') && t !== 4 && t !== 6 },
  FACTS: { name: '知识性错误', codes: (c) => c.startsWith('9-') },
  PUNCTUATION: { name: '标点符号', codes: (c) => c.startsWith('10-') },
  CUSTOM: { name: '自定义词库', codes: (c, t) => (t !== undefined && DICTIONARY_TYPES.has(t)) || c === '11' },
  ADVANCED: { name: '高级校对', codes: (c) => c.startsWith('12-') },
};

export function ltCategoryOf(issue: Pick<Issue, 'category' | 'type'>): string {
  for (const [id, def] of Object.entries(LT_CATEGORIES)) if (def.codes(issue.category, issue.type)) return id;
  return 'MISC';
}

/** `8` matches every 8-x; `8-2` exactly; `TYPOS` etc. by the table above. */
function categoryMatches(token: string, issue: Issue): boolean {
  const t = token.trim();
  if (!t) return false;
  const named = LT_CATEGORIES[t.toUpperCase()];
  if (named) return named.codes(issue.category, issue.type);
  return issue.category === t || issue.category.startsWith(`${t}-`);
}

export const ruleIdOf = (issue: Pick<Issue, 'category' | 'type'>) =>
  issue.type !== undefined && DICTIONARY_TYPES.has(issue.type)
    ? `ZH_CUSTOM_${issue.type}`
    : `ZH_${issue.category.replace('-', '_')}`;

const ISSUE_TYPES: Record<string, string> = {
  TYPOS: 'misspelling',
  GRAMMAR: 'grammar',
  SENSITIVE: 'style',
  FACTS: 'inconsistency',
  PUNCTUATION: 'typographical',
  CUSTOM: 'terminology',
  ADVANCED: 'inconsistency',
  MISC: 'uncategorized',
};

class LtError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** Errors of these calls: plain text, like LanguageTool. */
function ltErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  let status = error.statusCode ?? 500;
  let message = error.message;
  if (error.validation) {
    status = 400;
    const { field, problem } = describeValidation(error.validation, error.validationContext);
    message = `Error: invalid request: ${field} ${problem}`;
  } else if (status === 401 && !(error instanceof AppError) && !(error instanceof LtError)) {
    message = 'Error: authentication required (bearer token, or username + apiKey)';
  } else if (status >= 500) {
    _request.log.error({ err: error }, 'languagetool call failed');
    message = 'Error: internal error';
  }
  // an AppError's headers too: a 429 keeps its Retry-After in LanguageTool's plain-text shape
  if (error instanceof AppError) reply.headers(error.headers);
  return reply
    .code(status)
    .type('text/plain; charset=utf-8')
    .send(message.startsWith('Error') ? message : `Error: ${message}`);
}

/**
 * The caller of a word list call, rate-limited: without a bearer token per address before the API key is
 * looked up (no key guessing, no free hammering of the database), then per user.
 */
async function wordsCaller(request: FastifyRequest): Promise<number> {
  const { limiters } = request.server;
  if (!request.headers.authorization) await limiters.ltWordsAnonymous(request);
  const uid = await ltCaller(request);
  await limiters.ltWords(request, uid);
  return uid;
}

/** Bearer token, or username + apiKey (form fields or query). */
async function ltCaller(request: FastifyRequest): Promise<number> {
  if (request.headers.authorization) return (await request.server.authenticate(request)).uid;
  const fields = {
    ...(request.query as Record<string, string> | undefined),
    ...((request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, string>),
  };
  if (fields.username && fields.apiKey)
    return uidByApiKey(request.server.db, String(fields.username), String(fields.apiKey));
  throw new LtError(401, 'Error: authentication required (bearer token, or username + apiKey)');
}

interface Segment {
  plain: number;
  orig: number;
  length: number;
}

/** LanguageTool's `data` annotation: text parts are checked, markup skipped (or read as `interpretAs`). */
export function parseAnnotation(data: string): { text: string; map: (offset: number) => number } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw new LtError(400, '`data` is not valid JSON');
  }
  // `null` is valid JSON too
  const annotation = (parsed as { annotation?: unknown } | null)?.annotation;
  if (!Array.isArray(annotation)) throw new LtError(400, '`data` must be {"annotation": [...]}');
  let text = '';
  let orig = 0;
  const segments: Segment[] = [];
  for (const part of annotation as Array<{ text?: unknown; markup?: unknown; interpretAs?: unknown }>) {
    if (typeof part?.text === 'string') {
      segments.push({ plain: text.length, orig, length: part.text.length });
      text += part.text;
      orig += part.text.length;
    } else if (typeof part?.markup === 'string') {
      const as = typeof part.interpretAs === 'string' ? part.interpretAs : '';
      text += as;
      orig += part.markup.length;
    } else throw new LtError(400, 'every annotation part needs `text` or `markup`');
  }
  return {
    text,
    // the last segment starting at or before the offset, by binary search: a text of many small parts with many
    // matches must not cost parts × matches
    map: (offset) => {
      let lo = 0;
      let hi = segments.length - 1;
      let found = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (segments[mid].plain <= offset) {
          found = mid;
          lo = mid + 1;
        } else hi = mid - 1;
      }
      if (found < 0) return offset;
      const s = segments[found];
      return s.orig + Math.min(offset - s.plain, s.length);
    },
  };
}

const SENTENCE_ENDS = new Set(['。', '！', '？', '!', '?', '\n']);
/**
 * How far a match's sentence reaches on either side: a text without sentence ends would otherwise make every match
 * walk, and carry, the whole text (thousands of matches, each with a 100,000-character "sentence").
 */
export const SENTENCE_REACH = 200;

export function sentenceAround(text: string, start: number, end: number): string {
  let a = start;
  const floor = Math.max(0, start - SENTENCE_REACH);
  while (a > floor && !SENTENCE_ENDS.has(text[a - 1])) a--;
  let b = end;
  const ceiling = Math.min(text.length, end + SENTENCE_REACH);
  while (b < ceiling && !SENTENCE_ENDS.has(text[b])) b++;
  if (b < text.length && SENTENCE_ENDS.has(text[b]) && text[b] !== '\n') b++;
  return text.slice(a, b).trim();
}

const LANGUAGES = [
  { name: 'Chinese', code: 'zh', longCode: 'zh-CN' },
  { name: 'Chinese (Hong Kong, traditional)', code: 'zh', longCode: 'zh-HK' },
];

const withErrors = <K extends OperationId>(handler: Handler<K>): Operation<K> => ({
  handler,
  errorHandler: ltErrorHandler,
});

const list = (s?: string) =>
  (s ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

export const languagetoolOperations: Operations = {
  postV2Check: withErrors(async (request) => {
    const { limiters } = request.server;
    // calls without a token are counted per address before the API key is checked (no key guessing);
    // a 429 AppError becomes LanguageTool's plain-text error in ltErrorHandler
    if (!request.headers.authorization) await limiters.ltAnonymous(request);
    const uid = await ltCaller(request);
    await limiters.ltCheck(request, uid);
    const form = request.body;
    if (form.text === undefined && form.data === undefined) throw new LtError(400, 'missing `text` or `data`');
    const source = form.text ?? form.data!;
    const { text, map } =
      form.text !== undefined ? { text: form.text, map: (o: number) => o } : parseAnnotation(source);
    const hk = form.language === 'zh-HK';
    const enabled = list(form.enabledCategories);
    const disabled = list(form.disabledCategories);
    const enabledRules = list(form.enabledRules);
    const disabledRules = new Set(list(form.disabledRules));
    const enabledOnly = form.enabledOnly === 'true';
    if (enabledOnly && enabled.length === 0 && enabledRules.length === 0)
      throw new LtError(400, 'enabledOnly=true needs enabledCategories or enabledRules');
    const wantsAdvanced = enabled.some((t) => t.toUpperCase() === 'ADVANCED' || t.startsWith('12'));
    let issues: Issue[];
    try {
      issues = await checkService(request.server).checkNow({
        uid,
        text,
        mode: form.level === 'picky' ? 4 : 3,
        checkOptions: ALL_STANDARD | (wantsAdvanced ? Bits.advanced : 0),
        lang: hk ? 'hk' : 'cn',
      });
    } catch (error) {
      // over the plan's per-check ceiling (right 128): LanguageTool's own words for a text too long
      if (error instanceof AppError && error.msgCode === 'check.too_long') {
        const { max, total } = error.msgParams;
        throw new LtError(
          413,
          `Error: Your text exceeds the limit of ${max} characters (it's ${total} characters). ` +
            'Please submit a shorter text.',
        );
      }
      if (error instanceof QuotaError) throw new LtError(402, `Error: ${error.message}`);
      if (error instanceof AppError && error.statusCode === 403) throw new LtError(402, `Error: ${error.message}`);
      throw error;
    }
    const matches = issues
      .filter((i) => !disabled.some((t) => categoryMatches(t, i)) && !disabledRules.has(ruleIdOf(i)))
      .filter((i) => !enabledOnly || enabled.some((t) => categoryMatches(t, i)) || enabledRules.includes(ruleIdOf(i)))
      .sort((a, b) => a.start - b.start)
      .map((i) => {
        const category = ltCategoryOf(i);
        const label = CATEGORY_BY_CODE.get(i.category);
        const ctxStart = Math.max(0, i.start - 40);
        const ctxEnd = Math.min(text.length, i.end + 40);
        const offset = map(i.start);
        return {
          message: i.message,
          shortMessage: (hk ? label?.hk : label?.cn) ?? '',
          offset,
          length: map(i.end) - offset,
          replacements: i.suggestions.map((value) => ({ value })),
          context: { text: text.slice(ctxStart, ctxEnd), offset: i.start - ctxStart, length: i.end - i.start },
          sentence: sentenceAround(text, i.start, i.end),
          type: { typeName: category === 'TYPOS' ? 'UnknownWord' : i.level === 3 ? 'Hint' : 'Other' },
          rule: {
            id: ruleIdOf(i),
            description: label ? `${label.cn} (${label.en})` : i.category,
            issueType: ISSUE_TYPES[category] ?? 'uncategorized',
            category: { id: category, name: LT_CATEGORIES[category]?.name ?? '其他' },
          },
        };
      });
    const language = hk ? LANGUAGES[1] : LANGUAGES[0];
    return {
      software: { name: 'Proofreading Workbench', version, buildDate: '', apiVersion: 1, premium: false, status: '' },
      language: {
        name: language.name,
        code: language.longCode,
        detectedLanguage: { name: language.name, code: language.longCode, confidence: 1 },
      },
      matches,
    };
  }),

  getV2Languages: withErrors(async () => LANGUAGES),

  getV2Words: withErrors(async (request) => {
    const uid = await wordsCaller(request);
    const q = request.query;
    const words = await findWordsOfType(request.server.db, uid, ALLOWED, {
      limit: q.limit ?? 10,
      offset: q.offset ?? 0,
    });
    return { words };
  }),

  postV2WordsAdd: withErrors(async (request) => {
    const uid = await wordsCaller(request);
    const word = String(request.body.word).trim();
    if (!word || /\s/.test(word)) throw new LtError(400, '`word` must be one word without spaces');
    const now = nowIso();
    const added = await addWordIfMissing(request.server.db, {
      uid,
      word,
      type: ALLOWED,
      correct: null,
      created_at: now,
      updated_at: now,
    });
    return { added };
  }),

  postV2WordsDelete: withErrors(async (request) => {
    const uid = await wordsCaller(request);
    const word = String(request.body.word).trim();
    return { deleted: await deleteWordOfType(request.server.db, uid, ALLOWED, word) };
  }),
};
