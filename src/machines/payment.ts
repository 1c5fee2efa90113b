// Buying a product with WeChat Pay Native: create the order and its QR code, poll the order
// until it is paid, replace an expired QR code, and say when payment is not configured (the order then waits
// for an administrator's confirmation, and is still polled).
import { assign, fromPromise, setup } from 'xstate';
import { mustProvide } from './provide';

export const PAYMENT_POLL_MS = 2000;

export interface PrepayResult {
  order_no: string;
  code_url: string;
  amount: number;
  expire_at: string;
  configured: boolean;
}

export interface OrderState {
  order_no: string;
  status: 'pending' | 'paid' | 'closed' | 'refunded';
}

export interface PaymentContext {
  productId: number | null;
  prepay: PrepayResult | null;
  error: string | null;
}

export type PaymentEvent =
  { type: 'buy'; productId: number } | { type: 'refresh' } | { type: 'retry' } | { type: 'close' };

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : '系统异常');

export const paymentMachine = setup({
  types: {
    context: {} as PaymentContext,
    events: {} as PaymentEvent,
  },
  actors: {
    /** GET /pay/wx/native_prepay */
    prepay: fromPromise<PrepayResult, { productId: number }>(() => mustProvide('payment', 'prepay')),
    /** GET /pay/wx/qrcode/refresh (may answer a new order) */
    refresh: fromPromise<PrepayResult, { orderNo: string }>(() => mustProvide('payment', 'refresh')),
    /** GET /pay/wx/order */
    'check order': fromPromise<OrderState, { orderNo: string }>(() => mustProvide('payment', 'check order')),
  },
  actions: {
    /** The order is paid: refresh what shows rights and orders. */
    paid: () => {},
  },
  delays: {
    poll: PAYMENT_POLL_MS,
  },
}).createMachine({
  id: 'payment',
  context: { productId: null, prepay: null, error: null },
  initial: 'idle',
  on: {
    close: { target: '.idle', actions: assign({ productId: null, prepay: null, error: null }) },
  },
  states: {
    idle: {
      on: {
        buy: {
          target: 'creating',
          actions: assign({ productId: ({ event }) => event.productId, prepay: null, error: null }),
        },
      },
    },
    creating: {
      invoke: {
        src: 'prepay',
        input: ({ context }) => ({ productId: context.productId! }),
        onDone: { target: 'awaiting', actions: assign({ prepay: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
      },
    },
    // The QR code is shown (or, not configured, the order number) while the order is polled.
    awaiting: {
      initial: 'waiting',
      on: { refresh: 'refreshing' },
      states: {
        waiting: { after: { poll: 'checking' } },
        checking: {
          invoke: {
            src: 'check order',
            input: ({ context }) => ({ orderNo: context.prepay!.order_no }),
            onDone: [
              { guard: ({ event }) => event.output.status === 'paid', target: '#payment.paid' },
              { guard: ({ event }) => event.output.status !== 'pending', target: '#payment.expired' },
              { target: 'waiting' },
            ],
            // A failed poll (network) is retried at the next tick.
            onError: { target: 'waiting' },
          },
        },
      },
    },
    expired: {
      on: { refresh: 'refreshing' },
    },
    refreshing: {
      invoke: {
        src: 'refresh',
        input: ({ context }) => ({ orderNo: context.prepay!.order_no }),
        onDone: { target: 'awaiting', actions: assign({ prepay: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
      },
    },
    paid: {
      entry: 'paid',
    },
    failed: {
      on: {
        retry: {
          target: 'creating',
          guard: ({ context }) => context.productId !== null,
          actions: assign({ error: null, prepay: null }),
        },
      },
    },
  },
});
