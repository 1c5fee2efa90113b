/**
 * The product catalogue the 0006_commerce migration seeds (README "Products"). Frozen with that migration:
 * change prices or rights later in the `products` table (a new migration or an administrator's SQL), not here.
 *
 * `type` 1 subscription plan, 2 add-on package; `belong_to` 1 personal, 2 team; `price` in fen;
 * `duration_days` validity of the granted rights (null: the package never expires); `rights` what one unit
 * grants, keyed by `user_right_type` (limits such as 32 are ceilings while the plan lasts).
 */
export interface SeedProduct {
  code: string;
  name: string;
  type: 1 | 2;
  belong_to: 1 | 2;
  price: number;
  original_price: number | null;
  duration_days: number | null;
  description: string;
  recommended: boolean;
  sort: number;
  rights: Array<{ user_right_type: number; num: number }>;
}

const r = (rights: Record<number, number>) =>
  Object.entries(rights).map(([type, num]) => ({ user_right_type: Number(type), num }));

export const SEED_PRODUCTS: readonly SeedProduct[] = [
  {
    code: 'personal_monthly',
    name: '个人专业版（月付）',
    type: 1,
    belong_to: 1,
    price: 2900,
    original_price: 3900,
    duration_days: 31,
    description: '每月 100 万字高速校对、10 万字精校，单次校对上限 5 万字',
    recommended: false,
    sort: 10,
    rights: r({
      1: 1_000_000,
      2: 300,
      4: 100,
      16: 200,
      32: 50_000,
      64: 200_000,
      128: 50_000,
      256: 300,
      4096: 100,
      8192: 100_000,
    }),
  },
  {
    code: 'personal_yearly',
    name: '个人专业版（年付）',
    type: 1,
    belong_to: 1,
    price: 29900,
    original_price: 46800,
    duration_days: 366,
    description: '一年 1500 万字高速校对、150 万字精校，单次校对上限 5 万字',
    recommended: true,
    sort: 20,
    rights: r({
      1: 15_000_000,
      2: 4000,
      4: 1500,
      16: 3000,
      32: 50_000,
      64: 200_000,
      128: 50_000,
      256: 4000,
      4096: 1500,
      8192: 1_500_000,
    }),
  },
  {
    code: 'words_1m',
    name: '字数包 100 万字',
    type: 2,
    belong_to: 1,
    price: 1990,
    original_price: null,
    duration_days: null,
    description: '100 万字高速校对，永久有效',
    recommended: false,
    sort: 30,
    rights: r({ 1: 1_000_000 }),
  },
  {
    code: 'words_5m',
    name: '字数包 500 万字',
    type: 2,
    belong_to: 1,
    price: 7990,
    original_price: 9950,
    duration_days: null,
    description: '500 万字高速校对，永久有效',
    recommended: false,
    sort: 40,
    rights: r({ 1: 5_000_000 }),
  },
  {
    code: 'fine_100k',
    name: '精校包 10 万字',
    type: 2,
    belong_to: 1,
    price: 4900,
    original_price: null,
    duration_days: null,
    description: '10 万字精校（校对模式 4），永久有效',
    recommended: false,
    sort: 50,
    rights: r({ 8192: 100_000 }),
  },
  {
    code: 'team_yearly',
    name: '团队版（年付）',
    type: 1,
    belong_to: 2,
    price: 199900,
    original_price: 299900,
    duration_days: 366,
    description:
      '一年 1 亿字高速校对、1000 万字精校，单次校对上限 20 万字；团队超级管理员或管理员购买时归团队所有，可分配给成员',
    recommended: false,
    sort: 60,
    rights: r({
      1: 100_000_000,
      2: 20_000,
      4: 10_000,
      16: 20_000,
      32: 200_000,
      64: 1_000_000,
      128: 200_000,
      256: 20_000,
      4096: 10_000,
      8192: 10_000_000,
    }),
  },
];
