// Every screen that shows a right's balance or limit shows it through the one formatter: grouped, with the unit in
// the reader's language, and an operator's unlimited rights as 不限 / Unlimited, never 999,999,…
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { renderApp, type FakeHandler } from './helpers';
import { SEED_PRODUCTS } from '../../server/db/seed-products';
import { productView } from '../../server/domain/commerce/orders';

afterEach(cleanup);

const UNLIMITED = 1_000_000_000;
const json = (result: unknown) =>
  new Response(JSON.stringify({ code: 200, msg: 'success', result }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
const LIMITS: Record<number, number> = { 32: 200_000, 64: 1_000_000, 128: 200_000, 262144: 200, 524288: 20 };
// what the server answers an operator: every consumable right unlimited (UNLIMITED however much was used)
const operatorRight = (type: number) => ({
  user_right_type: type,
  title: '权益',
  disposable_num: LIMITS[type] ?? UNLIMITED,
  num_desc: LIMITS[type] ? `${LIMITS[type]}字` : '不限',
  total_num: LIMITS[type] ?? UNLIMITED,
  expire_time: null,
});
const TYPES = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 65536, 262144, 524288];
const operator: Record<string, FakeHandler> = {
  'GET /user/v1/get_user_right': (r) =>
    json(operatorRight(Number(new URLSearchParams(r.search).get('user_right_type')))),
  'GET /user/v1/get_user_right_detail': () => json({ role: 'admin', rights: TYPES.map(operatorRight) }),
  'GET /user/right_consumption_record/page': () => json({ list: [], total: 0, num: 1, size: 10 }),
  'GET /user/right_order/v1/get_list': () => json({ list: [], total: 0, num: 1, size: 10 }),
  'GET /gpt/v1/chat/function': () => json({ available: true, functions: [{ id: 'polish', name: '润色' }] }),
};
const never999 = (text: string | null | undefined) => expect(text ?? '').not.toMatch(/99{5}/);

describe('balances of an operator with unlimited rights', () => {
  it('home: 不限, and Unlimited in English', async () => {
    renderApp({ path: '/', handlers: operator });
    await waitFor(() => expect(screen.getByTestId('quota-remaining').textContent).toContain('不限'));
    cleanup();
    renderApp({ path: '/', handlers: operator, locale: 'en' });
    await waitFor(() => expect(screen.getByTestId('quota-remaining').textContent).toContain('Unlimited'));
    never999(screen.getByTestId('quota-remaining').textContent);
  });

  it('/right: every consumable right reads 不限, the limits are grouped numbers with their units', async () => {
    renderApp({ path: '/right', handlers: operator });
    await waitFor(() => expect(screen.getAllByTestId('right-amount')).toHaveLength(TYPES.length));
    const amounts = screen.getAllByTestId('right-amount').map((e) => e.textContent);
    for (const a of amounts) never999(a);
    expect(amounts.filter((a) => a === '不限')).toHaveLength(TYPES.length - Object.keys(LIMITS).length);
    expect(amounts).toEqual(expect.arrayContaining(['200,000 字', '1,000,000 字', '200 页', '20 MB']));
  });

  it('/redemption: the balance reads 不限', async () => {
    renderApp({ path: '/redemption', handlers: operator });
    await waitFor(() => expect(screen.getByTestId('redemption-balance').textContent).toContain('不限'));
    never999(screen.getByTestId('redemption-balance').textContent);
  });

  it('/ai: what is left of AI writing reads Unlimited in English', async () => {
    renderApp({ path: '/ai', handlers: operator, locale: 'en' });
    await waitFor(() => expect(document.body.textContent).toContain('Unlimited'));
    never999(document.body.textContent);
  });

  it('/diff: compares left and the limits per file, in the language', async () => {
    renderApp({ path: '/diff', handlers: operator, locale: 'en' });
    await waitFor(() => expect(screen.getByTestId('diff-limits').textContent).toContain('Unlimited'));
    expect(screen.getByTestId('diff-limits').textContent).toContain('200 pages');
    expect(screen.getByTestId('diff-limits').textContent).toContain('20 MB');
  });
});

describe('the rights of the products on /upgrade', () => {
  it('read with units in the language, an unlimited right as Unlimited', async () => {
    const catalogue = SEED_PRODUCTS.map((p, i) =>
      productView({
        ...p,
        id: i + 1,
        recommended: p.recommended ? 1 : 0,
        on_sale: 1,
        rights: JSON.stringify(i === 0 ? [...p.rights, { user_right_type: 4096, num: UNLIMITED }] : p.rights),
        created_at: '',
        updated_at: '',
      }),
    );
    renderApp({
      path: '/upgrade',
      locale: 'en',
      handlers: {
        'GET /user/right_product/get_list': () => json(catalogue),
        'GET /pay/wx/config': () => json({ configured: false, provider: 'wechat' }),
      },
    });
    await waitFor(() => expect(document.body.textContent).toContain('Unlimited'));
    expect(document.body.textContent).toMatch(/\d{1,3}(,\d{3})+ characters/);
    never999(document.body.textContent);
  });
});

describe('balances of a free user', () => {
  it('home writes the balance like /right: 19,865 字', async () => {
    const right = { ...operatorRight(1), disposable_num: 19_865, num_desc: '19865字', total_num: 20_000 };
    renderApp({ path: '/', handlers: { 'GET /user/v1/get_user_right': () => json(right) } });
    await waitFor(() => expect(screen.getByTestId('quota-remaining').textContent).toContain('19,865 字'));
  });
});
