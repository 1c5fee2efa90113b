import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import {
  badRequest,
  AppError,
  conflict,
  envelope,
  notFound,
  notImplemented,
  internalError,
  tooLarge,
} from '../../errors';
import { renderMessage } from '../../../openapi/messages';
import {
  createOrder,
  checkOrderBurst,
  findOwnOrder,
  markOrderPaid,
  OrderProblem,
  closedIfExpired,
  closePendingOrder,
  orderableProduct,
  setOrderCodeUrl,
  orderView,
  type OrderRow,
} from '../../domain/commerce/orders';
import { GatewayError, NotificationError } from '../../domain/commerce/pay/provider';
import { requestLang } from '../../domain/locale';
import { productNamer } from '../../domain/commerce/product-names';
import { caller, type OperationRequest, type Operations } from '../types';

const NOT_CONFIGURED = 'pay.not_configured' as const;
/** A QR code this close to expiry is replaced rather than shown again. */
const MIN_QR_LIFE_MS = 60_000;

function prepayResult(order: OrderRow, configured: boolean) {
  return {
    order_no: order.order_no,
    code_url: configured ? (order.code_url ?? '') : '',
    amount: Number(order.amount),
    expire_at: order.expire_at,
    configured,
  };
}

/** Creates the gateway's QR code for a new order; the order is closed again when the gateway fails. */
async function prepay(request: FastifyRequest, order: OrderRow): Promise<OrderRow> {
  const provider = request.server.payment;
  if (!provider) return order;
  try {
    const { codeUrl } = await provider.nativePrepay({
      orderNo: order.order_no,
      description: order.product_name,
      amount: Number(order.amount),
      expireAt: new Date(order.expire_at),
    });
    await setOrderCodeUrl(request.server.db, order.order_no, codeUrl);
    return { ...order, code_url: codeUrl };
  } catch (err) {
    await closePendingOrder(request.server.db, order.order_no);
    if (err instanceof GatewayError) {
      request.log.error({ err }, 'WeChat Pay prepay failed');
      throw internalError('pay.order_failed');
    }
    throw err;
  }
}

/** The caller's order (404 for an unknown one and for another user's); a pending order past its expiry is closed. */
async function ownOrder(request: OperationRequest<'getPayWxQrcodeRefresh' | 'getPayWxOrder'>): Promise<OrderRow> {
  const { uid } = await caller(request);
  const { order_no } = request.query;
  const order = await findOwnOrder(request.server.db, uid, order_no);
  if (!order) throw notFound('pay.unknown_order');
  return order;
}

export const payOperations: Operations = {
  getPayWxConfig: async (request) => {
    await caller(request);
    return envelope({ configured: request.server.payment !== null, provider: request.server.payment?.name ?? null });
  },

  getPayWxNativePrepay: async (request) => {
    const { uid } = await caller(request);
    const { product_id, quantity = 1 } = request.query;
    const product = await orderableProduct(request.server.db, Number(product_id));
    await checkOrderBurst(request.server.db, uid);
    // Without a provider the order is still created: an administrator can confirm it (admin CLI `order paid`).
    const order = await createOrder(request.server.db, uid, product, Number(quantity), 'wechat');
    const ready = await prepay(request, order);
    return envelope(
      prepayResult(ready, request.server.payment !== null),
      request.server.payment ? 'success' : renderMessage(NOT_CONFIGURED),
    );
  },

  getPayWxQrcodeRefresh: async (request) => {
    const { uid } = await caller(request);
    const order = await ownOrder(request);
    if (order.status === 'paid') throw conflict('pay.already_paid');
    if (order.status === 'refunded') throw conflict('pay.refunded');
    const provider = request.server.payment;
    if (!provider) return envelope(prepayResult(order, false), renderMessage(NOT_CONFIGURED));
    if (order.status === 'pending' && order.code_url && Date.parse(order.expire_at) - Date.now() > MIN_QR_LIFE_MS) {
      return envelope(prepayResult(order, true));
    }
    // The old QR code is spent: close that order (here and at the gateway) and start a new one.
    await closePendingOrder(request.server.db, order.order_no);
    await provider.closeOrder(order.order_no).catch((err) => request.log.warn({ err }, 'WeChat Pay close failed'));
    const product = await orderableProduct(request.server.db, Number(order.product_id));
    await checkOrderBurst(request.server.db, uid);
    const fresh = await prepay(
      request,
      await createOrder(request.server.db, uid, product, Number(order.quantity), 'wechat'),
    );
    return envelope(prepayResult(fresh, true));
  },

  getPayWxOrder: async (request) => {
    let order = await ownOrder(request);
    const provider = request.server.payment;
    if (order.status === 'pending' && provider) {
      // The fallback when a notification is late or lost: ask the gateway.
      try {
        const state = await provider.queryOrder(order.order_no);
        if (state.state === 'SUCCESS') {
          order = (
            await markOrderPaid(request.server.db, order.order_no, {
              payType: 'wechat',
              transactionId: state.transactionId,
              amount: state.amount,
              paidAt: state.paidAt,
            })
          ).order;
        }
      } catch (err) {
        if (err instanceof OrderProblem && err.kind === 'amount')
          request.log.error({ err, order_no: order.order_no }, 'payment amount refused');
        else request.log.warn({ err }, 'WeChat Pay order query failed');
      }
    }
    order = await closedIfExpired(request.server.db, order);
    return envelope(orderView(order, await productNamer(request.server.db, requestLang(request))));
  },

  postPayWxNotify: {
    // The signature covers the exact bytes: keep them before the JSON parser runs.
    preParsing: async (
      request: FastifyRequest,
      _reply: unknown,
      payload: NodeJS.ReadableStream & { receivedEncodedLength?: number },
    ) => {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of payload) {
        const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
        size += buf.length;
        if (size > 1024 * 1024) throw tooLarge('request.body_too_large');
        chunks.push(buf);
      }
      const raw = Buffer.concat(chunks);
      (request as FastifyRequest & { rawBody?: string }).rawBody = raw.toString('utf8');
      const copy = Readable.from([raw]) as Readable & { receivedEncodedLength?: number };
      copy.receivedEncodedLength = raw.length;
      return copy;
    },
    handler: async (request, reply) => {
      const provider = request.server.payment;
      if (!provider) throw notImplemented(NOT_CONFIGURED);
      const raw = (request as FastifyRequest & { rawBody?: string }).rawBody ?? '';
      const h = (name: string) => {
        const v = request.headers[name];
        return Array.isArray(v) ? v[0] : v;
      };
      let state;
      try {
        state = provider.parseNotification(
          {
            timestamp: h('wechatpay-timestamp'),
            nonce: h('wechatpay-nonce'),
            signature: h('wechatpay-signature'),
            serial: h('wechatpay-serial'),
          },
          raw,
        );
      } catch (err) {
        if (err instanceof NotificationError) {
          request.log.warn({ err }, 'WeChat Pay notification refused');
          throw new AppError(401, 'pay.notify_invalid', { reason: err.message });
        }
        throw err;
      }
      if (state.state === 'SUCCESS') {
        try {
          const result = await markOrderPaid(request.server.db, state.orderNo, {
            payType: 'wechat',
            transactionId: state.transactionId,
            amount: state.amount,
            paidAt: state.paidAt,
          });
          if (result.changed) request.log.info({ order_no: state.orderNo }, 'order paid');
        } catch (err) {
          if (err instanceof OrderProblem) {
            // a signed notification whose amount is missing or wrong is the gateway's fault or an attack: an
            // operator must look at it
            if (err.kind === 'amount') request.log.error({ err, order_no: state.orderNo }, 'payment amount refused');
            throw err.kind === 'unknown'
              ? notFound('pay.unknown_order')
              : err.kind === 'refunded'
                ? badRequest('pay.refunded')
                : badRequest('pay.notify_amount', { reason: err.message });
          }
          throw err;
        }
      }
      return reply.code(200).send();
    },
  },
};
