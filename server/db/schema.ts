import type { ColumnType, Generated } from 'kysely';
import type { JobStatus } from '../../openapi/socket-protocol';

export type OrderStatus = 'pending' | 'paid' | 'closed' | 'refunded';
export type PayType = 'wechat' | 'coupon' | 'admin';

/** Table types for Kysely. Timestamps are ISO-8601 UTC strings so SQLite and PostgreSQL agree. */
export interface UsersTable {
  uid: Generated<number>;
  /** Null once the account is closed (the number is freed for a new registration). */
  phone: string | null;
  login_id: string | null;
  name: string;
  role: string;
  user_identity: number;
  enterprise_id: number | null;
  password_hash: string;
  created_at: string;
  closed_at: string | null;
}

export interface TokensTable {
  id: Generated<number>;
  /** sha256 of the bearer token; the token itself is never stored. */
  token_hash: string;
  uid: number;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  /** the external app the login came from (spec §2 login_resp_code=1) */
  app_uuid: Generated<string | null>;
}

export interface SmsCodesTable {
  id: Generated<number>;
  phone: string;
  purpose: string;
  code_hash: string;
  attempts: number;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface MessagesTable {
  id: Generated<number>;
  uid: number;
  content: string;
  contact: string | null;
  created_at: string;
}

export interface PortraitsTable {
  uid: number;
  mime: string;
  data: Buffer;
  updated_at: string;
}

export interface ServerInstancesTable {
  id: string;
  started_at: string;
  seen_at: string;
}

export interface CheckReservationsTable {
  check_id: string;
  uid: number;
  instance: string;
  /** JSON: the Consumption (domain/rights/ledger.ts) the check took */
  consumption: string;
  created_at: string;
}

export interface SocketSessionsTable {
  session_id: string;
  uid: number;
  instance: string;
  created_at: string;
}

export interface RateLimitsTable {
  key: string;
  count: number;
  /** epoch milliseconds */
  reset_at: number | string;
}

export interface ShareRecordsTable {
  id: Generated<number>;
  uid: number;
  channel: string;
  share_url: string | null;
  reward_num: number;
  created_at: string;
}

export interface AuthFailuresTable {
  subject: string;
  failures: number;
  window_started_at: string;
  locked_until: string | null;
}

export interface DictWordsTable {
  id: Generated<number>;
  uid: number;
  word: string;
  type: number;
  correct: string | null;
  created_at: string;
  updated_at: string;
}

export interface ProductsTable {
  id: Generated<number>;
  code: string;
  name: string;
  type: number;
  belong_to: number;
  price: number;
  original_price: number | null;
  duration_days: number | null;
  description: string;
  recommended: number;
  on_sale: number;
  sort: number;
  rights: string;
  /** JSON of the name's and description's other forms: {"en":{"name","description"},"hk":{…}}; null: fallbacks */
  i18n: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: string;
  updated_at: string;
}

export interface OrdersTable {
  id: Generated<number>;
  order_no: string;
  uid: number;
  product_id: number;
  product_name: string;
  quantity: number;
  amount: number;
  status: OrderStatus;
  pay_type: PayType;
  code_url: string | null;
  expire_at: string;
  transaction_id: string | null;
  created_at: string;
  paid_at: string | null;
}

export interface DownloadsTable {
  id: Generated<number>;
  uid: number;
  name: string;
  mime: string;
  size: number;
  file_key: string;
  created_at: string;
  expires_at: string;
}

export interface RightGrantsTable {
  id: Generated<number>;
  uid: number;
  user_right_type: number;
  total: number;
  remaining: number;
  expires_at: string | null;
  source: string;
  created_at: string;
}

export interface RightRecordsTable {
  id: Generated<number>;
  uid: number;
  user_right_type: number;
  num: number;
  /** the reason in cn */
  reason: string;
  /** the reason's code (domain/rights/reasons.ts), written in the reader's language when listed; null: `reason` */
  reason_code: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON of the code's values, e.g. {"product":"…","product_id":2} */
  reason_params: ColumnType<string | null, string | null | undefined, string | null>;
  ref: string | null;
  created_at: string;
}

export interface CouponCodesTable {
  id: Generated<number>;
  code_hash: string;
  hint: string;
  batch: string;
  user_right_type: number;
  amount: number;
  valid_days: number | null;
  expires_at: string | null;
  created_at: string;
  used_by: number | null;
  used_at: string | null;
}

export interface UserWordLibrariesTable {
  uid: number;
  library_id: number;
  created_at: string;
}

/** Team tables (migration 0004_teams). */
export interface EnterprisesTable {
  id: Generated<number>;
  name: string;
  address: string;
  equity_num: number;
  equity_time: string | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
  /** the code members of the public apply with; null until an admin first reads the team's details */
  invitation_code: string | null;
}

export interface EnterpriseMembersTable {
  id: Generated<number>;
  enterprise_id: number;
  uid: number | null;
  phone: string;
  role: string;
  status: number;
  remark: string;
  invited_by: number | null;
  created_at: string;
  updated_at: string;
  joined_at: string | null;
  /** the name shown in the team ('' = the account's name) */
  name: string;
  /** the SMS link's code of a pending invitation */
  invite_code: string | null;
  invite_expires_at: string | null;
}

export interface TeamApplicationsTable {
  id: Generated<number>;
  /** 'team' (/teamApply) or 'api' (/apiApply) */
  kind: string;
  uid: number;
  name: string;
  contact_name: string;
  phone: string;
  email: string;
  address: string;
  user_num: number;
  remark: string;
  source: string;
  /** 'pending' | 'approved' | 'refused' */
  status: string;
  enterprise_id: number | null;
  reviewed_by: number | null;
  review_note: string;
  created_at: string;
  reviewed_at: string | null;
}

export interface LeadersTable {
  id: Generated<number>;
  /** 'user' (personal list, owner_id = uid) or 'team' (owner_id = enterprise id) */
  owner_kind: string;
  owner_id: number;
  name: string;
  /** JSON array of titles */
  titles: string;
  organization: string;
  sort: number;
  created_at: string;
  updated_at: string;
}

export interface LeaderHistoryTable {
  id: Generated<number>;
  owner_kind: string;
  owner_id: number;
  action: string;
  summary: string;
  leader_id: number | null;
  operator: number | null;
  created_at: string;
}

export interface TeamPackagesTable {
  id: Generated<number>;
  enterprise_id: number;
  product_name: string;
  order_id: number | null;
  expires_at: string | null;
  created_at: string;
}

export interface TeamPackageRightsTable {
  package_id: number;
  user_right_type: number;
  total: number;
  allocated: number;
}

export interface CheckEventsTable {
  id: Generated<number>;
  uid: number;
  enterprise_id: number | null;
  /** text, document, pdf, image, speech, website */
  kind: string;
  chars: number;
  issues: number;
  /** JSON object: finding category → count */
  categories: string;
  created_at: string;
}

export interface EnterpriseDictsTable {
  id: Generated<number>;
  enterprise_id: number;
  name: string;
  description: string;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface EnterpriseDictWordsTable {
  id: Generated<number>;
  dict_id: number;
  word: string;
  type: number;
  correct: string | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface EnterpriseDictUsersTable {
  dict_id: number;
  uid: number;
  created_at: string;
}

export interface DocumentsTable {
  id: Generated<number>;
  uid: number;
  name: string;
  file_type: string;
  size: number;
  status: JobStatus;
  progress: number;
  error: string | null;
  /** the failure's message code and its values as JSON (openapi/messages.ts) */
  error_code: string | null;
  error_params: string | null;
  word_count: number;
  issue_count: number;
  check_mode: number;
  check_options: number;
  lang: string;
  html: string | null;
  text: string | null;
  /** JSON: every finding of the current text (StoredIssue[]) */
  issues: string | null;
  /** JSON: accepted fixes (Fix[]) */
  fixes: string | null;
  /** JSON: ignored findings (Ignored[]) */
  ignored: string | null;
  edited: number;
  share_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface DocumentFilesTable {
  document_id: number;
  data: Buffer;
}

export interface ApiKeysTable {
  uid: number;
  /** sha256 of the key; the key itself is shown once and never stored */
  key_hash: string;
  hint: string;
  created_at: string;
}

export interface ClicksTable {
  id: Generated<number>;
  uid: number;
  click_type: number;
  created_at: string;
}

export interface FindingFeedbackTable {
  id: Generated<number>;
  uid: number;
  action: string;
  check_id: string | null;
  original: string;
  suggestion: string | null;
  category: string;
  context: string | null;
  comment: string | null;
  created_at: string;
}

export interface DictImportFailuresTable {
  uid: number;
  filename: string;
  /** the rejected rows as JSON */
  rows: string;
  created_at: string;
}

/** A user's website for link proofreading and the state of its last check (formats/web/checks.ts). */
export interface WebsitesTable {
  id: Generated<number>;
  uid: number;
  url: string;
  name: string;
  depth: number;
  page_limit: number;
  status: 'idle' | 'queued' | 'running' | 'done' | 'failed';
  progress: number;
  error: string | null;
  error_code: string | null;
  /** JSON of the error's message values */
  error_params: string | null;
  /** JSON of the last finished check's result (`Website.last_result`) */
  last_result: string | null;
  last_checked_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A user's PDF check and its job state (formats/pdf/checks.ts); the file and the pages apart. */
export interface PdfChecksTable {
  id: Generated<number>;
  uid: number;
  name: string;
  size: number;
  status: JobStatus;
  progress: number;
  page_count: number;
  pages_done: number;
  issue_count: number;
  error: string | null;
  error_code: string | null;
  error_params: string | null;
  created_at: string;
  updated_at: string;
}

export interface PdfFilesTable {
  pdf_id: number;
  data: Uint8Array;
}

/** One checked page: its text, findings with their boxes, and the rendered image once asked for. */
export interface PdfPagesTable {
  pdf_id: number;
  page: number;
  width: number;
  height: number;
  ocr: number;
  text: string;
  /** JSON of the findings (offsets into `text`, `rects` in points) */
  issues: string;
  /** JSON of the [start, end) ranges of `text` OCR was unsure of (识别存疑); null on pages not read by OCR */
  unsure: string | null;
  image: Uint8Array | null;
}

/** An image check (OCR, then the checker): its state, the recognised text and findings; the file is not kept. */
export interface ImageTasksTable {
  id: Generated<number>;
  uid: number;
  name: string;
  size: number;
  status: JobStatus;
  width: number;
  height: number;
  text: string | null;
  /** JSON of the findings (offsets into `text`, `boxes` in image pixels) */
  issues: string | null;
  /** JSON of the [start, end) ranges of `text` the OCR was unsure of */
  unsure: string | null;
  error: string | null;
  error_code: string | null;
  error_params: string | null;
  created_at: string;
  updated_at: string;
}

/** The uploaded image of an image task, kept until its check is done (a restarted check reads it again). */
export interface ImageFilesTable {
  task_id: number;
  data: Uint8Array;
}

/** A user's speech task (audio or video proofreading; formats/media/speech.ts); its files and segments apart. */
export interface SpeechTasksTable {
  id: Generated<number>;
  uid: number;
  name: string;
  kind: 'audio' | 'video';
  size: number;
  status: JobStatus;
  progress: number;
  duration_ms: number;
  /** minutes charged (right 1024 or 2048) */
  minutes: number;
  /** JSON of what ffmpeg found in the upload (streams, duration); null for a transcript uploaded alone */
  probe: string | null;
  transcript_source: 'asr' | 'subtitle' | 'embedded_subtitle' | 'burned_subtitle' | null;
  has_mp3: number;
  segment_count: number;
  issue_count: number;
  error: string | null;
  error_code: string | null;
  error_params: string | null;
  created_at: string;
  updated_at: string;
}

/** The upload (kept until the task ends), the uploaded subtitle's segments and the converted mp3. */
export interface SpeechFilesTable {
  task_id: number;
  source: Uint8Array | null;
  /** JSON of the uploaded subtitle's segments */
  subtitle: string | null;
  mp3: Uint8Array | null;
}

/** One checked segment of a transcript: its time span, text and findings. */
export interface SpeechSegmentsTable {
  task_id: number;
  idx: number;
  start_ms: number;
  end_ms: number;
  text: string;
  /** JSON of the findings (offsets into `text`) */
  issues: string;
}

export interface SiteSettingsTable {
  key: string;
  /** JSON */
  value: string;
  updated_at: string;
}

export interface GuideViewsTable {
  uid: number;
  ver: string;
  /** 1 finished, 2 skipped */
  type: number;
  created_at: string;
}

export interface AnnouncementsTable {
  id: Generated<number>;
  /** 0 通知, 1 系统升级公告, 2 系统维护通知, 3 安全警告, 4 新功能介绍, 5 活动公告 */
  announcement_type: number;
  /** 0 stored in the notice list, 1 a popup until acknowledged */
  display_mode: number;
  text: string;
  /** sanitised when published */
  html_text: string;
  /** all | team | role */
  audience: string;
  enterprise_id: number | null;
  role: string | null;
  expires_at: string | null;
  created_by: number | null;
  created_at: string;
  withdrawn_at: string | null;
}

export interface AnnouncementReceiptsTable {
  announcement_id: number;
  uid: number;
  delivered_at: string;
  acknowledged_at: string | null;
}

export interface WechatLinksTable {
  uid: number;
  openid: string;
  unionid: string | null;
  created_at: string;
}

export interface WechatStatesTable {
  state: string;
  /**
   * login | bind | unbind (an authorisation under way), ticket-bind | ticket-unbind (the page's ticket), or
   * code-login (a login's one-time code, exchanged for the session)
   */
  purpose: string;
  uid: number | null;
  expires_at: string;
}

/** The five kinds of persisted jobs (server/jobs/kinds). */
export type JobKind = 'document' | 'pdf' | 'image' | 'speech' | 'website';
export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
/** A job's charge: none taken, reserved at upload, then committed (done) or refunded (failed, cancelled) once. */
export type ChargeState = 'none' | 'reserved' | 'committed' | 'refunded';

/** One job of any kind (server/jobs/store.ts); its input and result are the kind's row `ref`. */
export interface JobsTable {
  id: Generated<number>;
  kind: JobKind;
  ref: number;
  uid: number;
  state: JobState;
  progress: number;
  /** starts so far; a start cut short by a dead process counts, a graceful stop does not */
  attempts: number;
  /** JSON: the consumption reserved at upload (domain/rights/ledger.ts Consumption) */
  charge: string | null;
  charge_state: ChargeState;
  /** the server process running it (workers/instance.ts), null while it waits */
  owner: string | null;
  /** not claimed before this time (the back-off of a retry) */
  run_after: string;
  error_code: string | null;
  created_at: string;
  updated_at: string;
}

export interface Database {
  jobs: JobsTable;
  wechat_links: WechatLinksTable;
  wechat_states: WechatStatesTable;
  site_settings: SiteSettingsTable;
  guide_views: GuideViewsTable;
  announcements: AnnouncementsTable;
  announcement_receipts: AnnouncementReceiptsTable;
  team_applications: TeamApplicationsTable;
  leaders: LeadersTable;
  leader_history: LeaderHistoryTable;
  team_packages: TeamPackagesTable;
  team_package_rights: TeamPackageRightsTable;
  check_events: CheckEventsTable;
  server_instances: ServerInstancesTable;
  check_reservations: CheckReservationsTable;
  socket_sessions: SocketSessionsTable;
  rate_limits: RateLimitsTable;
  users: UsersTable;
  tokens: TokensTable;
  sms_codes: SmsCodesTable;
  messages: MessagesTable;
  portraits: PortraitsTable;
  share_records: ShareRecordsTable;
  auth_failures: AuthFailuresTable;
  dict_words: DictWordsTable;
  dict_import_failures: DictImportFailuresTable;
  user_word_libraries: UserWordLibrariesTable;
  products: ProductsTable;
  orders: OrdersTable;
  downloads: DownloadsTable;
  right_grants: RightGrantsTable;
  right_records: RightRecordsTable;
  coupon_codes: CouponCodesTable;
  enterprises: EnterprisesTable;
  enterprise_members: EnterpriseMembersTable;
  enterprise_dicts: EnterpriseDictsTable;
  enterprise_dict_words: EnterpriseDictWordsTable;
  enterprise_dict_users: EnterpriseDictUsersTable;
  documents: DocumentsTable;
  document_files: DocumentFilesTable;
  api_keys: ApiKeysTable;
  clicks: ClicksTable;
  finding_feedback: FindingFeedbackTable;
  websites: WebsitesTable;
  pdf_checks: PdfChecksTable;
  pdf_files: PdfFilesTable;
  pdf_pages: PdfPagesTable;
  image_tasks: ImageTasksTable;
  image_files: ImageFilesTable;
  speech_tasks: SpeechTasksTable;
  speech_files: SpeechFilesTable;
  speech_segments: SpeechSegmentsTable;
}

export type DialectName = 'sqlite' | 'postgres';
