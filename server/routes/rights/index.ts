import { findOpenUser } from '../../db/repos/users';
import { envelope } from '../../errors';
import { rightView, rightViews } from '../../services/rights';
import { caller, type Operations } from '../types';

export const rightsOperations: Operations = {
  getUserV1GetUserRight: async (request) => {
    const { uid } = await caller(request);
    const { user_right_type } = request.query;
    return envelope(await rightView(request.server.db, uid, Number(user_right_type)));
  },

  getUserV1GetUserRightDetail: async (request) => {
    const { uid } = await caller(request);
    const user = await findOpenUser(request.server.db, uid);
    const rights = await rightViews(request.server.db, uid);
    const role = user?.role ?? 'free';
    const expiries = rights
      .map((r) => r.expire_time)
      .filter((e): e is string => !!e)
      .sort();
    return envelope({
      role,
      plan_name: role === 'free' ? '免费版' : role === 'root' || role === 'admin' ? '管理员' : '团队版',
      expire_time: expiries.length ? expiries[expiries.length - 1] : null,
      rights,
    });
  },

  getUserV1CheckUserFineProofreadingRight: async (request) => {
    const { uid } = await caller(request);
    const right = await rightView(request.server.db, uid, 8192);
    return envelope({ available: right.disposable_num > 0, disposable_num: right.disposable_num });
  },

  getUserCheckWordsNum: async (request) => {
    const { uid } = await caller(request);
    const [words, max] = await rightViews(request.server.db, uid, [1, 32]);
    return envelope({ words_num: words.disposable_num, max_text: max.disposable_num, num_desc: words.num_desc });
  },
};
