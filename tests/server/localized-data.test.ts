// The data the server hands the SPA reads in the request's language: no Han character in en, no simplified-only
// character in hk, and cn (also with no Accept-Language at all) exactly as before.
import { Document, Packer, Paragraph, TextRun } from 'docx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, register, startTestApp, type TestApp } from './helpers';
import { hanIn, simplifiedIn } from '../fixtures/han';
import { parseAcceptLanguage } from '../../server/domain/locale';
import { addGrant, consumeRight } from '../../server/domain/rights/ledger';
import { findAllProducts } from '../../server/db/repos/orders';
import { DEFAULT_RULES } from '../../server/domain/guide/rules';
import { DEFAULT_SLIDES } from '../../server/domain/guide/guide';

let t: TestApp;
let token: string;
let uid: number;

beforeAll(async () => {
  t = await startTestApp();
  token = await register(t, '13900000071');
  uid = (await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result.uid;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const TAGS = { cn: undefined, en: 'en', hk: 'zh-HK' } as const;

async function get(url: string, lang: keyof typeof TAGS) {
  const res = await t.app.inject({
    method: 'GET',
    url,
    headers: {
      endpoint: '1',
      authorization: `Bearer ${token}`,
      ...(TAGS[lang] ? { 'accept-language': TAGS[lang] } : {}),
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result;
}

/** Every string of `value` (deep), with where it was found. */
function strings(value: unknown, at = ''): Array<[string, string]> {
  if (typeof value === 'string') return [[at, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${at}[${i}]`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => strings(v, at ? `${at}.${k}` : k));
  return [];
}

/** The localized fields of `value` (by key name) hold no Han character in en, no simplified-only one in hk. */
function expectLocalized(value: unknown, lang: 'en' | 'hk', keys: readonly string[]) {
  const texts = strings(value).filter(([at]) => keys.includes(at.replace(/^.*\./, '').replace(/\[\d+\]$/, '')));
  expect(texts.length).toBeGreaterThan(0);
  const bad = texts.filter(([, text]) => (lang === 'en' ? hanIn(text) : simplifiedIn(text)).length > 0);
  expect(bad).toEqual([]);
}

describe('Accept-Language', () => {
  it('resolves to cn, en or hk, cn by default', () => {
    expect(parseAcceptLanguage(undefined)).toBe('cn');
    expect(parseAcceptLanguage('')).toBe('cn');
    expect(parseAcceptLanguage('fr-FR')).toBe('cn');
    expect(parseAcceptLanguage('zh-CN')).toBe('cn');
    expect(parseAcceptLanguage('en')).toBe('en');
    expect(parseAcceptLanguage('en-GB,en;q=0.9')).toBe('en');
    expect(parseAcceptLanguage('zh-HK')).toBe('hk');
    expect(parseAcceptLanguage('zh-Hant-TW')).toBe('hk');
    expect(parseAcceptLanguage('fr, zh-HK;q=0.5, en;q=0.8')).toBe('en');
    expect(parseAcceptLanguage('en;q=0')).toBe('cn');
  });
});

describe('products and rights', () => {
  it('lists the products in en and hk, and in cn as seeded', async () => {
    const url = '/user/right_product/get_list';
    const cn = await get(url, 'cn');
    expect(cn.find((p: { code: string }) => p.code === 'personal_monthly')).toMatchObject({
      name: '个人专业版（月付）',
      rights: expect.arrayContaining([
        { user_right_type: 1, title: '高速校对字数', num: 1_000_000, num_desc: '1000000字' },
      ]),
    });
    const en = await get(url, 'en');
    expect(en.find((p: { code: string }) => p.code === 'personal_monthly').name).toBe('Personal Pro (monthly)');
    expectLocalized(en, 'en', ['name', 'description', 'title', 'num_desc']);
    const hk = await get(url, 'hk');
    expect(hk.find((p: { code: string }) => p.code === 'personal_monthly').name).toBe('個人專業版（月付）');
    expectLocalized(hk, 'hk', ['name', 'description', 'title', 'num_desc']);
  });

  it('a product an operator added without forms reads in traditional characters in hk and as cn in en', async () => {
    const now = new Date().toISOString();
    await t.app.db
      .insertInto('products')
      .values({
        code: 'operator_pack',
        name: '图片校对包',
        type: 2,
        belong_to: 1,
        price: 100,
        original_price: null,
        duration_days: null,
        description: '图片校对 50 次，永久有效',
        recommended: 0,
        on_sale: 1,
        sort: 99,
        rights: JSON.stringify([{ user_right_type: 2, num: 50 }]),
        created_at: now,
        updated_at: now,
      })
      .execute();
    const pick = (list: Array<{ code: string }>) => list.find((p) => p.code === 'operator_pack');
    expect(pick(await get('/user/right_product/get_list', 'hk'))).toMatchObject({
      name: '圖片校對包',
      description: '圖片校對 50 次，永久有效',
    });
    expect(pick(await get('/user/right_product/get_list', 'en'))).toMatchObject({ name: '图片校对包' });
  });

  it('writes the rights, their amounts and the plan in en and hk', async () => {
    const url = '/user/v1/get_user_right_detail';
    const cn = await get(url, 'cn');
    expect(cn.plan_name).toBe('免费版');
    expect(cn.rights[0]).toMatchObject({ title: '高速校对字数', num_desc: '20000字' });
    const en = await get(url, 'en');
    expect(en.plan_name).toBe('Free');
    expect(en.rights[0]).toMatchObject({ title: 'High-speed proofreading', num_desc: '20000 characters' });
    expectLocalized(en, 'en', ['plan_name', 'title', 'num_desc']);
    const hk = await get(url, 'hk');
    expectLocalized(hk, 'hk', ['plan_name', 'title', 'num_desc']);
    // Hong Kong wording, as the interface's own hk catalogue writes it (文件, not 文檔)
    expect(hk.rights.find((r: { user_right_type: number }) => r.user_right_type === 256).title).toBe('文件上傳次數');
    expect((await get('/user/check_words_num', 'en')).num_desc).toBe('20000 characters');
  });
});

describe('orders', () => {
  it('name the product in the language; a name the product no longer has stays as ordered', async () => {
    const product = (await findAllProducts(t.app.db)).find((p) => p.code === 'words_5m')!;
    const now = new Date().toISOString();
    const order = (order_no: string, product_name: string) => ({
      order_no,
      uid,
      product_id: Number(product.id),
      product_name,
      quantity: 1,
      amount: 7990,
      status: 'closed' as const,
      pay_type: 'wechat' as const,
      code_url: null,
      expire_at: now,
      transaction_id: null,
      created_at: now,
      paid_at: null,
    });
    await t.app.db
      .insertInto('orders')
      .values([order('WBL10N1', product.name), order('WBL10N2', '字数包 500 万字（旧）')])
      .execute();
    const names = async (lang: keyof typeof TAGS) =>
      (await get('/user/right_order/v1/get_list', lang)).list
        .filter((o: { order_no: string }) => o.order_no.startsWith('WBL10N'))
        .map((o: { product_name: string }) => o.product_name)
        .sort();
    expect(await names('cn')).toEqual(['字数包 500 万字', '字数包 500 万字（旧）']);
    expect(await names('en')).toEqual(['Character pack: 5 million', '字数包 500 万字（旧）']);
    expect(await names('hk')).toEqual(['字數包 500 萬字', '字數包 500 萬字（舊）']);
  });
});

describe('the rights history', () => {
  it('stores codes and writes the records in the reader language; a free text stays as it is', async () => {
    const product = (await findAllProducts(t.app.db)).find((p) => p.code === 'words_1m')!;
    await addGrant(t.app.db, uid, 1, 1000, 'test:purchase', null, {
      code: 'grant.purchase',
      params: { product: product.name, product_id: Number(product.id) },
    });
    await consumeRight(t.app.db, uid, 1, 10, '文本校对');
    await consumeRight(t.app.db, uid, 1, 10, 'check.api');
    await consumeRight(t.app.db, uid, 1, 1, 'a text of a test');
    const stored = await t.app.db
      .selectFrom('right_records')
      .select(['reason', 'reason_code'])
      .where('uid', '=', uid)
      .orderBy('id', 'desc')
      .limit(4)
      .execute();
    expect(stored).toEqual([
      { reason: 'a text of a test', reason_code: null },
      { reason: 'API 校对', reason_code: 'check.api' },
      { reason: '文本校对', reason_code: 'check.text' },
      { reason: '购买 字数包 100 万字', reason_code: 'grant.purchase' },
    ]);

    const url = '/user/right_consumption_record/page?size=50';
    const cn = await get(url, 'cn');
    expect(cn.list.slice(0, 4).map((r: { reason: string }) => r.reason)).toEqual([
      'a text of a test',
      'API 校对',
      '文本校对',
      '购买 字数包 100 万字',
    ]);
    expect(cn.list.at(-1)).toMatchObject({ reason: '默认权益', title: expect.stringMatching(/[\u4e00-\u9fff]/) });
    const en = await get(url, 'en');
    expect(en.list.slice(0, 4).map((r: { reason: string }) => r.reason)).toEqual([
      'a text of a test',
      'API proofreading',
      'Text proofreading',
      'Purchase: Character pack: 1 million',
    ]);
    expectLocalized(en, 'en', ['reason', 'title']);
    const hk = await get(url, 'hk');
    expect(hk.list[3].reason).toBe('購買 字數包 100 萬字');
    expectLocalized(hk, 'hk', ['reason', 'title']);
  });
});

describe('site texts, templates, libraries and check functions', () => {
  it('the rules page', async () => {
    expect((await get('/site/v1/rules', 'cn')).text).toBe(DEFAULT_RULES);
    const en = await get('/site/v1/rules', 'en');
    expect(en.text).toMatch(/^## 1\. General/);
    expectLocalized(en, 'en', ['text']);
    expectLocalized(await get('/site/v1/rules', 'hk'), 'hk', ['text']);
  });

  it('the default guide', async () => {
    expect((await get('/wizard/v1/show', 'cn')).slides.map((s: { title: string }) => s.title)).toEqual(
      DEFAULT_SLIDES.map((s) => s.title),
    );
    expectLocalized(await get('/wizard/v1/show', 'en'), 'en', ['title', 'bullets']);
    expectLocalized(await get('/wizard/v1/show', 'hk'), 'hk', ['title', 'bullets']);
  });

  it('the format templates', async () => {
    expect((await get('/misscut/v1/doc/template_types', 'cn'))[0].name).toBe('GB/T 9704-2012 党政机关公文格式');
    expectLocalized(await get('/misscut/v1/doc/template_types', 'en'), 'en', ['name', 'description']);
    expectLocalized(await get('/misscut/v1/doc/template_types', 'hk'), 'hk', ['name', 'description']);
  });

  it('the built-in word libraries', async () => {
    expect((await get('/user/get_word_library', 'cn'))[0]).toMatchObject({ name: '通用', name_en: 'General' });
    expectLocalized(await get('/user/get_word_library', 'en'), 'en', ['name', 'description']);
    expectLocalized(await get('/user/get_word_library', 'hk'), 'hk', ['name', 'description']);
  });

  it('the check functions and the mistake types', async () => {
    expect((await get('/misscut/v1/check_function/get', 'cn')).functions[0].name).toBe('字词错误');
    const en = await get('/misscut/v1/check_function/get', 'en');
    // the usage family names its characters (的/地/得): the name stays English
    expectLocalized(en, 'en', ['name']);
    expectLocalized(await get('/misscut/v1/check_function/get', 'hk'), 'hk', ['name', 'description']);
    const types = await get('/misscut/v1/get_all_mistakes_type', 'en');
    expect(hanIn(JSON.stringify(types))).toEqual([]);
  });

  it('the format report in en and hk', async () => {
    const doc = new Document({
      sections: [
        { children: [new Paragraph({ children: [new TextRun({ text: '关于开展检查的通知', font: 'Arial' })] })] },
      ],
    });
    const data = Buffer.from(await Packer.toBuffer(doc));
    const boundary = '----l10n-boundary';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.docx"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const check = async (lang: keyof typeof TAGS) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/misscut/v1/doc/format_check',
        headers: {
          endpoint: '1',
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          ...(TAGS[lang] ? { 'accept-language': TAGS[lang] } : {}),
        },
        payload,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().result;
    };
    const cn = await check('cn');
    expect(cn.template_name).toBe('GB/T 9704-2012 党政机关公文格式');
    expect(cn.violations.length).toBeGreaterThan(0);
    const en = await check('en');
    expect(en.violations.length).toBe(cn.violations.length);
    expect(en.violations.map((v: { rule: string }) => v.rule)).toEqual(
      cn.violations.map((v: { rule: string }) => v.rule),
    );
    expectLocalized(en, 'en', ['template_name', 'label', 'message']);
    // the font rule says which typeface in English
    expect(en.violations.find((v: { rule: string }) => v.rule === 'font')?.message).toMatch(/should use \w+/);
    const hk = await check('hk');
    expect(hk.violations.length).toBe(cn.violations.length);
    expectLocalized(hk, 'hk', ['template_name', 'label', 'expected', 'message']);
  });

  it('the leader history: its verbs in the language, the names as the user wrote them', async () => {
    const added = await call(t.app, 'POST', '/dict/v1/leader/add', { name: '孙立', titles: ['主任'] }, token);
    expect(added.status).toBe(200);
    const summary = async (lang: keyof typeof TAGS) => (await get('/dict/v1/leader/history', lang)).list[0].summary;
    expect(await summary('cn')).toBe('新增 孙立（主任）');
    expect(await summary('en')).toBe('Added 孙立（主任）');
    expect(await summary('hk')).toBe('新增 孙立（主任）');
  });
});
