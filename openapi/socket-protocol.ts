/**
 * The realtime socket protocol (spec §7 "Realtime socket"), typed once for the server and the
 * client. The prose version with examples is openapi/socket.md.
 *
 * Connect: `${socketURL}?token=<bearer token>&session_id=<id>` (or `&endpoint=<platform code>`).
 * Every frame is one JSON object. Messages that must be acknowledged carry `index` (a per-session
 * increasing integer); the client answers `{type: 1, cmd: 2, index}` and the server re-sends every
 * unacknowledged indexed message after a reconnect with the same session id.
 */

import type { components } from './schema';
import type { MessageParams, ServerMessageCode } from './messages';

/** Message families by `type`. */
export const SocketType = {
  Control: 1,
  Proofread: 2,
  Session: 3,
  Announcement: 4,
  Team: 5,
} as const;

/**
 * The spec's `(type, cmd)` pairs by name (spec §7): the server and the client say these, the wire carries the
 * numbers.
 */
export const Socket = {
  /** client -> server every 30 s, answered with the server's time */
  Heartbeat: { type: SocketType.Control, cmd: 1 },
  /** client -> server: an indexed message was received */
  Ack: { type: SocketType.Control, cmd: 2 },
  DocumentFlag: { type: SocketType.Proofread, cmd: 1 },
  CheckResult: { type: SocketType.Proofread, cmd: 2 },
  CheckId: { type: SocketType.Proofread, cmd: 3 },
  ImageResult: { type: SocketType.Proofread, cmd: 5 },
  PdfProgress: { type: SocketType.Proofread, cmd: 7 },
  WebsiteProgress: { type: SocketType.Proofread, cmd: 8 },
  SessionId: { type: SocketType.Session, cmd: 1 },
  Announcement: { type: SocketType.Announcement, cmd: 1 },
  TeamInvite: { type: SocketType.Team, cmd: 3 },
  TeamApplication: { type: SocketType.Team, cmd: 4 },
} as const;

/** One `(type, cmd)` pair of the protocol. */
export type SocketPair = (typeof Socket)[keyof typeof Socket];

/** Whether a frame is of the pair (whatever its status). */
export function isPair<M extends { type: number; cmd: number }, P extends SocketPair>(
  m: M,
  pair: P,
): m is Extract<M, { type: P['type']; cmd: P['cmd'] }> {
  return m.type === pair.type && m.cmd === pair.cmd;
}

/** Client -> server. */
export type HeartbeatMessage = typeof Socket.Heartbeat;
export type AckMessage = typeof Socket.Ack & { index: number };
export type ClientMessage = HeartbeatMessage | AckMessage;

/** A finding as the engine reports it: the contract's `Issue` (UTF-16 offsets into the checked text). */
export type SocketIssue = components['schemas']['Issue'];

export interface CheckIdData {
  check_id: string;
  paragraphs: number;
}
export interface CheckResultData {
  check_id: string;
  paragraph: number;
  /** UTF-16 offset of the paragraph in the submitted text; issue offsets are absolute already. */
  offset: number;
  hash: string;
  done: boolean;
  issues: SocketIssue[];
  /** characters consumed by the whole check, on the last message */
  used?: number;
}
export type JobStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
/**
 * Document message flag (`type 2 cmd 1`): the state of a document job, sent to every session of the owner
 * when the job starts, as it progresses (at most every 250 ms and only when `progress` grew), and when it
 * ends. Field names are those of `DocumentSummary` in workbench.yaml, so a client merges it into its row.
 */
export interface DocumentFlagData {
  /** the document id */
  id: number;
  status: JobStatus;
  /** 0-100 */
  progress: number;
  /** open findings so far (all of them once `done`) */
  issue_count: number;
  /** paragraphs checked so far / in all (absent while the text is being read) */
  paragraphs_done?: number;
  paragraphs?: number;
  /** readable reason, with `status` failed or cancelled (in the source language) */
  error?: string;
  /** the reason's stable code and values (openapi/messages.ts), for the reader's language */
  error_code?: ServerMessageCode;
  error_params?: MessageParams;
}
export interface ImageResultData {
  task_id: number;
  status: JobStatus;
  text?: string;
  width?: number;
  height?: number;
  /** findings with their boxes ([x, y, width, height] in image pixels; none once the text was edited) */
  issues?: Array<SocketIssue & { boxes: number[][] }>;
  /** [start, end) ranges of `text` the OCR was unsure of (识别存疑): never reported as typos on their own */
  unsure?: Array<[number, number]>;
  error?: string;
  error_code?: ServerMessageCode;
  error_params?: MessageParams;
}
export interface PdfProgressData {
  id: number;
  status: JobStatus;
  progress: number;
  page_count?: number;
  pages_done?: number;
  issue_count?: number;
  error?: string;
  error_code?: ServerMessageCode;
  error_params?: MessageParams;
}
/**
 * Website check progress (`type 2 cmd 8`), sent to every session of the owner as the pages are read and checked
 * and when the job ends. Field names are those of `Website` in workbench.yaml, so a client merges it into its row.
 */
export interface WebsiteProgressData {
  id: number;
  status: 'queued' | 'running' | 'done' | 'failed';
  /** 0-100: reading the pages takes the first half, checking them the rest */
  progress: number;
  pages_done: number;
  /** pages read so far (grows while a crawl finds links) */
  page_count: number;
  issue_count: number;
  error?: string;
  error_code?: ServerMessageCode;
  error_params?: MessageParams;
}
export interface AnnouncementData {
  /** the announcement (added: the notice list and POST /notice/v1/read name it) */
  id?: number;
  /** 0: stored for later (expires after 3 days without `time`); 1: non-closing popup. */
  display_mode: 0 | 1;
  /** 0 通知, 1 系统升级公告, 2 系统维护通知, 3 安全警告, 4 新功能介绍, 5 活动公告 */
  announcement_type: 0 | 1 | 2 | 3 | 4 | 5;
  html_text?: string;
  text?: string;
  /** expiry, milliseconds since the epoch */
  time?: number;
}
export interface TeamInviteData {
  id: number;
  enterprise_id: number;
  enterprise_name: string;
  inviter_name: string;
}
export interface TeamApplicationData {
  id: number;
  enterprise_id: number;
  applicant_name: string;
  phone: string;
}

/**
 * Server -> client. `status` 200 (or absent) marks a normal message with typed `data`; any other
 * status carries an array of messages instead (spec §7).
 */
type Message<P extends SocketPair, D> = { type: P['type']; cmd: P['cmd']; index?: number } & (
  { status?: 200; data: D } | { status: number; data: string[] }
);

export type HeartbeatReply = typeof Socket.Heartbeat & { status?: number; index?: number; data?: { time: number } };
export type DocumentFlagMessage = Message<typeof Socket.DocumentFlag, DocumentFlagData>;
export type CheckResultMessage = Message<typeof Socket.CheckResult, CheckResultData>;
export type CheckIdMessage = Message<typeof Socket.CheckId, CheckIdData>;
export type ImageResultMessage = Message<typeof Socket.ImageResult, ImageResultData>;
export type PdfProgressMessage = Message<typeof Socket.PdfProgress, PdfProgressData>;
export type WebsiteProgressMessage = Message<typeof Socket.WebsiteProgress, WebsiteProgressData>;
export type SessionIdMessage = typeof Socket.SessionId & {
  status?: number;
  index?: number;
  data: { session_id: string };
};
export type AnnouncementMessage = Message<typeof Socket.Announcement, AnnouncementData>;
export type TeamInviteMessage = Message<typeof Socket.TeamInvite, TeamInviteData>;
export type TeamApplicationMessage = Message<typeof Socket.TeamApplication, TeamApplicationData>;

export type ServerMessage =
  | HeartbeatReply
  | DocumentFlagMessage
  | CheckResultMessage
  | CheckIdMessage
  | ImageResultMessage
  | PdfProgressMessage
  | WebsiteProgressMessage
  | SessionIdMessage
  | AnnouncementMessage
  | TeamInviteMessage
  | TeamApplicationMessage;

/** Close codes the server uses, with the reason text sent in the close frame. */
export const SocketClose = {
  /** Missing, unknown, expired or revoked token. */
  Unauthorized: { code: 4401, reason: 'unauthorized: 登录已失效，请重新登录' },
  /** Malformed frame (not JSON, or not a known client message). */
  BadMessage: { code: 4400, reason: 'bad message' },
  /** The same session id was opened again elsewhere; the newer connection wins. */
  Replaced: { code: 4409, reason: 'replaced by a newer connection' },
  /** The account opened more sessions than the server keeps (SOCKET_SESSIONS_PER_USER): its oldest is closed. */
  Evicted: { code: 4429, reason: 'too many sessions: opened in other windows' },
} as const;

export const HEARTBEAT_INTERVAL_MS = 30_000;

export function isClientMessage(value: unknown): value is ClientMessage {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  if (m.type === Socket.Heartbeat.type && m.cmd === Socket.Heartbeat.cmd) return true;
  return (
    m.type === Socket.Ack.type && m.cmd === Socket.Ack.cmd && Number.isInteger(m.index) && (m.index as number) >= 0
  );
}

/** The messages of an error report (a status other than 200), or null for a message that is no error report. */
export function errorReport(m: ServerMessage): string[] | null {
  if (m.status === undefined || m.status === 200) return null;
  return Array.isArray(m.data) ? m.data.map(String) : [];
}

/** A document's job moved on (type 2 cmd 1), not an error report. */
export function isDocumentFlag(m: ServerMessage): m is DocumentFlagMessage & { data: DocumentFlagData } {
  return isPair(m, Socket.DocumentFlag) && (m.status === undefined || m.status === 200);
}

/** An image check moved on or ended (type 2 cmd 5), not an error report. */
export function isImageResult(m: ServerMessage): m is ImageResultMessage & { data: ImageResultData } {
  return isPair(m, Socket.ImageResult) && (m.status === undefined || m.status === 200);
}

/** A PDF check moved on (type 2 cmd 7), not an error report. */
export function isPdfProgress(m: ServerMessage): m is PdfProgressMessage & { data: PdfProgressData } {
  return isPair(m, Socket.PdfProgress) && (m.status === undefined || m.status === 200);
}

/** An announcement (type 4 cmd 1). */
export function isAnnouncement(m: ServerMessage): m is AnnouncementMessage & { data: AnnouncementData } {
  return isPair(m, Socket.Announcement) && (m.status === undefined || m.status === 200);
}

/** A website check moved on (type 2 cmd 8), not an error report. */
export function isWebsiteProgress(m: ServerMessage): m is WebsiteProgressMessage & { data: WebsiteProgressData } {
  return isPair(m, Socket.WebsiteProgress) && (m.status === undefined || m.status === 200);
}

export function isServerMessage(value: unknown): value is ServerMessage {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  return typeof m.type === 'number' && typeof m.cmd === 'number';
}
