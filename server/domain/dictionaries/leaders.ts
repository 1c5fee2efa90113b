import type { Db } from '../../db';
import { nowIso } from '../../db';
import type { Lang } from '../locale';
import { badRequest, conflict, notFound } from '../../errors';

/**
 * Leader dictionaries: an ordered list of leaders' names with their titles (and organisation), personal
 * (`owner_kind` user) or the team's (`owner_kind` team). Checks use them to flag a wrong title after a name, a
 * misspelt name and leaders named out of order (engine/rules/leaders.ts). Every change is logged in
 * `leader_history` with who made it.
 */

export type LeaderOwner = { kind: 'user' | 'team'; id: number };
export const LEADERS_MAX = 2000;
/** Chinese names, with the middle dot of transcribed names (·, •, ‧). */
const NAME = /^[\u3400-\u9fff\uf900-\ufaff·•‧]{2,20}$/u;

export interface LeaderInput {
  name: string;
  titles: string[];
  organization?: string;
}

export interface LeaderView {
  id: number;
  name: string;
  titles: string[];
  organization: string;
  sort: number;
  updated_at: string;
}

function clean(input: LeaderInput): LeaderInput {
  const name = input.name.trim().replace(/[•‧]/g, '·');
  if (!NAME.test(name)) throw badRequest('leader.name_invalid', { name: input.name });
  const titles = [...new Set(input.titles.map((t) => t.trim()))];
  if (titles.some((t) => !t)) throw badRequest('leader.title_blank');
  return { name, titles, organization: input.organization?.trim() ?? '' };
}

const summaryOf = (l: LeaderInput) => `${l.name}（${l.titles.join('、')}）`;

function view(row: {
  id: number;
  name: string;
  titles: string;
  organization: string;
  sort: number;
  updated_at: string;
}): LeaderView {
  let titles: string[] = [];
  try {
    const parsed: unknown = JSON.parse(row.titles);
    if (Array.isArray(parsed)) titles = parsed.filter((t): t is string => typeof t === 'string');
  } catch {
    titles = [];
  }
  return {
    id: Number(row.id),
    name: row.name,
    titles,
    organization: row.organization,
    sort: Number(row.sort),
    updated_at: row.updated_at,
  };
}

const ofOwner = (db: Db, owner: LeaderOwner) =>
  db.selectFrom('leaders').where('owner_kind', '=', owner.kind).where('owner_id', '=', owner.id);

async function log(
  db: Db,
  owner: LeaderOwner,
  operator: number,
  action: string,
  summary: string,
  leaderId: number | null,
): Promise<void> {
  await db
    .insertInto('leader_history')
    .values({
      owner_kind: owner.kind,
      owner_id: owner.id,
      action,
      summary: summary.slice(0, 2000),
      leader_id: leaderId,
      operator,
      created_at: nowIso(),
    })
    .execute();
}

/** Every leader of the list, in order (what checks use). */
export async function allLeaders(db: Db, owner: LeaderOwner): Promise<LeaderView[]> {
  const rows = await ofOwner(db, owner).selectAll().orderBy('sort').orderBy('id').execute();
  return rows.map(view);
}

export async function leaderPage(db: Db, owner: LeaderOwner, page: { num: number; size: number; keyword?: string }) {
  let all = await allLeaders(db, owner);
  const keyword = page.keyword?.trim();
  if (keyword)
    all = all.filter(
      (l) => l.name.includes(keyword) || l.organization.includes(keyword) || l.titles.some((t) => t.includes(keyword)),
    );
  return {
    total: all.length,
    num: page.num,
    size: page.size,
    list: all.slice((page.num - 1) * page.size, page.num * page.size),
  };
}

/** The verbs the history's summaries start with (written in cn), and how they read in en and hk. */
const SUMMARY_VERBS: Array<{ cn: RegExp; en: (m: RegExpExecArray) => string; hk: (m: RegExpExecArray) => string }> = [
  { cn: /^新增 /, en: () => 'Added ', hk: () => '新增 ' },
  { cn: /^修改 /, en: () => 'Changed ', hk: () => '修改 ' },
  { cn: /^批量新增 (\d+) 人：/, en: (m) => `Added ${m[1]}: `, hk: (m) => `批量新增 ${m[1]} 人：` },
  { cn: /^删除 /, en: () => 'Deleted ', hk: () => '刪除 ' },
  { cn: /^调整排序：/, en: () => 'Reordered: ', hk: () => '調整排序：' },
];

/** A history summary in `lang`: its verb translated; the names and titles after it are the users' own text. */
export function summaryIn(summary: string, lang: Lang): string {
  if (lang === 'cn') return summary;
  for (const verb of SUMMARY_VERBS) {
    const m = verb.cn.exec(summary);
    if (m) return verb[lang](m) + summary.slice(m[0].length);
  }
  return summary;
}

export async function leaderHistory(
  db: Db,
  owner: LeaderOwner,
  page: { num: number; size: number },
  lang: Lang = 'cn',
) {
  const base = db
    .selectFrom('leader_history as h')
    .where('h.owner_kind', '=', owner.kind)
    .where('h.owner_id', '=', owner.id);
  const total = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  const rows = await base
    .leftJoin('users as u', 'u.uid', 'h.operator')
    .select(['h.id', 'h.action', 'h.summary', 'h.leader_id', 'h.created_at', 'u.name as operator_name'])
    .orderBy('h.id', 'desc')
    .offset((page.num - 1) * page.size)
    .limit(page.size)
    .execute();
  return {
    total: Number(total?.n ?? 0),
    num: page.num,
    size: page.size,
    list: rows.map((r) => ({
      id: Number(r.id),
      action: r.action as 'add' | 'update' | 'delete' | 'sort' | 'batch_add' | 'batch_delete',
      summary: summaryIn(r.summary, lang),
      leader_id: r.leader_id === null ? null : Number(r.leader_id),
      operator_name: r.operator_name ?? '',
      created_at: r.created_at,
    })),
  };
}

async function insertLeaders(trx: Db, owner: LeaderOwner, items: LeaderInput[]): Promise<number[]> {
  const existing = await allLeaders(trx, owner);
  if (existing.length + items.length > LEADERS_MAX) throw conflict('leader.too_many', { max: LEADERS_MAX });
  const names = new Set(existing.map((l) => l.name));
  let sort = existing.reduce((m, l) => Math.max(m, l.sort), 0);
  const ids: number[] = [];
  const now = nowIso();
  for (const item of items) {
    if (names.has(item.name)) throw conflict('leader.duplicate', { name: item.name });
    names.add(item.name);
    const row = await trx
      .insertInto('leaders')
      .values({
        owner_kind: owner.kind,
        owner_id: owner.id,
        name: item.name,
        titles: JSON.stringify(item.titles),
        organization: item.organization ?? '',
        sort: ++sort,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(Number(row.id));
  }
  return ids;
}

async function findLeader(db: Db, owner: LeaderOwner, id: number): Promise<LeaderView> {
  const row = await ofOwner(db, owner).selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('leader.unknown', { id });
  return view(row);
}

export async function addLeader(db: Db, owner: LeaderOwner, operator: number, input: LeaderInput) {
  const item = clean(input);
  const id = await db.transaction().execute(async (trx) => {
    const [id] = await insertLeaders(trx, owner, [item]);
    await log(trx, owner, operator, 'add', `新增 ${summaryOf(item)}`, id);
    return id;
  });
  return findLeader(db, owner, id);
}

export async function updateLeader(db: Db, owner: LeaderOwner, operator: number, id: number, input: LeaderInput) {
  const item = clean(input);
  const before = await findLeader(db, owner, id);
  await db.transaction().execute(async (trx) => {
    const clash = await ofOwner(trx, owner)
      .select('id')
      .where('name', '=', item.name)
      .where('id', '!=', id)
      .executeTakeFirst();
    if (clash) throw conflict('leader.duplicate', { name: item.name });
    await trx
      .updateTable('leaders')
      .set({
        name: item.name,
        titles: JSON.stringify(item.titles),
        organization: item.organization ?? '',
        updated_at: nowIso(),
      })
      .where('id', '=', id)
      .execute();
    await log(trx, owner, operator, 'update', `修改 ${summaryOf(before)} → ${summaryOf(item)}`, id);
  });
  return findLeader(db, owner, id);
}

/** Adds (at the end, in order) or deletes several leaders: all or nothing. */
export async function batchLeaders(
  db: Db,
  owner: LeaderOwner,
  operator: number,
  input: { action: 'add' | 'delete'; items?: LeaderInput[]; ids?: number[] },
): Promise<number> {
  if (input.action === 'add') {
    const items = (input.items ?? []).map(clean);
    if (items.length === 0) throw badRequest('request.invalid', { field: 'items', problem: 'is required' });
    await db.transaction().execute(async (trx) => {
      await insertLeaders(trx, owner, items);
      await log(
        trx,
        owner,
        operator,
        'batch_add',
        `批量新增 ${items.length} 人：${items.map((i) => i.name).join('、')}`,
        null,
      );
    });
    return items.length;
  }
  const ids = input.ids ?? [];
  if (ids.length === 0) throw badRequest('request.invalid', { field: 'ids', problem: 'is required' });
  const rows = await ofOwner(db, owner).select(['id', 'name']).where('id', 'in', ids).execute();
  for (const id of ids) if (!rows.some((r) => Number(r.id) === id)) throw notFound('leader.unknown', { id });
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('leaders')
      .where('owner_kind', '=', owner.kind)
      .where('owner_id', '=', owner.id)
      .where('id', 'in', ids)
      .execute();
    await log(
      trx,
      owner,
      operator,
      ids.length === 1 ? 'delete' : 'batch_delete',
      `删除 ${rows.map((r) => r.name).join('、')}`,
      ids.length === 1 ? ids[0] : null,
    );
  });
  return ids.length;
}

/** `ids` is the complete new order. */
export async function sortLeaders(db: Db, owner: LeaderOwner, operator: number, ids: number[]): Promise<void> {
  const current = await allLeaders(db, owner);
  const known = new Set(current.map((l) => l.id));
  if (ids.length !== current.length || !ids.every((id) => known.has(id))) throw badRequest('leader.bad_order');
  await db.transaction().execute(async (trx) => {
    for (const [i, id] of ids.entries())
      await trx
        .updateTable('leaders')
        .set({ sort: i + 1 })
        .where('id', '=', id)
        .execute();
    await log(
      trx,
      owner,
      operator,
      'sort',
      `调整排序：${ids.map((id) => current.find((l) => l.id === id)!.name).join('、')}`,
      null,
    );
  });
}
