import { envelope } from '../../errors';
import { listOrders, listProducts } from '../../domain/commerce/orders';
import { requestLang } from '../../domain/locale';
import { rightHistory } from '../../domain/rights/ledger';
import { caller, type Operations } from '../types';

/** Products, orders and the rights history, written in the caller's language. */
export const commerceRightsOperations: Operations = {
  getUserRightProductGetList: async (request) => {
    await caller(request);
    const { type, belong_to } = request.query;
    return envelope(await listProducts(request.server.db, { type, belong_to }, requestLang(request)));
  },

  getUserRightProductV1DisplayProfessionalVersion: async (request) => {
    await caller(request);
    const personalPlans = await listProducts(request.server.db, { type: 1, belong_to: 1 });
    return envelope({ display: personalPlans.length > 0 });
  },

  getUserRightOrderV1GetList: async (request) => {
    const { uid } = await caller(request);
    const { num = 1, size = 20 } = request.query;
    return envelope(await listOrders(request.server.db, uid, Number(num), Number(size), requestLang(request)));
  },

  getUserRightConsumptionRecordPage: async (request) => {
    const { uid } = await caller(request);
    const { num = 1, size = 20, user_right_type } = request.query;
    const type = user_right_type !== undefined ? Number(user_right_type) : undefined;
    const page = { num: Number(num), size: Number(size) };
    const { total, list } = await rightHistory(request.server.db, uid, type, page, requestLang(request));
    return envelope({ total, num: page.num, size: page.size, list });
  },
};
