import { findRightRecordPage } from '../../db/repos/right-records';
import { envelope } from '../../errors';
import { listOrders, listProducts } from '../../services/orders';
import { requestLang } from '../../services/locale';
import { productNamer, purchaseProduct } from '../../services/product-names';
import { reasonText } from '../../services/right-reasons';
import { rightTitle } from '../../services/rights';
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
    const lang = requestLang(request);
    const { total, rows } = await findRightRecordPage(
      request.server.db,
      uid,
      { userRightType: user_right_type !== undefined ? Number(user_right_type) : undefined },
      { num: Number(num), size: Number(size) },
    );
    const product = purchaseProduct(await productNamer(request.server.db, lang));
    return envelope({
      total,
      num: Number(num),
      size: Number(size),
      list: rows.map((row) => ({
        id: Number(row.id),
        user_right_type: Number(row.user_right_type),
        title: rightTitle(Number(row.user_right_type), lang),
        num: Number(row.num),
        reason: reasonText(row, lang, product),
        created_at: row.created_at,
      })),
    });
  },
};
