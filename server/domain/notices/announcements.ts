/**
 * Announcements (spec §7 socket type 4 cmd 1): the site's operators publish them (POST /admin/v1/announcements,
 * `admin notice`) to everyone, a team or an account role. Each reaches a user exactly once over the socket: at once
 * when they are connected, else when their socket next connects (a receipt row records the delivery). The notice
 * list (GET /notice/v1/list) keeps them until they expire; a popup (display mode 1) stays until the user
 * acknowledges it (POST /notice/v1/read).
 *
 * Publishing from another process (the CLI, another server) is picked up by each server's sweep, which delivers
 * what its own connected users have not had yet.
 */
import sanitizeHtml from 'sanitize-html';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { nowIso, type Db } from '../../db';
import { badRequest, notFound } from '../../errors';
import type { AnnouncementData } from '../../../openapi/socket-protocol';
import { Socket } from '../../../openapi/socket-protocol';

/** Spec §9: a stored notice without a time expires after 3 days. */
export const NOTICE_DAYS = 3;
const DAY_MS = 86_400_000;
export const ANNOUNCEMENT_TEXT_MAX = 5_000;

export type Audience = 'all' | 'team' | 'role';

export interface PublishInput {
  announcement_type: 0 | 1 | 2 | 3 | 4 | 5;
  display_mode: 0 | 1;
  text?: string;
  html_text?: string;
  audience: Audience;
  enterprise_id?: number;
  role?: string;
  /** ISO time; default: NOTICE_DAYS for display mode 0, none (until acknowledged) for 1 */
  expires_at?: string | null;
}

/** Announcements may carry simple formatting; nothing that runs, loads or styles. */
export function sanitizeAnnouncement(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 'ul', 'ol', 'li', 'h3', 'h4', 'a', 'span'],
    allowedAttributes: { a: ['href', 'rel', 'target'] },
    allowedSchemes: ['https', 'mailto'],
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer', target: '_blank' }) },
  }).trim();
}

/** The text of sanitised HTML: block ends become line breaks. */
export function htmlToText(html: string): string {
  const marked = html.replace(/<br\s*\/?>/gi, '\n').replace(/<\/(p|li|h3|h4)>/gi, '\n');
  return sanitizeHtml(marked, { allowedTags: [], allowedAttributes: {} })
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Publishes from this server: stored, then sent at once to the connected users it is meant for. */
export async function publishAnnouncement(app: FastifyInstance, input: PublishInput, createdBy: number | null) {
  const id = await insertAnnouncement(app.db, input, createdBy);
  const delivered = await deliverToConnected(app);
  return { id, delivered };
}

/** Stores an announcement (checked and sanitised); servers deliver it (the CLI's reach users this way). */
export async function insertAnnouncement(db: Db, input: PublishInput, createdBy: number | null): Promise<number> {
  const html = input.html_text ? sanitizeAnnouncement(input.html_text) : '';
  const text = (input.text ?? '').trim() || htmlToText(html);
  if (!text) throw badRequest('notice.empty');
  if (text.length > ANNOUNCEMENT_TEXT_MAX) throw badRequest('notice.too_long', { max: ANNOUNCEMENT_TEXT_MAX });
  if (input.audience === 'team' && !input.enterprise_id)
    throw badRequest('notice.audience', { field: 'enterprise_id' });
  if (input.audience === 'role' && !input.role) throw badRequest('notice.audience', { field: 'role' });
  const now = Date.now();
  let expires: string | null;
  if (input.expires_at) {
    const at = Date.parse(input.expires_at);
    if (!Number.isFinite(at) || at <= now) throw badRequest('notice.expired');
    expires = new Date(at).toISOString();
  } else expires = input.display_mode === 0 ? new Date(now + NOTICE_DAYS * DAY_MS).toISOString() : null;
  const row = await db
    .insertInto('announcements')
    .values({
      announcement_type: input.announcement_type,
      display_mode: input.display_mode,
      text,
      html_text: html,
      audience: input.audience,
      enterprise_id: input.audience === 'team' ? (input.enterprise_id ?? null) : null,
      role: input.audience === 'role' ? (input.role ?? null) : null,
      expires_at: expires,
      created_by: createdBy,
      created_at: nowIso(),
      withdrawn_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

type Row = {
  id: number;
  announcement_type: number;
  display_mode: number;
  text: string;
  html_text: string;
  expires_at: string | null;
  created_at: string;
};

export function announcementMessage(row: Row): AnnouncementData & { id: number } {
  return {
    id: Number(row.id),
    display_mode: row.display_mode === 1 ? 1 : 0,
    announcement_type: Math.min(5, Math.max(0, Number(row.announcement_type))) as AnnouncementData['announcement_type'],
    text: row.text,
    ...(row.html_text ? { html_text: row.html_text } : {}),
    ...(row.expires_at ? { time: Date.parse(row.expires_at) } : {}),
  };
}

/** The active announcements meant for one user (not withdrawn, not expired, their audience). */
function activeFor(db: Db, user: { role: string; enterprise_id: number | null }) {
  const now = nowIso();
  return db
    .selectFrom('announcements as a')
    .where('a.withdrawn_at', 'is', null)
    .where((eb) => eb.or([eb('a.expires_at', 'is', null), eb('a.expires_at', '>', now)]))
    .where((eb) =>
      eb.or([
        eb('a.audience', '=', 'all'),
        eb.and([eb('a.audience', '=', 'role'), eb('a.role', '=', user.role)]),
        ...(user.enterprise_id !== null
          ? [eb.and([eb('a.audience', '=', 'team'), eb('a.enterprise_id', '=', user.enterprise_id)])]
          : []),
      ]),
    );
}

async function userOf(db: Db, uid: number) {
  return db.selectFrom('users').select(['role', 'enterprise_id']).where('uid', '=', uid).executeTakeFirst();
}

/** Sends a user what they have not had yet; returns how many. Safe to run twice at once: receipts decide. */
export async function deliverPending(app: FastifyInstance, uid: number): Promise<number> {
  const user = await userOf(app.db, uid);
  if (!user) return 0;
  const pending = await activeFor(app.db, { role: user.role, enterprise_id: user.enterprise_id })
    .leftJoin('announcement_receipts as r', (j) => j.onRef('r.announcement_id', '=', 'a.id').on('r.uid', '=', uid))
    .where('r.uid', 'is', null)
    .select(['a.id', 'a.announcement_type', 'a.display_mode', 'a.text', 'a.html_text', 'a.expires_at', 'a.created_at'])
    .orderBy('a.id')
    .execute();
  let sent = 0;
  for (const row of pending) {
    const inserted = await app.db
      .insertInto('announcement_receipts')
      .values({ announcement_id: Number(row.id), uid, delivered_at: nowIso(), acknowledged_at: null })
      .onConflict((oc) => oc.columns(['announcement_id', 'uid']).doNothing())
      .returning('uid')
      .executeTakeFirst();
    if (!inserted) continue;
    app.realtime.sendToUser(uid, { ...Socket.Announcement, status: 200, data: announcementMessage(row) });
    sent++;
  }
  return sent;
}

/**
 * Delivers what the users connected to this process have not had: one query for the new announcements' audiences,
 * one insert of receipts per announcement (the rows inserted say whom to send to), then the sends.
 */
export async function deliverToConnected(app: FastifyInstance): Promise<number> {
  const uids = [...new Set(app.realtime.localSessions().map((s) => s.uid))];
  if (uids.length === 0) return 0;
  const now = nowIso();
  const fresh = await app.db
    .selectFrom('announcements')
    .selectAll()
    .where('withdrawn_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('id')
    .execute();
  if (fresh.length === 0) return 0;
  let sent = 0;
  for (let i = 0; i < uids.length; i += 500) {
    const chunk = uids.slice(i, i + 500);
    const users = await app.db
      .selectFrom('users')
      .select(['uid', 'role', 'enterprise_id'])
      .where('uid', 'in', chunk)
      .execute();
    for (const a of fresh) {
      const audience = users.filter(
        (u) =>
          a.audience === 'all' ||
          (a.audience === 'role' && u.role === a.role) ||
          (a.audience === 'team' && u.enterprise_id !== null && Number(u.enterprise_id) === Number(a.enterprise_id)),
      );
      if (audience.length === 0) continue;
      const inserted = await app.db
        .insertInto('announcement_receipts')
        .values(audience.map((u) => ({ announcement_id: Number(a.id), uid: Number(u.uid), delivered_at: now })))
        .onConflict((oc) => oc.columns(['announcement_id', 'uid']).doNothing())
        .returning('uid')
        .execute();
      const message = { ...Socket.Announcement, status: 200 as const, data: announcementMessage(a) };
      for (const r of inserted) {
        app.realtime.sendToUser(Number(r.uid), message);
        sent++;
      }
    }
  }
  return sent;
}

/** The user's notice list: active announcements meant for them, newest first, with whether they read them. */
export async function noticesFor(db: Db, uid: number) {
  const user = await userOf(db, uid);
  if (!user) return { list: [], unread: 0 };
  const rows = await activeFor(db, { role: user.role, enterprise_id: user.enterprise_id })
    .leftJoin('announcement_receipts as r', (j) => j.onRef('r.announcement_id', '=', 'a.id').on('r.uid', '=', uid))
    .select([
      'a.id',
      'a.announcement_type',
      'a.display_mode',
      'a.text',
      'a.html_text',
      'a.expires_at',
      'a.created_at',
      'r.acknowledged_at',
    ])
    .orderBy('a.id', 'desc')
    .limit(100)
    .execute();
  const list = rows.map((r) => ({
    ...announcementMessage(r),
    created_at: r.created_at,
    read: r.acknowledged_at !== null && r.acknowledged_at !== undefined,
  }));
  return { list, unread: list.filter((n) => !n.read).length };
}

/** Marks announcements read (a popup acknowledged); ids not meant for the user are ignored. */
export async function markRead(db: Db, uid: number, ids: number[]): Promise<number> {
  const user = await userOf(db, uid);
  if (!user) return 0;
  const mine = await activeFor(db, { role: user.role, enterprise_id: user.enterprise_id })
    .select('a.id')
    .where('a.id', 'in', ids)
    .execute();
  const now = nowIso();
  let count = 0;
  for (const { id } of mine) {
    await db
      .insertInto('announcement_receipts')
      .values({ announcement_id: Number(id), uid, delivered_at: now, acknowledged_at: now })
      .onConflict((oc) =>
        oc.columns(['announcement_id', 'uid']).doUpdateSet({
          // qualified: PostgreSQL sees the excluded row's column too
          acknowledged_at: sql`coalesce(announcement_receipts.acknowledged_at, ${now})`,
        }),
      )
      .execute();
    count++;
  }
  return count;
}

/** Every announcement with how many users had it and read it (operators). */
export async function allAnnouncements(db: Db) {
  const rows = await db
    .selectFrom('announcements as a')
    .leftJoin('announcement_receipts as r', 'r.announcement_id', 'a.id')
    .select((eb) => [
      'a.id',
      'a.announcement_type',
      'a.display_mode',
      'a.text',
      'a.html_text',
      'a.audience',
      'a.enterprise_id',
      'a.role',
      'a.expires_at',
      'a.created_at',
      'a.withdrawn_at',
      eb.fn.count<number>('r.uid').as('delivered'),
      eb.fn.count<number>('r.acknowledged_at').as('read'),
    ])
    .groupBy('a.id')
    .orderBy('a.id', 'desc')
    .limit(200)
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), delivered: Number(r.delivered), read: Number(r.read) }));
}

export async function withdrawAnnouncement(db: Db, id: number): Promise<void> {
  const res = await db
    .updateTable('announcements')
    .set({ withdrawn_at: nowIso() })
    .where('id', '=', id)
    .where('withdrawn_at', 'is', null)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw notFound('notice.unknown');
}
