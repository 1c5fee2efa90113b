// The pricing page's payment bindings, apart from live.ts so that they load with the screen, not with the app.
import { fromPromise } from 'xstate';
import * as commerce from '../api/commerce';
import { paymentMachine } from './payment';

/** Buying a product (pricing page): the pay calls; `onPaid` refreshes rights and orders. */
export function livePayment(options: { onPaid?: () => void } = {}) {
  return paymentMachine.provide({
    actors: {
      prepay: fromPromise(({ input }) => commerce.nativePrepay(input.productId)),
      refresh: fromPromise(({ input }) => commerce.refreshQrCode(input.orderNo)),
      'check order': fromPromise(({ input }) => commerce.payOrder(input.orderNo, { silent: true })),
    },
    actions: {
      paid: () => options.onPaid?.(),
    },
  });
}
