/**
 * The realtime socket protocol (spec §7 "Realtime socket"), typed once for the server and the
 * client. The prose version with examples is openapi/socket.md.
 *
 * Connect: `${socketURL}?token=<bearer token>&session_id=<id>` (or `&endpoint=<platform code>`).
 * Every frame is one JSON object. Messages that must be acknowledged carry `index` (a per-session
 * increasing integer); the client answers `{type: 1, cmd: 2, index}` and the server re-sends every
 * unacknowledged indexed message after a reconnect with the same session id.
 */

/** Message families by `type`. */
export const SocketType = {
  Control: 1,
  Proofread: 2,
  Session: 3,
  Announcement: 4,
  Team: 5,
} as const;

/** Client -> server. */
export type HeartbeatMessage = { type: 1; cmd: 1 };
export type AckMessage = { type: 1; cmd: 2; index: number };
export type ClientMessage = HeartbeatMessage | AckMessage;

/** Server -> client. `status` 200 marks a normal message (spec §7). */
interface ServerBase {
  status?: number;
  index?: number;
}
export interface HeartbeatReply extends ServerBase { type: 1; cmd: 1; data?: { time: number } }
export interface DocumentFlagMessage extends ServerBase { type: 2; cmd: 1; data: unknown }
export interface CheckResultMessage extends ServerBase { type: 2; cmd: 2; data: unknown }
export interface CheckIdMessage extends ServerBase { type: 2; cmd: 3; data: unknown }
export interface ImageResultMessage extends ServerBase { type: 2; cmd: 5; data: unknown }
export interface PdfProgressMessage extends ServerBase { type: 2; cmd: 7; data: unknown }
export interface SessionIdMessage extends ServerBase { type: 3; cmd: 1; data: { session_id: string } }
export interface AnnouncementMessage extends ServerBase {
  type: 4;
  cmd: 1;
  data: {
    /** 0: stored for later (expires after 3 days without `time`); 1: non-closing popup. */
    display_mode: 0 | 1;
    /** 0 通知, 1 系统升级公告, 2 系统维护通知, 3 安全警告, 4 新功能介绍, 5 活动公告 */
    announcement_type: 0 | 1 | 2 | 3 | 4 | 5;
    html_text?: string;
    text?: string;
    time?: number;
  };
}
export interface TeamInviteMessage extends ServerBase { type: 5; cmd: 3; data: unknown }
export interface TeamApplicationMessage extends ServerBase { type: 5; cmd: 4; data: unknown }

export type ServerMessage =
  | HeartbeatReply
  | DocumentFlagMessage
  | CheckResultMessage
  | CheckIdMessage
  | ImageResultMessage
  | PdfProgressMessage
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
} as const;

export const HEARTBEAT_INTERVAL_MS = 30_000;

export function isClientMessage(value: unknown): value is ClientMessage {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  if (m.type !== 1) return false;
  if (m.cmd === 1) return true;
  return m.cmd === 2 && Number.isInteger(m.index) && (m.index as number) >= 0;
}

export function isServerMessage(value: unknown): value is ServerMessage {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  return typeof m.type === 'number' && typeof m.cmd === 'number';
}
