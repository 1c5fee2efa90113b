// The text proofreading job (spec §7): the editor's text, a check streamed over the socket,
// and the findings kept per paragraph (by hash) so a re-check only sends paragraphs that changed.
//
// job:  idle -> submitting -> streaming -> done | cancelled | failed  (any end state -> submitting again)
//       submitting -> tooLong (over the plan's per-check limit: `first part chosen` checks the first part, the rest
//       follows with each `check requested`, each part charged as it runs)
// mode: fast (3) | verifying (asking /user/v1/check/user_fine_proofreading_right) | fine (4)
//
// Offsets: the server reports UTF-16 offsets into the text it was sent. We send only the paragraphs
// that need checking, joined by '\n', remember where each came from (segments) and store findings
// relative to their paragraph, keyed by the paragraph's hash. The findings shown are derived from the
// current text: every paragraph whose hash has results contributes them at its current position, so
// edits can never leave a highlight on the wrong characters. An edit inside a paragraph keeps the
// findings outside the edited range (shifted) and marks the paragraph for re-checking.
import { assign, enqueueActions, fromPromise, setup, type ActorRefFrom } from 'xstate';
import { notProvided } from './provide';
import { errorReport, isPair, Socket, type CheckResultMessage } from '../../openapi/socket-protocol';
import { diffRange } from './findings/edits';
import { socketMessages } from './findings/socket';
import { countChars, partEnd, tooLongOf, type TooLong } from './findings/parts';
import type { CheckIdData, CheckResultData, ServerMessage, SocketIssue } from '../../openapi/socket-protocol';

export const FINE_MODE_UNAVAILABLE = '该模型资源消耗较大，暂时只开放给付费用户体验。';
export const DEFAULT_CHECK_OPTIONS = 127;

export type CheckMode = 3 | 4;

/** A finding relative to its paragraph. */
export type ParagraphIssue = SocketIssue;

/** A finding in the current text (absolute UTF-16 offsets) with a stable id. */
export interface Finding extends SocketIssue {
  id: string;
  /** hash of the paragraph it belongs to */
  paragraph: string;
}

export interface ParagraphResult {
  issues: ParagraphIssue[];
  /** false when the paragraph was edited (or options/dictionary changed) since it was checked */
  checked: boolean;
  /** a paragraph longer than one check: checked up to here (UTF-16 offset), the rest still to check */
  checkedTo?: number;
}

export interface Paragraph {
  start: number;
  text: string;
  hash: string;
}

interface Segment {
  hash: string;
  /** offset in the submitted text */
  start: number;
  end: number;
  /** where the sent part begins in its paragraph (0 unless the paragraph is checked in parts) */
  from: number;
  /** the part reaches the paragraph's end */
  last: boolean;
}

export interface ProofreadContext {
  text: string;
  options: number;
  lang: 'cn' | 'hk';
  results: Record<string, ParagraphResult>;
  findings: Finding[];
  /** originals ignored with "ignore all" (also applied to later results) */
  ignoredWords: string[];
  /** single findings ignored: `${hash}:${start}:${original}` relative to the paragraph */
  ignoredOnes: string[];
  checkId: string | null;
  segments: Segment[];
  total: number;
  /**
   * server paragraph indexes received for the current check (dedupe). Mutable on purpose, like
   * `replaced` and the `results` entries of a running check: a 100,000-character text streams
   * thousands of messages and copying per message would be quadratic. A new check gets new sets.
   */
  received: Set<number>;
  /** how many paragraphs arrived (received.size, as a value views can select) */
  receivedCount: number;
  /** hashes of sent paragraphs that got results in this check */
  replaced: Set<string>;
  /** socket messages that arrived before the check id was known */
  early: ServerMessage[];
  /** cancel was asked for while the check was being sent: it is cancelled as soon as its id is known */
  cancelWanted: boolean;
  error: string | null;
  /** characters the last check consumed */
  used: number | null;
  /** the server's refusal of a text over the plan's per-check limit, while the choice is shown */
  tooLong: TooLong | null;
  /** the per-check limit once the user chose to check in parts: each check sends at most this many characters */
  partLimit: number | null;
}

export type ProofreadEvent =
  | { type: 'text edited'; text: string }
  | { type: 'check requested' }
  | { type: 'first part chosen' }
  | { type: 'too long dismissed' }
  | { type: 'cancel requested' }
  | { type: 'mode chosen'; mode: CheckMode }
  | { type: 'options changed'; options: number }
  | { type: 'language changed'; lang: 'cn' | 'hk' }
  | { type: 'accept'; id: string; suggestion?: string }
  | { type: 'accept all of kind'; id: string }
  | { type: 'ignore'; id: string }
  | { type: 'ignore all'; id: string }
  | { type: 'word added'; word: string }
  | { type: 'server message'; message: ServerMessage };

export interface SubmitInput {
  text: string;
  checkMode: CheckMode;
  checkOptions: number;
  lang: 'cn' | 'hk';
}

// ---- pure helpers -------------------------------------------------------------------------------

/** FNV-1a over UTF-16 code units, with the length: the paragraph's key in the result cache. */
export function paragraphHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return `${(h >>> 0).toString(36)}.${text.length.toString(36)}`;
}

export function splitParagraphs(text: string): Paragraph[] {
  const out: Paragraph[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    const body = text.slice(start, end);
    out.push({ start, text: body, hash: paragraphHash(body) });
    if (nl === -1) break;
    start = nl + 1;
  }
  return out;
}

function ignoreKey(hash: string, issue: ParagraphIssue): string {
  return `${hash}:${issue.start}:${issue.original}`;
}

/** The findings of the current text, in text order. */
export function deriveFindings(
  text: string,
  results: Record<string, ParagraphResult>,
  ignoredWords: readonly string[],
  ignoredOnes: readonly string[],
  previous: readonly Finding[] = [],
): Finding[] {
  const words = new Set(ignoredWords);
  const ones = new Set(ignoredOnes);
  // unchanged findings keep their object, so views can skip them
  const before = new Map(previous.map((f) => [f.id, f]));
  const out: Finding[] = [];
  for (const p of splitParagraphs(text)) {
    const result = results[p.hash];
    if (!result) continue;
    for (const issue of result.issues) {
      if (words.has(issue.original) || ones.has(ignoreKey(p.hash, issue))) continue;
      if (issue.end > p.text.length || p.text.slice(issue.start, issue.end) !== issue.original) continue;
      const start = p.start + issue.start;
      const end = p.start + issue.end;
      const id = `${start}-${end}-${issue.category}`;
      const old = before.get(id);
      if (old && old.paragraph === p.hash && old.original === issue.original && old.message === issue.message)
        out.push(old);
      else out.push({ ...issue, start, end, paragraph: p.hash, id });
    }
  }
  return out;
}

interface EditRange {
  /** first changed UTF-16 offset (same in both texts) */
  prefix: number;
  /** end of the changed range in the old / new text */
  oldEnd: number;
  newEnd: number;
  delta: number;
  /** the lines around the change: [from, oldTo) in the old text, [from, newTo) in the new one */
  from: number;
  oldTo: number;
  newTo: number;
}

function editRange(before: string, after: string): EditRange {
  const { prefix, oldEnd, newEnd } = diffRange(before, after);
  const from = prefix === 0 ? 0 : before.lastIndexOf('\n', prefix - 1) + 1;
  const oldNl = before.indexOf('\n', oldEnd);
  const newNl = after.indexOf('\n', newEnd);
  return {
    prefix,
    oldEnd,
    newEnd,
    delta: after.length - before.length,
    from,
    oldTo: oldNl === -1 ? before.length : oldNl,
    newTo: newNl === -1 ? after.length : newNl,
  };
}

function paragraphsIn(text: string, from: number, to: number): Paragraph[] {
  return splitParagraphs(text.slice(from, to)).map((p) => ({ ...p, start: p.start + from }));
}

function carryOver(
  before: string,
  after: string,
  results: Record<string, ParagraphResult>,
  r: EditRange,
): Record<string, ParagraphResult> {
  // absolute findings of the touched old lines, adjusted to the new text
  const adjusted: SocketIssue[] = [];
  for (const p of paragraphsIn(before, r.from, r.oldTo)) {
    const result = results[p.hash];
    if (!result) continue;
    for (const issue of result.issues) {
      const s = p.start + issue.start;
      const e = p.start + issue.end;
      if (e <= r.prefix) adjusted.push({ ...issue, start: s, end: e });
      else if (s >= r.oldEnd) adjusted.push({ ...issue, start: s + r.delta, end: e + r.delta });
      // overlapping the edited range: dropped
    }
  }
  const next: Record<string, ParagraphResult> = { ...results };
  for (const p of paragraphsIn(after, r.from, r.newTo)) {
    if (next[p.hash]?.checked) continue; // e.g. an undo back to a checked paragraph
    const pEnd = p.start + p.text.length;
    const issues = adjusted
      .filter((i) => i.start >= p.start && i.end <= pEnd)
      .map((i) => ({ ...i, start: i.start - p.start, end: i.end - p.start }));
    next[p.hash] = { issues, checked: false };
  }
  return next;
}

/** Keeps results of paragraphs touched by an edit: findings outside the edit shift, the rest drop. */
export function carryResultsOver(
  before: string,
  after: string,
  results: Record<string, ParagraphResult>,
): Record<string, ParagraphResult> {
  if (before === after) return results;
  return carryOver(before, after, results, editRange(before, after));
}

/**
 * The paragraphs that need checking and the text to send for them; with a `limit`, only the first of them that
 * together have at most `limit` characters (whole paragraphs, or the first part of one longer than the limit).
 */
export function planCheck(
  text: string,
  results: Record<string, ParagraphResult>,
  limit = Infinity,
): { text: string; segments: Segment[] } {
  const segments: Segment[] = [];
  const parts: string[] = [];
  const seen = new Set<string>();
  let at = 0;
  let budget = limit;
  for (const p of splitParagraphs(text)) {
    if (!p.text.trim() || results[p.hash]?.checked || seen.has(p.hash)) continue;
    const from = results[p.hash]?.checkedTo ?? 0;
    let body = p.text.slice(from);
    let last = true;
    const chars = limit === Infinity ? 0 : countChars(body);
    if (chars > budget) {
      if (segments.length > 0) break; // the next part starts with this paragraph
      const end = partEnd(body, budget);
      last = !body.slice(end).trim();
      body = body.slice(0, end);
    }
    budget -= chars;
    seen.add(p.hash);
    if (parts.length > 0) at += 1; // the '\n' joining parts
    segments.push({ hash: p.hash, start: at, end: at + body.length, from, last });
    parts.push(body);
    at += body.length;
  }
  return { text: parts.join('\n'), segments };
}

/** Characters not checked yet (what the next checks will send). */
export function uncheckedChars(context: Pick<ProofreadContext, 'text' | 'results'>): number {
  return countChars(planCheck(context.text, context.results).text);
}

/** A sent part's first result: what its paragraph had before the part stays, it is checked up to the part's end. */
function startPart(results: Record<string, ParagraphResult>, seg: Segment): ParagraphResult {
  const kept = seg.from > 0 ? (results[seg.hash]?.issues ?? []).filter((i) => i.end <= seg.from) : [];
  return seg.last
    ? { issues: kept, checked: true }
    : { issues: kept, checked: false, checkedTo: seg.from + seg.end - seg.start };
}

function segmentAt(segments: readonly Segment[], offset: number): Segment | undefined {
  let lo = 0;
  let hi = segments.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = segments[mid];
    if (offset < s.start) hi = mid - 1;
    else if (offset > s.end) lo = mid + 1;
    else return s;
  }
  return undefined;
}

/** Replaces a finding with a suggestion: the new text (findings are carried over by 'text edited'). */
export function applySuggestion(text: string, finding: Pick<Finding, 'start' | 'end'>, suggestion: string): string {
  return text.slice(0, finding.start) + suggestion + text.slice(finding.end);
}

function withText(context: ProofreadContext, text: string): Partial<ProofreadContext> {
  const before = context.text;
  if (before === text) return {};
  // only the lines around the edit are split and hashed again (a keystroke in 100,000 characters)
  const r = editRange(before, text);
  const results = carryOver(before, text, context.results, r);
  const touched = deriveFindings(text.slice(r.from, r.newTo), results, context.ignoredWords, context.ignoredOnes).map(
    (f) => {
      const start = f.start + r.from;
      const end = f.end + r.from;
      return { ...f, start, end, id: `${start}-${end}-${f.category}` };
    },
  );
  const head: Finding[] = [];
  const tail: Finding[] = [];
  for (const f of context.findings) {
    if (f.end <= r.from && f.start < r.from) head.push(f);
    else if (f.start > r.oldTo || (f.start >= r.oldTo && f.start > r.from)) {
      const start = f.start + r.delta;
      const end = f.end + r.delta;
      tail.push({ ...f, start, end, id: `${start}-${end}-${f.category}` });
    }
  }
  return { text, results, findings: [...head, ...touched, ...tail] };
}

function allUnchecked(results: Record<string, ParagraphResult>): Record<string, ParagraphResult> {
  const next: Record<string, ParagraphResult> = {};
  for (const [hash, r] of Object.entries(results)) next[hash] = { issues: r.issues, checked: false };
  return next;
}

function isNewResult(context: ProofreadContext, data: CheckResultData): boolean {
  return data.check_id === context.checkId && !context.received.has(data.paragraph);
}

/**
 * Applies one check-result message of the current check (in place, see `received`). The findings
 * shown are derived again about 20 times per check, not per message.
 */
function applyResult(context: ProofreadContext, data: CheckResultData, last: boolean): Partial<ProofreadContext> {
  if (!isNewResult(context, data)) return {};
  const { results, replaced } = context;
  // a paragraph's first result in this check replaces the findings it had before
  const reset = (seg: Segment) => {
    if (replaced.has(seg.hash)) return;
    replaced.add(seg.hash);
    results[seg.hash] = startPart(results, seg);
  };
  const first = segmentAt(context.segments, data.offset);
  if (first) reset(first);
  for (const issue of data.issues) {
    const seg = segmentAt(context.segments, issue.start);
    if (!seg || issue.end > seg.end) continue;
    reset(seg);
    const shift = seg.from - seg.start;
    results[seg.hash].issues.push({ ...issue, start: issue.start + shift, end: issue.end + shift });
  }
  context.received.add(data.paragraph);
  const count = context.received.size;
  const every = Math.max(1, Math.floor(context.total / 20));
  const refresh = last || count <= 3 || count % every === 0;
  return {
    receivedCount: count,
    ...(refresh
      ? {
          results: { ...results },
          findings: deriveFindings(context.text, results, context.ignoredWords, context.ignoredOnes),
        }
      : {}),
    ...(typeof data.used === 'number' ? { used: data.used } : {}),
  };
}

/** At the end of a check every sent paragraph counts as checked (those without findings too). */
function finishResults(context: ProofreadContext): Record<string, ParagraphResult> {
  const results = { ...context.results };
  for (const seg of context.segments) if (!context.replaced.has(seg.hash)) results[seg.hash] = startPart(results, seg);
  return results;
}

export function isCheckResult(m: ServerMessage): m is CheckResultMessage {
  return isPair(m, Socket.CheckResult);
}

function isForCheck(message: ServerMessage, checkId: string | null): boolean {
  if (!isPair(message, Socket.CheckResult) && !isPair(message, Socket.CheckId)) return false;
  if (message.status !== undefined && message.status !== 200) return true; // error reports carry no id
  return (message.data as { check_id?: string }).check_id === checkId;
}

function errorText(message: ServerMessage): string | null {
  const list = isPair(message, Socket.CheckResult) ? errorReport(message) : null;
  if (!list) return null;
  return list.length ? list[0] : '系统异常';
}

/** Whether this (new) result ends the check: `done`, or every paragraph announced has arrived. */
function endsCheck(context: ProofreadContext, data: CheckResultData): boolean {
  return data.done || (context.total > 0 && context.received.size + 1 >= context.total);
}

/** Paragraphs done / total, 0..1 (1 when nothing is running). */
export function progressOf(context: ProofreadContext, streaming: boolean): number {
  if (!streaming) return 1;
  if (!context.total) return 0;
  return Math.min(1, context.receivedCount / context.total);
}

// ---- the machine --------------------------------------------------------------------------------

export const proofreadJobMachine = setup({
  types: {
    context: {} as ProofreadContext,
    events: {} as ProofreadEvent,
  },
  actors: {
    // POST /misscut/v1/check_text -> {check_id}; the live version sends the socket session header
    'submit check': fromPromise<{ check_id: string }, SubmitInput>(notProvided('proofreadJob', 'submit check')),
    // POST /misscut/v1/cancel
    'cancel check': fromPromise<void, { checkId: string }>(notProvided('proofreadJob', 'cancel check')),
    // GET /user/v1/check/user_fine_proofreading_right -> available
    'fine right': fromPromise<boolean, void>(notProvided('proofreadJob', 'fine right')),
    // forwards the socket actor's `server message` events to this machine (system-internal, so the
    // default is the real one: it listens to the actor with systemId 'socket' when there is one)
    'socket messages': socketMessages,
  },
  actions: {
    // the live app shows it through src/api/notify
    notify: (_, _params: { status: 'error' | 'success' | 'info' | 'warning'; title: string }) => {
      throw new Error('notify must be provided via .provide()');
    },
  },
  guards: {
    'nothing to check': ({ context }) => planCheck(context.text, context.results).segments.length === 0,
    'is fine mode': ({ event }) => event.type === 'mode chosen' && event.mode === 4,
    'is fast mode': ({ event }) => event.type === 'mode chosen' && event.mode === 3,
  },
}).createMachine({
  id: 'proofreadJob',
  type: 'parallel',
  context: {
    text: '',
    options: DEFAULT_CHECK_OPTIONS,
    lang: 'cn',
    results: {},
    findings: [],
    ignoredWords: [],
    ignoredOnes: [],
    checkId: null,
    segments: [],
    total: 0,
    received: new Set(),
    receivedCount: 0,
    replaced: new Set(),
    early: [],
    cancelWanted: false,
    error: null,
    used: null,
    tooLong: null,
    partLimit: null,
  },
  invoke: { src: 'socket messages', id: 'socketMessages' },
  on: {
    'text edited': { actions: assign(({ context, event }) => withText(context, event.text)) },
    'options changed': {
      actions: assign(({ context, event }) =>
        event.options === context.options ? {} : { options: event.options, results: allUnchecked(context.results) },
      ),
    },
    'language changed': {
      actions: assign(({ context, event }) =>
        event.lang === context.lang ? {} : { lang: event.lang, results: allUnchecked(context.results) },
      ),
    },
    accept: {
      actions: assign(({ context, event }) => {
        const f = context.findings.find((x) => x.id === event.id);
        const suggestion = event.suggestion ?? f?.suggestions[0];
        if (!f || suggestion === undefined) return {};
        return withText(context, applySuggestion(context.text, f, suggestion));
      }),
    },
    'accept all of kind': {
      actions: assign(({ context, event }) => {
        const f = context.findings.find((x) => x.id === event.id);
        if (!f || f.suggestions[0] === undefined) return {};
        const same = context.findings.filter(
          (x) => x.original === f.original && x.category === f.category && x.suggestions[0] !== undefined,
        );
        // from the end so earlier offsets stay valid
        let partial: Partial<ProofreadContext> = {};
        let ctx = context;
        for (const x of [...same].sort((a, b) => b.start - a.start)) {
          partial = withText(ctx, applySuggestion(ctx.text, x, x.suggestions[0]));
          ctx = { ...ctx, ...partial };
        }
        return partial;
      }),
    },
    ignore: {
      actions: assign(({ context, event }) => {
        const f = context.findings.find((x) => x.id === event.id);
        if (!f) return {};
        const p = splitParagraphs(context.text).find(
          (x) => x.hash === f.paragraph && f.start >= x.start && f.end <= x.start + x.text.length,
        );
        if (!p) return {};
        const key = `${f.paragraph}:${f.start - p.start}:${f.original}`;
        const ignoredOnes = [...context.ignoredOnes, key];
        return {
          ignoredOnes,
          findings: deriveFindings(context.text, context.results, context.ignoredWords, ignoredOnes),
        };
      }),
    },
    'ignore all': {
      actions: assign(({ context, event }) => {
        const f = context.findings.find((x) => x.id === event.id);
        if (!f) return {};
        const ignoredWords = [...context.ignoredWords, f.original];
        return {
          ignoredWords,
          findings: deriveFindings(context.text, context.results, ignoredWords, context.ignoredOnes),
        };
      }),
    },
    // the word is in the personal dictionary now: its findings go, and every paragraph is re-checked
    'word added': {
      actions: assign(({ context, event }) => {
        const results: Record<string, ParagraphResult> = {};
        for (const [hash, r] of Object.entries(context.results))
          results[hash] = { issues: r.issues.filter((i) => i.original !== event.word), checked: false };
        return { results, findings: deriveFindings(context.text, results, context.ignoredWords, context.ignoredOnes) };
      }),
    },
  },
  states: {
    job: {
      initial: 'idle',
      on: {
        'check requested': [
          {
            guard: 'nothing to check',
            target: '.done',
            actions: assign({
              error: null,
              checkId: null,
              total: 0,
              received: () => new Set<number>(),
              receivedCount: 0,
              segments: [],
            }),
          },
          { target: '.submitting' },
        ],
      },
      states: {
        idle: {},
        submitting: {
          entry: assign(({ context }) => ({
            segments: planCheck(context.text, context.results, context.partLimit ?? Infinity).segments,
            checkId: null,
            total: 0,
            received: new Set<number>(),
            receivedCount: 0,
            replaced: new Set<string>(),
            early: [],
            cancelWanted: false,
            error: null,
            used: null,
            tooLong: null,
          })),
          // a second request while one is being sent is ignored
          on: {
            'check requested': {},
            'cancel requested': { actions: assign({ cancelWanted: true }) },
            'server message': {
              guard: ({ event }) => isPair(event.message, Socket.CheckResult) || isPair(event.message, Socket.CheckId),
              actions: assign(({ context, event }) => ({ early: [...context.early, event.message] })),
            },
          },
          invoke: {
            src: 'submit check',
            input: ({ context, self }) => ({
              text: planCheck(context.text, context.results, context.partLimit ?? Infinity).text,
              checkMode: (self.getSnapshot().matches({ mode: 'fine' }) ? 4 : 3) as CheckMode,
              checkOptions: context.options,
              lang: context.lang,
            }),
            onDone: [
              {
                guard: ({ context }) => context.cancelWanted,
                target: 'cancelled',
                actions: assign(({ event }) => ({ checkId: event.output.check_id, early: [] })),
              },
              {
                target: 'streaming',
                actions: enqueueActions(({ enqueue, event, context }) => {
                  enqueue.assign({ checkId: event.output.check_id });
                  // messages that arrived before the HTTP answer, handled now that the id is known
                  for (const message of context.early) enqueue.raise({ type: 'server message', message });
                  enqueue.assign({ early: [] });
                }),
              },
            ],
            onError: [
              {
                // over the plan's per-check limit (not a spent quota): the user chooses the first part or an upgrade
                guard: ({ event }) => tooLongOf(event.error) !== null,
                target: 'tooLong',
                actions: assign(({ event }) => ({ tooLong: tooLongOf(event.error) })),
              },
              {
                target: 'failed',
                actions: enqueueActions(({ enqueue, event, self }) => {
                  const error = event.error as { status?: number; message?: string };
                  enqueue.assign({ error: error?.message ?? '系统异常' });
                  // the server refused mode 4: back to the fast model
                  if (error?.status === 403 && self.getSnapshot().matches({ mode: 'fine' }))
                    enqueue.raise({ type: 'mode chosen', mode: 3 });
                }),
              },
            ],
          },
        },
        // the text is longer than one check of the plan allows: check its first part, or leave it (or upgrade)
        tooLong: {
          on: {
            'first part chosen': {
              target: 'submitting',
              actions: assign(({ context }) => ({ partLimit: context.tooLong?.max ?? null })),
            },
            'too long dismissed': { target: 'idle', actions: assign({ tooLong: null }) },
          },
        },
        streaming: {
          on: {
            'check requested': {},
            'cancel requested': { target: 'cancelled' },
            'server message': [
              {
                // a paragraph the checker failed on (socket.md): its characters are refunded and its
                // normal result (no findings) follows, so the stream still ends; the user is told
                guard: ({ context, event }) =>
                  isForCheck(event.message, context.checkId) && errorText(event.message) !== null,
                actions: enqueueActions(({ enqueue, event }) => {
                  enqueue({
                    type: 'notify',
                    params: { status: 'error', title: errorText(event.message) ?? '系统异常' },
                  });
                }),
              },
              {
                guard: ({ context, event }) =>
                  isForCheck(event.message, context.checkId) && isPair(event.message, Socket.CheckId),
                actions: assign(({ event }) => ({ total: (event.message.data as CheckIdData).paragraphs })),
              },
              {
                guard: ({ context, event }) => {
                  if (!isForCheck(event.message, context.checkId) || event.message.cmd !== 2) return false;
                  const data = event.message.data as CheckResultData;
                  return isNewResult(context, data) && endsCheck(context, data);
                },
                target: 'done',
                actions: assign(({ context, event }) =>
                  applyResult(context, event.message.data as CheckResultData, true),
                ),
              },
              {
                guard: ({ context, event }) =>
                  isForCheck(event.message, context.checkId) && isPair(event.message, Socket.CheckResult),
                actions: assign(({ context, event }) =>
                  applyResult(context, event.message.data as CheckResultData, false),
                ),
              },
            ],
          },
        },
        done: {
          entry: assign(({ context }) => {
            const results = finishResults(context);
            return {
              results,
              findings: deriveFindings(context.text, results, context.ignoredWords, context.ignoredOnes),
              // checking in parts ends with the last part
              partLimit: uncheckedChars({ text: context.text, results }) > 0 ? context.partLimit : null,
            };
          }),
        },
        // what arrived stays; the paragraphs not reached remain unchecked
        cancelled: {
          entry: assign(({ context }) => ({
            results: { ...context.results },
            findings: deriveFindings(context.text, context.results, context.ignoredWords, context.ignoredOnes),
          })),
          invoke: { src: 'cancel check', input: ({ context }) => ({ checkId: context.checkId ?? '' }) },
        },
        failed: {},
      },
    },
    mode: {
      initial: 'fast',
      states: {
        fast: { on: { 'mode chosen': { guard: 'is fine mode', target: 'verifying' } } },
        verifying: {
          invoke: {
            src: 'fine right',
            onDone: [
              { guard: ({ event }) => event.output, target: 'fine' },
              {
                target: 'fast',
                actions: { type: 'notify', params: { status: 'warning', title: FINE_MODE_UNAVAILABLE } },
              },
            ],
            onError: { target: 'fast' },
          },
        },
        fine: { on: { 'mode chosen': { guard: 'is fast mode', target: 'fast' } } },
      },
    },
  },
});

export type ProofreadJobRef = ActorRefFrom<typeof proofreadJobMachine>;
