// Link proofreading (route /link): the user's websites, a page of them at a time; adding one (and checking it at
// once), changing, deleting, checking and downloading the report; an address given by another screen (the home
// screen's "check this page") is added or found and checked. A check's progress arrives on the socket (type 2
// cmd 8) and moves the site's row; when a check ends the list is read again for its findings.
//
// loading -> ready (action: idle | adding | opening | updating | deleting | starting | downloading,
//                   sync: idle | refreshing) | failed
import { assign, fromPromise, setup } from 'xstate';
import { isWebsiteProgress, type ServerMessage, type WebsiteProgressData } from '../../openapi/socket-protocol';
import { notProvided, mustProvide } from './provide';
import { socketMessages } from './findings/socket';
import type { Website, WebsiteInput, WebsiteList } from './websiteCalls';

export const WEBSITE_PAGE_SIZE = 20;

export interface WebsitesContext {
  sites: Website[];
  total: number;
  num: number;
  /** the site whose result is shown */
  selectedId: number | null;
  /** the page of its result that is shown */
  pageIndex: number;
  /** words added to the dictionary from a result: their findings are not shown any more */
  allowed: string[];
  /** why the list could not be read */
  error: string | null;
  /** the site the running action is about */
  pendingId: number | null;
  /** the site being added is checked once added */
  pendingCheck: boolean;
  /** the address being added */
  pendingUrl: string;
  /** a site the user entered again though it is listed (409): shown with an offer to check it again */
  listedId: number | null;
}

export type WebsitesEvent =
  | { type: 'add'; input: WebsiteInput; check: boolean }
  | { type: 'open url'; url: string }
  | { type: 'update'; id: number; changes: Partial<WebsiteInput> }
  | { type: 'delete'; id: number }
  | { type: 'check'; id: number }
  | { type: 'dismiss listed' }
  | { type: 'download'; id: number }
  | { type: 'select'; id: number | null }
  | { type: 'select page'; index: number }
  | { type: 'page'; num: number }
  | { type: 'retry' }
  | { type: 'word added'; word: string }
  | { type: 'server message'; message: ServerMessage };

type Ctx = { context: WebsitesContext };

// ---- pure helpers -------------------------------------------------------------------------------

/** The site's row with a progress message merged in (the findings stay those of the last finished check). */
export function mergeProgress(site: Website, data: WebsiteProgressData): Website {
  const failed = data.status === 'failed';
  return {
    ...site,
    status: data.status,
    progress: data.progress,
    ...(failed
      ? { error: data.error, error_code: data.error_code, error_params: data.error_params }
      : { error: undefined, error_code: undefined, error_params: undefined }),
  };
}

const progressOf = (message: ServerMessage): WebsiteProgressData | null =>
  isWebsiteProgress(message) ? message.data : null;

/** A progress message for a site of the shown page. */
const isListedProgress = ({ context, event }: Ctx & { event: WebsitesEvent }) => {
  if (event.type !== 'server message') return false;
  const data = progressOf(event.message);
  return !!data && context.sites.some((s) => s.id === data.id);
};

/** A check ended (of a listed site or not: one started elsewhere shows up too). */
const isCheckEnd = ({ event }: { event: WebsitesEvent }) => {
  if (event.type !== 'server message') return false;
  const data = progressOf(event.message);
  return !!data && (data.status === 'done' || data.status === 'failed');
};

const applyProgress = ({ context, event }: Ctx & { event: WebsitesEvent }): Partial<WebsitesContext> => {
  const data = event.type === 'server message' ? progressOf(event.message) : null;
  if (!data) return {};
  return { sites: context.sites.map((s) => (s.id === data.id ? mergeProgress(s, data) : s)) };
};

const replaceSite = (sites: Website[], site: Website) => sites.map((s) => (s.id === site.id ? site : s));

const listed = (page: WebsiteList, context: WebsitesContext): Partial<WebsitesContext> => ({
  sites: page.list,
  total: page.total,
  num: page.num,
  selectedId: page.list.some((s) => s.id === context.selectedId) ? context.selectedId : null,
  error: null,
});

const errorText = (error: unknown) => (error instanceof Error && error.message ? error.message : '系统异常');

// ---- the machine --------------------------------------------------------------------------------

export const websitesMachine = setup({
  types: {
    context: {} as WebsitesContext,
    events: {} as WebsitesEvent,
  },
  actors: {
    /** GET /misscut/website/get_list */
    'load list': fromPromise<WebsiteList, { num: number }>(notProvided('websites', 'load list')),
    /** POST /misscut/website/add_one */
    add: fromPromise<Website, WebsiteInput>(notProvided('websites', 'add')),
    /** the user's website for an address: found among theirs or added */
    'add or find': fromPromise<Website, { url: string }>(notProvided('websites', 'add or find')),
    /** POST /misscut/website/update_one */
    update: fromPromise<Website, { id: number } & Partial<WebsiteInput>>(notProvided('websites', 'update')),
    /** POST /misscut/website/delete_one */
    delete: fromPromise<void, { id: number }>(notProvided('websites', 'delete')),
    /** POST /misscut/website/check */
    'start check': fromPromise<Website, { id: number }>(notProvided('websites', 'start check')),
    /** GET /misscut/website/download */
    report: fromPromise<{ blob: Blob; name: string }, { site: Website }>(notProvided('websites', 'report')),
    'socket messages': socketMessages,
  },
  actions: {
    /** hands the report to the browser */
    'save report': (_, _params: { blob: Blob; name: string }) => mustProvide('websites', 'save report'),
    /** the site's result is shown, and the next action (its check) is about it */
    'show site': assign((_, params: { site: Website }) => ({
      selectedId: params.site.id,
      pageIndex: 0,
      pendingId: params.site.id,
    })),
    'drop pending site': assign(({ context }) => ({
      sites: context.sites.filter((s) => s.id !== context.pendingId),
      total: Math.max(0, context.total - 1),
      selectedId: context.selectedId === context.pendingId ? null : context.selectedId,
    })),
    'put site first': assign(({ context }, params: { site: Website }) => ({
      sites: [params.site, ...context.sites.filter((s) => s.id !== params.site.id)].slice(0, WEBSITE_PAGE_SIZE),
      total: context.sites.some((s) => s.id === params.site.id) ? context.total : context.total + 1,
    })),
    'replace site': assign(({ context }, params: { site: Website }) => ({
      sites: replaceSite(context.sites, params.site),
    })),
    'apply progress': assign(applyProgress),
  },
  guards: {
    'is listed progress': isListedProgress,
    'is check end': isCheckEnd,
    'check after add': ({ context }) => context.pendingCheck,
    // POST add_one answers 409 for an address the user has already
    'already listed': (_, params: { error: unknown }) => (params.error as { status?: unknown } | null)?.status === 409,
    'has result': ({ context, event }) =>
      event.type === 'download' && !!context.sites.find((s) => s.id === event.id)?.last_result,
  },
}).createMachine({
  id: 'websites',
  context: {
    sites: [],
    total: 0,
    num: 1,
    selectedId: null,
    pageIndex: 0,
    allowed: [],
    error: null,
    pendingId: null,
    pendingCheck: false,
    pendingUrl: '',
    listedId: null,
  },
  invoke: { src: 'socket messages', id: 'socketMessages' },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'load list',
        input: ({ context }) => ({ num: context.num }),
        onDone: { target: 'ready', actions: assign(({ context, event }) => listed(event.output, context)) },
        onError: { target: 'failed', actions: assign(({ event }) => ({ error: errorText(event.error) })) },
      },
    },
    failed: { on: { retry: 'loading' } },
    ready: {
      type: 'parallel',
      on: {
        page: { target: 'loading', actions: assign(({ event }) => ({ num: event.num, selectedId: null })) },
        select: { actions: assign(({ event }) => ({ selectedId: event.id, pageIndex: 0 })) },
        'select page': { actions: assign(({ event }) => ({ pageIndex: event.index })) },
        'word added': {
          actions: assign(({ context, event }) => ({ allowed: [...new Set([...context.allowed, event.word])] })),
        },
      },
      states: {
        action: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                add: {
                  target: 'adding',
                  actions: assign(({ event }) => ({
                    pendingCheck: event.check,
                    pendingUrl: event.input.url,
                    listedId: null,
                  })),
                },
                'dismiss listed': { actions: assign({ listedId: null }) },
                'open url': { target: 'opening' },
                update: { target: 'updating', actions: assign(({ event }) => ({ pendingId: event.id })) },
                delete: { target: 'deleting', actions: assign(({ event }) => ({ pendingId: event.id })) },
                check: {
                  target: 'starting',
                  actions: assign(({ event }) => ({ pendingId: event.id, listedId: null })),
                },
                download: {
                  guard: 'has result',
                  target: 'downloading',
                  actions: assign(({ event }) => ({ pendingId: event.id })),
                },
              },
            },
            adding: {
              invoke: {
                src: 'add',
                input: ({ event }) => (event.type === 'add' ? event.input : { url: '', depth: 0, page_limit: 1 }),
                onDone: [
                  {
                    // the form's "check now": the new site's check starts at once
                    guard: 'check after add',
                    target: 'starting',
                    actions: [
                      { type: 'put site first', params: ({ event }) => ({ site: event.output }) },
                      { type: 'show site', params: ({ event }) => ({ site: event.output }) },
                    ],
                  },
                  {
                    target: 'idle',
                    actions: { type: 'put site first', params: ({ event }) => ({ site: event.output }) },
                  },
                ],
                onError: [
                  {
                    guard: { type: 'already listed', params: ({ event }) => ({ error: event.error }) },
                    target: 'findingListed',
                  },
                  'idle',
                ],
              },
            },
            // the address is listed already (its check may have failed): it is shown, with 重新校对 offered
            findingListed: {
              invoke: {
                src: 'add or find',
                input: ({ context }) => ({ url: context.pendingUrl }),
                onDone: {
                  target: 'idle',
                  actions: [
                    { type: 'put site first', params: ({ event }) => ({ site: event.output }) },
                    assign(({ event }) => ({ selectedId: event.output.id, pageIndex: 0, listedId: event.output.id })),
                  ],
                },
                onError: 'idle',
              },
            },
            opening: {
              invoke: {
                src: 'add or find',
                input: ({ event }) => ({ url: event.type === 'open url' ? event.url : '' }),
                onDone: {
                  target: 'starting',
                  actions: [
                    { type: 'put site first', params: ({ event }) => ({ site: event.output }) },
                    { type: 'show site', params: ({ event }) => ({ site: event.output }) },
                  ],
                },
                onError: 'idle',
              },
            },
            updating: {
              invoke: {
                src: 'update',
                input: ({ context, event }) => ({
                  id: context.pendingId ?? 0,
                  ...(event.type === 'update' ? event.changes : {}),
                }),
                onDone: {
                  target: 'idle',
                  actions: { type: 'replace site', params: ({ event }) => ({ site: event.output }) },
                },
                onError: 'idle',
              },
            },
            deleting: {
              invoke: {
                src: 'delete',
                input: ({ context }) => ({ id: context.pendingId ?? 0 }),
                onDone: { target: 'idle', actions: 'drop pending site' },
                onError: 'idle',
              },
            },
            starting: {
              invoke: {
                src: 'start check',
                input: ({ context }) => ({ id: context.pendingId ?? 0 }),
                onDone: {
                  target: 'idle',
                  actions: { type: 'replace site', params: ({ event }) => ({ site: event.output }) },
                },
                onError: 'idle',
              },
            },
            downloading: {
              invoke: {
                src: 'report',
                input: ({ context }) => ({ site: context.sites.find((s) => s.id === context.pendingId)! }),
                onDone: {
                  target: 'idle',
                  actions: { type: 'save report', params: ({ event }) => event.output },
                },
                onError: 'idle',
              },
            },
          },
        },
        sync: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'server message': [
                  { guard: 'is check end', target: 'refreshing', actions: 'apply progress' },
                  { guard: 'is listed progress', actions: 'apply progress' },
                ],
              },
            },
            refreshing: {
              invoke: {
                src: 'load list',
                input: ({ context }) => ({ num: context.num }),
                onDone: { target: 'idle', actions: assign(({ context, event }) => listed(event.output, context)) },
                // the rows keep what the socket said; the next end reads the list again
                onError: 'idle',
              },
              on: {
                'server message': [
                  { guard: 'is check end', target: 'refreshing', reenter: true, actions: 'apply progress' },
                  { guard: 'is listed progress', actions: 'apply progress' },
                ],
              },
            },
          },
        },
      },
    },
  },
});
