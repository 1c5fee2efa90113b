import type { Kysely, Migration } from 'kysely';

/**
 * Data a reader sees in cn, en and hk (domain/locale.ts):
 *
 * - `products.i18n`: the en and hk forms of a product's name and description (JSON, null: the fallbacks), filled
 *   for the seeded products whose text is still the seeded one (a text an operator changed keeps no stale form).
 * - `right_records.reason_code` / `reason_params`: the code and values the record's reason is written from
 *   (domain/rights/reasons.ts); the rows written before are mapped from their cn texts, unknown texts keep none.
 *
 * The tables below are frozen with this migration: later wordings belong to a new one.
 */

const PRODUCT_FORMS: Record<
  string,
  {
    name: string;
    description: string;
    en: { name: string; description: string };
    hk: { name: string; description: string };
  }
> = {
  personal_monthly: {
    name: '个人专业版（月付）',
    description: '每月 100 万字高速校对、10 万字精校，单次校对上限 5 万字',
    en: {
      name: 'Personal Pro (monthly)',
      description:
        '1 million characters of high-speed proofreading and 100,000 of fine proofreading a month; ' +
        'up to 50,000 characters per check',
    },
    hk: { name: '個人專業版（月付）', description: '每月 100 萬字高速校對、10 萬字精校，單次校對上限 5 萬字' },
  },
  personal_yearly: {
    name: '个人专业版（年付）',
    description: '一年 1500 万字高速校对、150 万字精校，单次校对上限 5 万字',
    en: {
      name: 'Personal Pro (yearly)',
      description:
        '15 million characters of high-speed proofreading and 1.5 million of fine proofreading a year; ' +
        'up to 50,000 characters per check',
    },
    hk: { name: '個人專業版（年付）', description: '一年 1500 萬字高速校對、150 萬字精校，單次校對上限 5 萬字' },
  },
  words_1m: {
    name: '字数包 100 万字',
    description: '100 万字高速校对，永久有效',
    en: {
      name: 'Character pack: 1 million',
      description: '1 million characters of high-speed proofreading; never expires',
    },
    hk: { name: '字數包 100 萬字', description: '100 萬字高速校對，永久有效' },
  },
  words_5m: {
    name: '字数包 500 万字',
    description: '500 万字高速校对，永久有效',
    en: {
      name: 'Character pack: 5 million',
      description: '5 million characters of high-speed proofreading; never expires',
    },
    hk: { name: '字數包 500 萬字', description: '500 萬字高速校對，永久有效' },
  },
  fine_100k: {
    name: '精校包 10 万字',
    description: '10 万字精校（校对模式 4），永久有效',
    en: {
      name: 'Fine proofreading pack: 100,000 characters',
      description: '100,000 characters of fine proofreading (check mode 4); never expires',
    },
    hk: { name: '精校包 10 萬字', description: '10 萬字精校（校對模式 4），永久有效' },
  },
  team_yearly: {
    name: '团队版（年付）',
    description:
      '一年 1 亿字高速校对、1000 万字精校，单次校对上限 20 万字；团队超级管理员或管理员购买时归团队所有，可分配给成员',
    en: {
      name: 'Team (yearly)',
      description:
        '100 million characters of high-speed proofreading and 10 million of fine proofreading a year; ' +
        "up to 200,000 characters per check. Bought by the team's owner or an administrator, it belongs to the " +
        'team and can be allocated to members',
    },
    hk: {
      name: '團隊版（年付）',
      description:
        '一年 1 億字高速校對、1000 萬字精校，單次校對上限 20 萬字；團隊超級管理員或管理員購買時歸團隊所有，可分配給成員',
    },
  },
};

/** The cn texts the ledger was written with until now, by the code that replaces them. */
const REASON_TEXTS: Record<string, string> = {
  'grant.default': '默认权益',
  'grant.other': '获得权益',
  'grant.share': '分享加速奖励',
  'grant.coupon': '兑换码兑换',
  'team.allocated': '团队分配',
  'team.returned': '离开团队，未用完的分配退回团队',
  'team.pool': '团队权益池',
  'ai.writing': 'AI 写作',
  'ai.unused_refund': 'AI 写作未用退回',
  'ai.failed_refund': 'AI 写作失败退回',
  'check.text': '文本校对',
  'check.api': 'API 校对',
  'check.api_failed_refund': 'API 校对失败退回',
  'check.cancelled_refund': '取消校对退回',
  'check.paragraph_failed_refund': '段落校对失败退回',
  'check.interrupted_refund': '校对中断退回',
  'web.check': '网页校对',
  'web.cancelled_refund': '网页校对取消退回',
  'web.interrupted_refund': '网页校对中断退回',
  'web.failed_refund': '网页校对失败退回',
  'audio.check': '音频校对',
  'audio.failed_refund': '音频校对失败退回',
  'video.check': '视频校对',
  'video.failed_refund': '视频校对失败退回',
  'image.check': '图片校对',
  'image.failed_refund': '图片校对失败退回',
  'pdf.check': 'PDF校对',
  'pdf.cancelled_refund': 'PDF校对取消退回',
  'pdf.failed_refund': 'PDF校对失败退回',
  'document.compare': '文档比对',
  'document.ppt': 'PPT校对',
  'document.upload': '文档上传',
  'document.upload_failed_refund': '文档上传失败退回',
  'document.deleted_refund': '删除未完成的文档退回',
  'document.cancelled_refund': '文档校对取消退回',
  'document.failed_refund': '文档校对失败退回',
};

const PURCHASE = '购买 ';

export const localizedDataMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('products').addColumn('i18n', 'text').execute();
    for (const [code, p] of Object.entries(PRODUCT_FORMS)) {
      const row = await db
        .selectFrom('products')
        .select(['id', 'name', 'description'])
        .where('code', '=', code)
        .executeTakeFirst();
      if (!row) continue;
      const forms: Record<'en' | 'hk', Record<string, string>> = { en: {}, hk: {} };
      for (const lang of ['en', 'hk'] as const) {
        if (row.name === p.name) forms[lang].name = p[lang].name;
        if (row.description === p.description) forms[lang].description = p[lang].description;
      }
      if (!Object.keys(forms.en).length) continue;
      await db
        .updateTable('products')
        .set({ i18n: JSON.stringify(forms) })
        .where('id', '=', row.id)
        .execute();
    }

    await db.schema.alterTable('right_records').addColumn('reason_code', 'text').execute();
    await db.schema.alterTable('right_records').addColumn('reason_params', 'text').execute();
    for (const [code, text] of Object.entries(REASON_TEXTS))
      await db.updateTable('right_records').set({ reason_code: code }).where('reason', '=', text).execute();
    // a purchase names its product: the order (ref order:<no>:<type>) says which one
    const purchases = await db
      .selectFrom('right_records')
      .select(['id', 'reason', 'ref'])
      .where('reason', 'like', `${PURCHASE}%`)
      .execute();
    for (const row of purchases) {
      const product = String(row.reason).slice(PURCHASE.length);
      const orderNo = /^order:([^:]+):/.exec(String(row.ref ?? ''))?.[1];
      const order = orderNo
        ? await db.selectFrom('orders').select('product_id').where('order_no', '=', orderNo).executeTakeFirst()
        : undefined;
      const params = order ? { product, product_id: Number(order.product_id) } : { product };
      await db
        .updateTable('right_records')
        .set({ reason_code: 'grant.purchase', reason_params: JSON.stringify(params) })
        .where('id', '=', row.id)
        .execute();
    }
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('right_records').dropColumn('reason_params').execute();
    await db.schema.alterTable('right_records').dropColumn('reason_code').execute();
    await db.schema.alterTable('products').dropColumn('i18n').execute();
  },
};
