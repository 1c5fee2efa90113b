// The pricing page with WeChat Pay configured (the browser test covers the unconfigured server): the QR code of
// the order's code_url, the polled order turning paid, and an expired QR code replaced. The API answers come
// from the server's own code (catalogue via productView), served by a fake transport.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { configureApi } from '../../src/api/client';
import { SEED_PRODUCTS } from '../../server/db/seed-products';
import { productView } from '../../server/domain/commerce/orders';
import { PAYMENT_POLL_MS } from '../../src/machines/payment';
import { renderApp, TEST_USER } from './helpers';

afterEach(cleanup);
// The order is polled every PAYMENT_POLL_MS: the clock is moved on instead of waited for (it still runs, so the
// rendering and the fake transport's promises go on as usual).
beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => vi.useRealTimers());
const nextPoll = () => vi.advanceTimersByTimeAsync(PAYMENT_POLL_MS);

const catalogue = SEED_PRODUCTS.map((p, i) =>
  productView({
    ...p,
    id: i + 1,
    recommended: p.recommended ? 1 : 0,
    on_sale: 1,
    rights: JSON.stringify(p.rights),
    created_at: '',
    updated_at: '',
  }),
);

function payServer(orderStatuses: string[]) {
  const requests: string[] = [];
  let orders = 0;
  const ok = (result: unknown) =>
    new Response(JSON.stringify({ code: 200, msg: 'success', result }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  const prepay = () => {
    orders++;
    return ok({
      order_no: `WB2026112320000${orders}abcdef`,
      code_url: `weixin://wxpay/bizpayurl?pr=order${orders}`,
      amount: 1990,
      expire_at: '2026-11-23T14:00:00.000Z',
      configured: true,
    });
  };
  configureApi({
    baseURL: '',
    fetch: async (request: Request) => {
      const url = new URL(request.url);
      requests.push(`${request.method} ${url.pathname}${url.search}`);
      switch (url.pathname) {
        case '/user/user_info':
          return ok(TEST_USER);
        case '/pay/wx/config':
          return ok({ configured: true, provider: 'wechat' });
        case '/user/right_product/get_list':
          return ok(catalogue);
        case '/pay/wx/native_prepay':
        case '/pay/wx/qrcode/refresh':
          return prepay();
        case '/pay/wx/order':
          return ok({
            order_no: 'x',
            product_id: 3,
            product_name: '字数包 100 万字',
            amount: 1990,
            status: orderStatuses.shift() ?? 'pending',
            created_at: '2026-11-23T12:00:00.000Z',
          });
        default:
          return new Response(JSON.stringify({ code: 501, msg: '该功能尚未开放', result: null }), {
            status: 501,
            headers: { 'content-type': 'application/json' },
          });
      }
    },
  });
  return { requests };
}

describe('pricing page with WeChat Pay configured', () => {
  it('shows the QR code of the order, polls it and says when it is paid', async () => {
    renderApp({ path: '/upgrade' });
    const server = payServer(['pending', 'paid']);
    const card = (await screen.findAllByTestId('product-card')).find(
      (c) => c.getAttribute('data-code') === 'words_1m',
    )!;
    expect(screen.queryByTestId('pay-not-configured')).toBeNull();
    expect(within(card).getByTestId('product-price').textContent).toBe('¥19.90');
    fireEvent.click(within(card).getByTestId('product-buy'));
    const qr = await screen.findByTestId('payment-qr');
    expect(server.requests).toContain('GET /pay/wx/native_prepay?product_id=3');
    // the QR code is drawn (an SVG path of dark modules) and labelled
    const frame = within(qr).getByRole('img', { name: '微信支付二维码' });
    expect(frame.querySelector('path')?.getAttribute('d')?.length ?? 0).toBeGreaterThan(100);
    expect(qr.textContent).toContain('¥19.90');
    await nextPoll();
    expect(screen.queryByTestId('payment-paid')).toBeNull();
    await nextPoll();
    await screen.findByTestId('payment-paid');
    expect(
      server.requests.filter((r) => r.startsWith('GET /pay/wx/order?order_no=WB20261123200001abcdef')),
    ).toHaveLength(2);
  }, 15_000);

  it('replaces an expired QR code with a new order on request', async () => {
    renderApp({ path: '/upgrade' });
    const server = payServer(['closed']);
    const buttons = await screen.findAllByTestId('product-buy');
    fireEvent.click(buttons[0]);
    await screen.findByTestId('payment-qr');
    await nextPoll();
    await screen.findByTestId('payment-expired');
    fireEvent.click(screen.getByTestId('payment-refresh'));
    await waitFor(() =>
      expect(server.requests).toContain('GET /pay/wx/qrcode/refresh?order_no=WB20261123200001abcdef'),
    );
    await waitFor(() => expect(screen.queryByTestId('payment-expired')).toBeNull());
    expect(within(screen.getByTestId('payment-qr')).getByRole('img', { name: '微信支付二维码' })).toBeTruthy();
  }, 15_000);
});
