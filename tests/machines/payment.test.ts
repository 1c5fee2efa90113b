// Model-based test of buying with WeChat Pay Native: an abstract model of what the buyer sees,
// whose paths drive the REAL live payment machine (livePayment: the real pay calls through the API client).
// Only the transport is fake: a fetch answering the pay calls as the server would.
import { afterAll, describe, expect, it } from 'vitest';
import { assign, createActor, setup, SimulatedClock } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { modelOptions } from './model';
import { configureApi } from '../../src/api/client';
import { livePayment } from '../../src/machines/live-payment';
import { PAYMENT_POLL_MS } from '../../src/machines/payment';
import { collectNotices, fakeFetch, freshStores } from '../api/helpers';

type Shown = 'qr' | 'not configured';

const model = setup({
  types: {} as {
    context: { shown: Shown; orders: number };
    events:
      | { type: 'BUY_CONFIGURED' }
      | { type: 'BUY_NOT_CONFIGURED' }
      | { type: 'BUY_FAILS' }
      | { type: 'POLL_PENDING' }
      | { type: 'POLL_NETWORK_DOWN' }
      | { type: 'POLL_PAID' }
      | { type: 'POLL_CLOSED' }
      | { type: 'REFRESH' }
      | { type: 'RETRY' }
      | { type: 'CLOSE' };
  },
}).createMachine({
  id: 'paymentModel',
  context: { shown: 'qr', orders: 0 },
  initial: 'idle',
  on: { CLOSE: { target: '.idle', actions: assign({ orders: 0 }) } },
  states: {
    idle: {
      on: {
        BUY_CONFIGURED: { target: 'awaiting', actions: assign({ shown: 'qr', orders: 1 }) },
        BUY_NOT_CONFIGURED: { target: 'awaiting', actions: assign({ shown: 'not configured', orders: 1 }) },
        BUY_FAILS: { target: 'failed' },
      },
    },
    awaiting: {
      on: {
        POLL_PENDING: { target: 'awaiting' },
        POLL_NETWORK_DOWN: { target: 'awaiting' },
        POLL_PAID: { target: 'paid' },
        POLL_CLOSED: { target: 'expired' },
        // a new QR code (a new order once the old one expired) — counted up to 2 to keep the model finite
        REFRESH: { target: 'awaiting', actions: assign({ orders: ({ context }) => Math.min(context.orders + 1, 2) }) },
      },
    },
    expired: {
      on: {
        REFRESH: { target: 'awaiting', actions: assign({ orders: ({ context }) => Math.min(context.orders + 1, 2) }) },
      },
    },
    paid: {},
    failed: {
      on: { RETRY: { target: 'awaiting', actions: assign({ shown: 'qr', orders: 1 }) } },
    },
  },
});

const { notices, unsubscribe } = collectNotices();
afterAll(unsubscribe);

function harness() {
  freshStores();
  notices.length = 0;
  let next = 0;
  const prepay = (configured: boolean) => {
    next++;
    const order_no = `WB2026112300000${next}`;
    return {
      body: {
        code: 200,
        msg: configured ? 'success' : '微信支付未配置',
        result: {
          order_no,
          code_url: configured ? `weixin://wxpay/bizpayurl?pr=${next}` : '',
          amount: 1990,
          expire_at: '2026-11-23T22:00:00.000Z',
          configured,
        },
      },
    };
  };
  const order = (status: string) => ({
    body: {
      code: 200,
      msg: 'success',
      result: {
        order_no: 'x',
        product_id: 1,
        product_name: 'p',
        amount: 1990,
        status,
        created_at: '2026-11-23T20:00:00.000Z',
      },
    },
  });
  const clock = new SimulatedClock();
  let paidCalls = 0;
  const actor = createActor(livePayment({ onPaid: () => paidCalls++ }), { clock });
  actor.start();
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return { actor, clock, prepay, order, settle, paidCalls: () => paidCalls };
}

describe('payment (model-based)', () => {
  const testModel = createTestModel(model, modelOptions);
  const shortest = testModel.getShortestPaths({ allowDuplicatePaths: true });

  it('has enough paths to cover the flow', () => {
    expect(shortest.length).toBeGreaterThanOrEqual(15);
  });

  for (const path of shortest) {
    it(path.description, async () => {
      const h = harness();
      // the routes of the fake server, changed by each event before it happens
      const routes: Record<string, { status?: number; body?: unknown; networkDown?: boolean }> = {};
      const transport = fakeFetch(routes);
      configureApi({ baseURL: 'http://api.test', fetch: transport.fetch });
      const calls = (p: string) => transport.requests.filter((r) => new URL(r.url).pathname === p).length;
      const orderNos = new Set<string>();
      let expectedPaid = 0;
      const poll = async (answer: { status?: number; body?: unknown; networkDown?: boolean }) => {
        routes['GET /pay/wx/order'] = answer;
        const before = calls('/pay/wx/order');
        h.clock.increment(PAYMENT_POLL_MS);
        await h.settle();
        await h.settle();
        expect(calls('/pay/wx/order')).toBe(before + 1);
      };
      await path.test({
        events: {
          BUY_CONFIGURED: async () => {
            routes['GET /pay/wx/native_prepay'] = h.prepay(true);
            h.actor.send({ type: 'buy', productId: 3 });
            await h.settle();
          },
          BUY_NOT_CONFIGURED: async () => {
            routes['GET /pay/wx/native_prepay'] = h.prepay(false);
            h.actor.send({ type: 'buy', productId: 3 });
            await h.settle();
          },
          BUY_FAILS: async () => {
            routes['GET /pay/wx/native_prepay'] = {
              status: 500,
              body: { code: 500, msg: '微信支付下单失败，请稍后再试', result: null },
            };
            h.actor.send({ type: 'buy', productId: 3 });
            await h.settle();
          },
          RETRY: async () => {
            routes['GET /pay/wx/native_prepay'] = h.prepay(true);
            h.actor.send({ type: 'retry' });
            await h.settle();
          },
          POLL_PENDING: () => poll(h.order('pending')),
          POLL_NETWORK_DOWN: () => poll({ networkDown: true }),
          POLL_PAID: async () => {
            expectedPaid++;
            await poll(h.order('paid'));
          },
          POLL_CLOSED: () => poll(h.order('closed')),
          REFRESH: async () => {
            // the server's configuration does not change: it answers like the first time
            routes['GET /pay/wx/qrcode/refresh'] = h.prepay(h.actor.getSnapshot().context.prepay!.configured);
            h.actor.send({ type: 'refresh' });
            await h.settle();
          },
          CLOSE: () => {
            h.actor.send({ type: 'close' });
          },
        },
        states: {
          idle: async () => {
            const s = h.actor.getSnapshot();
            expect(s.value).toBe('idle');
            expect(s.context.prepay).toBeNull();
            // closed: no more polling
            const before = calls('/pay/wx/order');
            h.clock.increment(PAYMENT_POLL_MS * 3);
            await h.settle();
            expect(calls('/pay/wx/order')).toBe(before);
          },
          awaiting: (state) => {
            const s = h.actor.getSnapshot();
            expect(s.matches('awaiting')).toBe(true);
            const prepay = s.context.prepay!;
            expect(prepay.configured).toBe(state.context.shown === 'qr');
            expect(prepay.code_url === '').toBe(state.context.shown === 'not configured');
            orderNos.add(prepay.order_no);
            // every refresh shows the order the server answered (a new one after expiry)
            expect(orderNos.size).toBeGreaterThanOrEqual(state.context.orders);
          },
          expired: () => {
            expect(h.actor.getSnapshot().value).toBe('expired');
          },
          paid: () => {
            expect(h.actor.getSnapshot().value).toBe('paid');
            expect(h.paidCalls()).toBe(expectedPaid);
          },
          failed: () => {
            const s = h.actor.getSnapshot();
            expect(s.value).toBe('failed');
            expect(s.context.error).toBe('微信支付下单失败，请稍后再试');
          },
        },
      });
      h.actor.stop();
    });
  }
});
