import type { Db } from '../../db';
import { nowIso } from '../../db';
import { sql } from 'kysely';
import { badRequest } from '../../errors';
import { countCheck } from '../../metrics';

/**
 * Usage of checks for team metrics: one `check_events` row per finished check (text, API, document, PDF, image,
 * speech, website) with the characters checked, the findings and their counts by category. The team of a row
 * is the user's team when the check finished, so members who leave keep their past in the team's figures.
 */

export type CheckKind = 'text' | 'api' | 'document' | 'pdf' | 'image' | 'speech' | 'website';

export async function recordCheck(
  db: Db,
  input: { uid: number; kind: CheckKind; chars: number; issues: ReadonlyArray<{ category: string }> },
): Promise<void> {
  countCheck(input.kind, input.chars);
  const user = await db.selectFrom('users').select('enterprise_id').where('uid', '=', input.uid).executeTakeFirst();
  const categories: Record<string, number> = {};
  for (const i of input.issues) categories[i.category] = (categories[i.category] ?? 0) + 1;
  await db
    .insertInto('check_events')
    .values({
      uid: input.uid,
      enterprise_id: user?.enterprise_id ?? null,
      kind: input.kind,
      chars: input.chars,
      issues: input.issues.length,
      categories: JSON.stringify(categories),
      created_at: nowIso(),
    })
    .execute();
}

const DAY_MS = 86_400_000;
export const METRIC_MAX_DAYS = 366;
const day = (d: Date) => d.toISOString().slice(0, 10);

/** The range of a metrics query: default the last 30 days; at most METRIC_MAX_DAYS. */
export function metricRange(start?: string, end?: string): { start: string; end: string; days: string[] } {
  const endDay = end ?? day(new Date());
  const startDay = start ?? day(new Date(Date.parse(`${endDay}T00:00:00Z`) - 29 * DAY_MS));
  const from = Date.parse(`${startDay}T00:00:00Z`);
  const to = Date.parse(`${endDay}T00:00:00Z`);
  if (!Number.isFinite(from) || !Number.isFinite(to) || from > to || (to - from) / DAY_MS >= METRIC_MAX_DAYS)
    throw badRequest('team.bad_range', { days: METRIC_MAX_DAYS });
  const days: string[] = [];
  for (let t = from; t <= to; t += DAY_MS) days.push(day(new Date(t)));
  return { start: startDay, end: endDay, days };
}

/**
 * The team's figures over a range: totals, one entry per day, and one per member (characters, checks,
 * findings by category, findings accepted and ignored).
 */
export async function teamMetrics(db: Db, enterpriseId: number, range: { start: string; end: string; days: string[] }) {
  const from = `${range.start}T00:00:00.000Z`;
  const until = new Date(Date.parse(`${range.end}T00:00:00Z`) + DAY_MS).toISOString();
  // totals are summed by the database (one row per day, per member, per member and category set), not here
  const scope = db
    .selectFrom('check_events as c')
    .where('c.enterprise_id', '=', enterpriseId)
    .where('c.created_at', '>=', from)
    .where('c.created_at', '<', until);
  const day = sql<string>`substr(c.created_at, 1, 10)`;
  const perDay = await scope
    .select((eb) => [
      day.as('day'),
      eb.fn.countAll().as('checks'),
      eb.fn.sum<number>('c.chars').as('chars'),
      eb.fn.sum<number>('c.issues').as('issues'),
    ])
    .groupBy(day)
    .execute();
  const daily = new Map(range.days.map((d) => [d, { date: d, check_count: 0, word_count: 0, issue_count: 0 }]));
  for (const r of perDay) {
    const d = daily.get(r.day);
    if (!d) continue;
    d.check_count = Number(r.checks);
    d.word_count = Number(r.chars ?? 0);
    d.issue_count = Number(r.issues ?? 0);
  }
  const perMember = await scope
    .leftJoin('users as u', 'u.uid', 'c.uid')
    .select((eb) => [
      'c.uid',
      eb.fn.max('u.name').as('name'),
      eb.fn.countAll().as('checks'),
      eb.fn.sum<number>('c.chars').as('chars'),
      eb.fn.sum<number>('c.issues').as('issues'),
      eb.fn.sum<number>(sql`case when c.kind in ('text', 'api') then 0 else 1 end`).as('documents'),
    ])
    .groupBy('c.uid')
    .execute();
  const members = new Map(
    perMember.map((r) => [
      Number(r.uid),
      {
        uid: Number(r.uid),
        name: r.name ?? '',
        check_count: Number(r.checks),
        word_count: Number(r.chars ?? 0),
        issue_count: Number(r.issues ?? 0),
        document_count: Number(r.documents ?? 0),
        categories: {} as Record<string, number>,
        accepted: 0,
        ignored: 0,
      },
    ]),
  );
  const categorySets = await scope
    .select((eb) => ['c.uid', 'c.categories', eb.fn.countAll().as('n')])
    .where('c.issues', '>', 0)
    .groupBy(['c.uid', 'c.categories'])
    .execute();
  for (const r of categorySets) {
    const m = members.get(Number(r.uid));
    if (!m) continue;
    try {
      const cats: unknown = JSON.parse(r.categories);
      if (cats && typeof cats === 'object')
        for (const [k, v] of Object.entries(cats))
          if (typeof v === 'number') m.categories[k] = (m.categories[k] ?? 0) + v * Number(r.n);
    } catch {
      // a row written by hand; its counts still add up above
    }
  }
  if (members.size > 0) {
    const feedback = await db
      .selectFrom('finding_feedback')
      .select(['uid', 'action'])
      .select((eb) => eb.fn.countAll().as('n'))
      .where('uid', 'in', [...members.keys()])
      .where('created_at', '>=', from)
      .where('created_at', '<', until)
      .groupBy(['uid', 'action'])
      .execute();
    for (const f of feedback) {
      const m = members.get(Number(f.uid));
      if (!m) continue;
      if (f.action === 'accept') m.accepted += Number(f.n);
      else if (f.action === 'ignore') m.ignored += Number(f.n);
    }
  }
  const list = [...daily.values()];
  return {
    check_count: list.reduce((s, d) => s + d.check_count, 0),
    word_count: list.reduce((s, d) => s + d.word_count, 0),
    issue_count: list.reduce((s, d) => s + d.issue_count, 0),
    active_members: members.size,
    daily: list,
    members: [...members.values()].sort((a, b) => b.word_count - a.word_count),
  };
}
