import { envelope } from '../../errors';
import { rightView, rightViews, Right } from '../../domain/rights/ledger';
import { localizeText, requestLang, type Lang } from '../../domain/locale';
import { openUser } from '../../domain/accounts/accounts';
import { caller, type Operations } from '../types';

/** The plan a role reads as (hk: the cn name in traditional characters). */
function planName(role: string, lang: Lang): string {
  if (role === 'free') return localizeText(lang, '免费版', { en: 'Free' });
  if (role === 'root' || role === 'admin') return localizeText(lang, '管理员', { en: 'Administrator' });
  return localizeText(lang, '团队版', { en: 'Team' });
}

export const rightsOperations: Operations = {
  getUserV1GetUserRight: async (request) => {
    const { uid } = await caller(request);
    const { user_right_type } = request.query;
    return envelope(await rightView(request.server.db, uid, Number(user_right_type), requestLang(request)));
  },

  getUserV1GetUserRightDetail: async (request) => {
    const { uid } = await caller(request);
    const user = await openUser(request.server.db, uid);
    const lang = requestLang(request);
    const rights = await rightViews(request.server.db, uid, undefined, lang);
    const role = user?.role ?? 'free';
    const expiries = rights
      .map((r) => r.expire_time)
      .filter((e): e is string => !!e)
      .sort();
    return envelope({
      role,
      plan_name: planName(role, lang),
      expire_time: expiries.length ? expiries[expiries.length - 1] : null,
      rights,
    });
  },

  getUserV1CheckUserFineProofreadingRight: async (request) => {
    const { uid } = await caller(request);
    const right = await rightView(request.server.db, uid, Right.fineChars);
    return envelope({ available: right.disposable_num > 0, disposable_num: right.disposable_num });
  },

  getUserCheckWordsNum: async (request) => {
    const { uid } = await caller(request);
    const [words, max] = await rightViews(request.server.db, uid, [1, 32], requestLang(request));
    return envelope({ words_num: words.disposable_num, max_text: max.disposable_num, num_desc: words.num_desc });
  },
};
