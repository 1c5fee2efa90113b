import type { Db } from '../../db';
import { nowIso } from '../../db';
import {
  ALLOCATION_PREFIX,
  addToAllocation,
  allocationSource,
  emptyAllocation,
  findAllocations,
  findPackage,
  findPackageRights,
  findPackages,
  insertPackage,
  insertPackageRight,
  returnToPackage,
  takeFromPackage,
} from '../../db/repos/team-packages';
import { findMemberRowsOf, findMembership, findTeam, updateTeam } from '../../db/repos/teams';
import { insertRightRecord } from '../../db/repos/right-records';
import { conflict, notFound } from '../../errors';
import { LIMIT_TYPES, rightTitle } from '../rights/catalogue';
import type { Lang } from '../locale';
import { reasonColumns } from '../rights/reasons';
import { productNamer } from '../commerce/product-names';
import { MEMBER_STATUS } from './teams';

/**
 * Right packages of a team. A team plan bought by the team's root or an admin becomes a package of the team
 * (domain/commerce/orders.ts); its admins allocate amounts of each right to members, which become right grants of the
 * member (source `team-package:<package>:<type>`, expiring with the package), so a member's checks draw from
 * their allocation through the ordinary rights code. A member who leaves or is removed gives back what they have
 * not used.
 *
 * Limit rights (32 characters per check, ...) are not amounts: allocating one gives the member that ceiling
 * without taking anything from the package.
 */

const parseSource = (source: string) => {
  const [pkg, type] = source.slice(ALLOCATION_PREFIX.length).split(':').map(Number);
  return { packageId: pkg, type };
};

export async function teamPackages(db: Db, enterpriseId: number, lang: Lang = 'cn') {
  const packages = await findPackages(db, enterpriseId);
  const productName = await productNamer(db, lang);
  const rights = await findPackageRights(
    db,
    packages.map((p) => Number(p.id)),
  );
  return packages.map((p) => ({
    id: Number(p.id),
    product_name: productName(p.product_name),
    expire_time: p.expires_at,
    rights: rights
      .filter((r) => Number(r.package_id) === Number(p.id))
      .map((r) => {
        const type = Number(r.user_right_type);
        const total = Number(r.total);
        const allocated = Number(r.allocated);
        return { user_right_type: type, title: rightTitle(type, lang), total, allocated, remaining: total - allocated };
      }),
  }));
}

/** Per member (with a name), what they were allocated from the team's packages and how much they used. */
export async function allocatedInfo(
  db: Db,
  enterpriseId: number,
  filter: { packageId?: number; uid?: number },
  lang: Lang = 'cn',
) {
  const packages = new Set((await findPackages(db, enterpriseId)).map((p) => Number(p.id)));
  if (filter.packageId !== undefined && !packages.has(filter.packageId)) throw notFound('team.unknown_package');
  const members = await db
    .selectFrom('enterprise_members as m')
    .leftJoin('users as u', 'u.uid', 'm.uid')
    .select(['m.uid', 'm.name', 'u.name as account_name'])
    .where('m.enterprise_id', '=', enterpriseId)
    .where('m.uid', 'is not', null)
    .execute();
  const names = new Map(members.map((m) => [Number(m.uid), m.name || m.account_name || '']));
  if (filter.uid !== undefined && !names.has(filter.uid)) throw notFound('team.unknown_member', { uid: filter.uid });
  const uids = filter.uid !== undefined ? [filter.uid] : [...names.keys()];
  const grants = (await findAllocations(db, { uids, packageId: filter.packageId })).filter((g) =>
    packages.has(parseSource(g.source).packageId),
  );
  const byUid = new Map<number, Map<number, { num: number; used: number }>>();
  for (const g of grants) {
    const uid = Number(g.uid);
    const type = Number(g.user_right_type);
    const mine = byUid.get(uid) ?? new Map<number, { num: number; used: number }>();
    const sum = mine.get(type) ?? { num: 0, used: 0 };
    sum.num += Number(g.total);
    sum.used += Number(g.total) - Number(g.remaining);
    mine.set(type, sum);
    byUid.set(uid, mine);
  }
  return [...byUid.entries()].map(([uid, rights]) => ({
    uid,
    name: names.get(uid) ?? '',
    rights: [...rights.entries()].map(([type, r]) => ({ user_right_type: type, title: rightTitle(type, lang), ...r })),
  }));
}

/**
 * Gives each of `uids` (active members of the team) `num` of a right from a package: all or nothing. 404 for a
 * package of another team or a non-member; 409 when the package has expired or has less than num × members left.
 */
export async function allocate(
  db: Db,
  input: { enterpriseId: number; packageId: number; uids: readonly number[]; type: number; num: number; by: number },
): Promise<number> {
  const pkg = await findPackage(db, input.packageId);
  if (!pkg || Number(pkg.enterprise_id) !== input.enterpriseId) throw notFound('team.unknown_package');
  const now = nowIso();
  if (pkg.expires_at !== null && pkg.expires_at <= now) throw conflict('team.package_expired');
  const right = (await findPackageRights(db, [input.packageId])).find((r) => Number(r.user_right_type) === input.type);
  if (!right) throw conflict('team.package_no_right');
  const limit = LIMIT_TYPES.has(input.type);
  // a ceiling (characters per check, compare size) is the package's at most: a team cannot sell itself more
  if (limit && input.num > Number(right.total))
    throw conflict('team.package_short', { needed: input.num, remaining: Number(right.total) });
  const needed = limit ? 0 : input.num * input.uids.length;
  return db.transaction().execute(async (trx) => {
    // members checked inside the transaction, with the allocation (a removal at the same time waits or wins)
    const rows = await findMemberRowsOf(trx, input.enterpriseId, input.uids);
    for (const uid of input.uids) {
      const row = rows.find((r) => Number(r.uid) === uid);
      if (!row || row.status !== MEMBER_STATUS.active) throw notFound('team.unknown_member', { uid });
    }
    if (needed > 0 && !(await takeFromPackage(trx, input.packageId, input.type, needed))) {
      const fresh = (await findPackageRights(trx, [input.packageId])).find(
        (r) => Number(r.user_right_type) === input.type,
      );
      throw conflict('team.package_short', {
        needed,
        remaining: fresh ? Number(fresh.total) - Number(fresh.allocated) : 0,
      });
    }
    const source = allocationSource(input.packageId, input.type);
    for (const uid of input.uids) {
      await addToAllocation(
        trx,
        { uid, user_right_type: input.type, source, expires_at: pkg.expires_at, created_at: now },
        input.num,
        limit ? 'set' : 'add',
      );
      if (!limit)
        await insertRightRecord(trx, {
          uid,
          user_right_type: input.type,
          num: input.num,
          ...reasonColumns('team.allocated'),
          ref: source,
          created_at: now,
        });
    }
    return input.uids.length;
  });
}

/** What a member leaving the team had not used goes back to the team's packages. */
export async function reclaimAllocations(trx: Db, enterpriseId: number, uid: number): Promise<void> {
  const packages = new Set((await findPackages(trx, enterpriseId)).map((p) => Number(p.id)));
  const now = nowIso();
  for (const g of await findAllocations(trx, { uids: [uid] })) {
    const { packageId, type } = parseSource(g.source);
    const remaining = Number(g.remaining);
    if (!packages.has(packageId) || remaining <= 0) continue;
    if (!(await emptyAllocation(trx, Number(g.id), remaining))) continue;
    if (!LIMIT_TYPES.has(type)) {
      await returnToPackage(trx, packageId, type, remaining);
      await insertRightRecord(trx, {
        uid,
        user_right_type: type,
        num: -remaining,
        ...reasonColumns('team.returned'),
        ref: g.source,
        created_at: now,
      });
    }
  }
}

/** A team plan's rights become a package of the team (paid orders of team products). */
export async function grantTeamPackage(
  db: Db,
  input: {
    enterpriseId: number;
    productName: string;
    orderId: number | null;
    expiresAt: string | null;
    rights: ReadonlyArray<{ user_right_type: number; num: number }>;
  },
): Promise<number> {
  const id = await insertPackage(db, {
    enterprise_id: input.enterpriseId,
    product_name: input.productName,
    order_id: input.orderId,
    expires_at: input.expiresAt,
    created_at: nowIso(),
  });
  for (const r of input.rights)
    await insertPackageRight(db, { package_id: id, user_right_type: r.user_right_type, total: r.num });
  // the team's rights run until its last package ends (shown on the team card)
  const team = await findTeam(db, input.enterpriseId);
  const latest =
    [team.equity_time, input.expiresAt]
      .filter((e): e is string => !!e)
      .sort()
      .pop() ?? null;
  if (latest !== team.equity_time)
    await updateTeam(db, input.enterpriseId, { equity_time: latest, updated_at: nowIso() });
  return id;
}

/**
 * A member short of a consumable right draws the rest from the team's live packages (consumeRight asks when
 * TEAM_POOL_FALLBACK allows it): what is drawn becomes part of their allocation, as if an admin had allocated it.
 * Returns the amount drawn.
 */
export async function drawFromTeamPool(db: Db, uid: number, type: number, amount: number): Promise<number> {
  if (LIMIT_TYPES.has(type) || amount <= 0) return 0;
  const membership = await findMembership(db, uid, MEMBER_STATUS.active);
  if (!membership) return 0;
  const now = nowIso();
  const packages = (await findPackages(db, Number(membership.enterprise_id)))
    .filter((p) => p.expires_at === null || p.expires_at > now)
    // the package that ends first is used first
    .sort((a, b) => (a.expires_at ?? '9999').localeCompare(b.expires_at ?? '9999'));
  const rights = await findPackageRights(
    db,
    packages.map((p) => Number(p.id)),
  );
  const leftOf = (pkg: { id: number }) => {
    const right = rights.find((r) => Number(r.package_id) === Number(pkg.id) && Number(r.user_right_type) === type);
    return right ? Number(right.total) - Number(right.allocated) : 0;
  };
  // the pool covers the whole shortfall or nothing moves (a check that fails anyway takes nothing from the team)
  if (packages.reduce((sum, p) => sum + leftOf(p), 0) < amount) return 0;
  // one transaction for the whole draw: all of the shortfall moves, or nothing
  return db
    .transaction()
    .execute(async (trx) => {
      let drawn = 0;
      for (const pkg of packages) {
        const take = Math.min(leftOf(pkg), amount - drawn);
        if (take <= 0) continue;
        if (!(await takeFromPackage(trx, Number(pkg.id), type, take))) throw new PoolShort();
        const source = allocationSource(Number(pkg.id), type);
        await addToAllocation(
          trx,
          { uid, user_right_type: type, source, expires_at: pkg.expires_at, created_at: now },
          take,
        );
        await insertRightRecord(trx, {
          uid,
          user_right_type: type,
          num: take,
          ...reasonColumns('team.pool'),
          ref: source,
          created_at: now,
        });
        drawn += take;
        if (drawn >= amount) break;
      }
      return drawn;
    })
    .catch((error: unknown) => {
      // another draw took the pool meanwhile: nothing moved
      if (error instanceof PoolShort) return 0;
      throw error;
    });
}

class PoolShort extends Error {}
