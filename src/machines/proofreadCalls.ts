// Calls of the text proofreading screen, typed by the contract.
import { api, unwrap, type ResultOf } from '../api/client';
import type { components, paths } from '../../openapi/schema';

export interface CheckTextBody {
  text: string;
  checkMode: 3 | 4;
  checkOptions: number;
  lang: 'cn' | 'hk';
}

export function checkText(body: CheckTextBody, sessionId: string) {
  return unwrap(
    api.POST('/misscut/v1/check_text', {
      body,
      params: { header: { session: sessionId } },
    }),
  );
}

export function cancelCheck(checkId: string) {
  return unwrap(api.POST('/misscut/v1/cancel', { body: { check_id: checkId } }), { silent: true });
}

export async function fineProofreadingAvailable(): Promise<boolean> {
  const result = (await unwrap(api.GET('/user/v1/check/user_fine_proofreading_right', {}))) as {
    available?: boolean;
  } | null;
  return Boolean(result?.available);
}

/** The category, level and result-type tables of get_all_mistakes_type (rows of [code, label, ...]). */
export type MistakeTypes = ResultOf<
  paths['/misscut/v1/get_all_mistakes_type']['get']['responses'][200]['content']['application/json']
>;

export function mistakeTypes(hk: boolean) {
  return unwrap(api.GET('/misscut/v1/get_all_mistakes_type', { params: { query: { st_flag: hk ? 1 : 0 } } }), {
    silent: true,
  });
}

export interface CheckFunctions {
  default_options: number;
  functions: Array<{
    bit: number;
    name: string;
    description?: string;
    categories?: string[];
    enabled: boolean;
    available: boolean;
  }>;
}

export function checkFunctions() {
  return unwrap(api.GET('/misscut/v1/check_function/get', {}), { silent: true });
}

export interface Right {
  user_right_type: number;
  title: string;
  disposable_num: number;
  num_desc: string;
}

export function userRight(type: components['schemas']['UserRightType']) {
  return unwrap(api.GET('/user/v1/get_user_right', { params: { query: { user_right_type: type } } }), {
    silent: true,
  });
}

/** type 1 allowed word (never flagged), 5 wrong word (needs `correct`). */
export function addWord(word: string, type: 1 | 5, correct?: string) {
  return unwrap(api.POST('/dict/v1/add_one', { body: { word, type, ...(correct ? { correct } : {}) } }));
}

export function reportFeedback(body: {
  action: 'accept' | 'ignore' | 'false_alarm';
  original: string;
  category: string;
  check_id?: string;
  suggestion?: string;
  context?: string;
}) {
  return unwrap(api.POST('/proofread/result/collect/receive', { body: body }), { silent: true }).catch(() => undefined);
}
