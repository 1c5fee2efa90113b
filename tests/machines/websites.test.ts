// Model-based test of link proofreading: an abstract model of what the user sees of their websites, whose paths
// drive the REAL live websites machine (liveWebsites: the real website calls through the API client). Only the
// transport is fake: a fetch answering the /misscut/website calls as the server would; the socket's progress
// messages are sent to the machine as the app's socket forwards them.
import { afterAll, describe, expect, it } from 'vitest';
import { assign, createActor, setup } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { modelOptions } from './model';
import { configureApi } from '../../src/api/client';
import { liveWebsites } from '../../src/machines/live-websites';
import type { Website } from '../../src/machines/websiteCalls';
import type { WebsiteProgressData } from '../../openapi/socket-protocol';
import { collectNotices, fakeFetch, freshStores } from '../api/helpers';

const model = setup({
  types: {} as {
    context: { reports: number };
    events:
      | { type: 'LOAD_EMPTY' }
      | { type: 'LOAD_FAILS' }
      | { type: 'RETRY' }
      | { type: 'ADD_AND_CHECK' }
      | { type: 'ADD_REFUSED' }
      | { type: 'OPEN_URL' }
      | { type: 'PROGRESS' }
      | { type: 'CHECK_DONE' }
      | { type: 'CHECK_FAILED' }
      | { type: 'CHECK_AGAIN' }
      | { type: 'CHECK_BUSY' }
      | { type: 'DOWNLOAD' }
      | { type: 'DELETE' }
      | { type: 'ADD_LISTED' }
      | { type: 'RECHECK_LISTED' }
      | { type: 'DISMISS_LISTED' };
  },
}).createMachine({
  id: 'websitesModel',
  context: { reports: 0 },
  initial: 'start',
  states: {
    start: { on: { LOAD_EMPTY: 'empty', LOAD_FAILS: 'loadFailed' } },
    loadFailed: { on: { RETRY: 'empty' } },
    empty: { on: { ADD_AND_CHECK: 'running', ADD_REFUSED: 'empty', OPEN_URL: 'running' } },
    running: { on: { PROGRESS: 'running', CHECK_DONE: 'done', CHECK_FAILED: 'checkFailed' } },
    done: {
      on: {
        CHECK_AGAIN: 'running',
        CHECK_BUSY: 'done',
        OPEN_URL: 'running',
        // the report is saved once per download; counted up to 1 to keep the model finite
        DOWNLOAD: { target: 'done', actions: assign({ reports: ({ context }) => Math.min(context.reports + 1, 1) }) },
        DELETE: 'empty',
      },
    },
    // the failed site's address entered again: the server answers 409, the site is shown with 重新校对
    checkFailed: { on: { CHECK_AGAIN: 'running', DELETE: 'empty', ADD_LISTED: 'listed' } },
    listed: { on: { RECHECK_LISTED: 'running', DISMISS_LISTED: 'checkFailed' } },
  },
});

const { notices, unsubscribe } = collectNotices();
afterAll(unsubscribe);

const URL_A = 'https://example.org/news';
const NOW = '2026-11-27T02:00:00.000Z';

function site(over: Partial<Website> = {}): Website {
  return {
    id: 5,
    url: URL_A,
    name: 'example.org/news',
    depth: 0,
    page_limit: 1,
    status: 'idle',
    progress: 0,
    created_at: NOW,
    last_checked_at: null,
    last_result: null,
    ...over,
  };
}

const RESULT: NonNullable<Website['last_result']> = {
  page_count: 1,
  issue_count: 1,
  char_count: 12,
  truncated: false,
  skipped: [],
  pages: [
    {
      url: URL_A,
      title: '新闻',
      text: '认真研究群众反映的问提',
      headings: [],
      issues: [
        {
          start: 10,
          end: 11,
          original: '提',
          suggestions: ['题'],
          category: '1',
          level: 1,
          message: '“问提”疑为“问题”',
        },
      ],
    },
  ],
};

const ok = (result: unknown) => ({ body: { code: 200, msg: 'success', result } });
const list = (sites: Website[]) => ok({ list: sites, total: sites.length, num: 1, size: 20 });
const progress = (data: Partial<WebsiteProgressData>) => ({
  type: 'server message' as const,
  message: {
    type: 2 as const,
    cmd: 8 as const,
    status: 200 as const,
    index: 1,
    data: { id: 5, status: 'running' as const, progress: 0, pages_done: 0, page_count: 0, issue_count: 0, ...data },
  },
});

describe('websites (model-based)', () => {
  const testModel = createTestModel(model, modelOptions);
  const shortest = testModel.getShortestPaths({ allowDuplicatePaths: true });

  it('has enough paths to cover the flow', () => {
    expect(shortest.length).toBeGreaterThanOrEqual(12);
  });

  for (const path of shortest) {
    it(path.description, async () => {
      freshStores();
      notices.length = 0;
      const routes: Record<string, { status?: number; body?: unknown; networkDown?: boolean }> = {};
      const transport = fakeFetch(routes);
      configureApi({ baseURL: 'http://api.test', fetch: transport.fetch });
      const calls = (p: string) => transport.requests.filter((r) => new URL(r.url).pathname === p);
      const saved: string[] = [];
      const held: { actor: ReturnType<typeof createActor<ReturnType<typeof liveWebsites>>> | null } = { actor: null };
      const settle = async () => {
        for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
      };
      const begin = async () => {
        held.actor = createActor(liveWebsites({ save: (_blob, name) => saved.push(name) }));
        held.actor.start();
        await settle();
      };
      const a = () => held.actor!;
      let progressSeen = 0;
      let downloads = 0;

      await path.test({
        events: {
          LOAD_EMPTY: async () => {
            routes['GET /misscut/website/get_list'] = list([]);
            await begin();
          },
          LOAD_FAILS: async () => {
            routes['GET /misscut/website/get_list'] = { networkDown: true };
            await begin();
          },
          RETRY: async () => {
            routes['GET /misscut/website/get_list'] = list([]);
            a().send({ type: 'retry' });
            await settle();
          },
          ADD_AND_CHECK: async () => {
            routes['POST /misscut/website/add_one'] = ok(site());
            routes['POST /misscut/website/check'] = ok(site({ status: 'queued' }));
            a().send({ type: 'add', input: { url: URL_A, depth: 0, page_limit: 1 }, check: true });
            await settle();
            const body = await calls('/misscut/website/add_one').at(-1)!.clone().json();
            expect(body).toEqual({ url: URL_A, depth: 0, page_limit: 1 });
            expect(await calls('/misscut/website/check').at(-1)!.clone().json()).toEqual({ id: 5 });
          },
          ADD_REFUSED: async () => {
            routes['POST /misscut/website/add_one'] = {
              status: 400,
              body: { code: 400, msg: '只能校对 http 或 https 网页', msg_code: 'web.bad_scheme', result: null },
            };
            const checks = calls('/misscut/website/check').length;
            a().send({ type: 'add', input: { url: 'https://bad', depth: 0, page_limit: 1 }, check: true });
            await settle();
            expect(calls('/misscut/website/check')).toHaveLength(checks);
            expect(notices.at(-1)?.title).toBe('只能校对 http 或 https 网页');
          },
          OPEN_URL: async () => {
            const known = a().getSnapshot().context.sites.length > 0;
            routes['GET /misscut/website/get_list'] = list(
              known ? [site({ status: 'done', last_result: RESULT })] : [],
            );
            routes['POST /misscut/website/add_one'] = ok(site());
            routes['POST /misscut/website/check'] = ok(site({ status: 'queued', last_result: known ? RESULT : null }));
            const adds = calls('/misscut/website/add_one').length;
            a().send({ type: 'open url', url: `${URL_A}#part` });
            await settle();
            // an address the user has already is checked again, not added twice
            expect(calls('/misscut/website/add_one')).toHaveLength(known ? adds : adds + 1);
            expect(a().getSnapshot().context.selectedId).toBe(5);
          },
          PROGRESS: async () => {
            progressSeen = Math.min(90, progressSeen + 30);
            a().send(progress({ progress: progressSeen, page_count: 1 }));
            await settle();
          },
          CHECK_DONE: async () => {
            routes['GET /misscut/website/get_list'] = list([
              site({ status: 'done', progress: 100, last_result: RESULT, last_checked_at: NOW }),
            ]);
            a().send(progress({ status: 'done', progress: 100, page_count: 1, pages_done: 1, issue_count: 1 }));
            await settle();
          },
          CHECK_FAILED: async () => {
            const failed = site({
              status: 'failed',
              error: '网站返回错误 500',
              error_code: 'web.http_status',
              error_params: { status: 500 },
            });
            routes['GET /misscut/website/get_list'] = list([failed]);
            a().send(
              progress({
                status: 'failed',
                error: '网站返回错误 500',
                error_code: 'web.http_status',
                error_params: { status: 500 },
              }),
            );
            await settle();
          },
          CHECK_AGAIN: async () => {
            const last = a().getSnapshot().context.sites[0];
            routes['POST /misscut/website/check'] = ok({ ...last, status: 'queued', progress: 0 });
            a().send({ type: 'check', id: 5 });
            await settle();
          },
          CHECK_BUSY: async () => {
            routes['POST /misscut/website/check'] = {
              status: 409,
              body: { code: 409, msg: '这个网站正在校对，请等本次校对完成', msg_code: 'website.running', result: null },
            };
            a().send({ type: 'check', id: 5 });
            await settle();
            expect(notices.at(-1)?.title).toBe('这个网站正在校对，请等本次校对完成');
          },
          DOWNLOAD: async () => {
            routes['GET /misscut/website/download'] = { body: 'page,original\r\n' };
            downloads++;
            a().send({ type: 'download', id: 5 });
            await settle();
          },
          ADD_LISTED: async () => {
            routes['POST /misscut/website/add_one'] = {
              status: 409,
              body: { code: 409, msg: '这个网址已经添加过了', msg_code: 'website.duplicate', result: null },
            };
            a().send({ type: 'select', id: null });
            a().send({ type: 'add', input: { url: URL_A, depth: 0, page_limit: 1 }, check: true });
            await settle();
          },
          RECHECK_LISTED: async () => {
            const listed = a().getSnapshot().context.listedId!;
            routes['POST /misscut/website/check'] = ok(site({ status: 'queued' }));
            a().send({ type: 'check', id: listed });
            await settle();
            expect(await calls('/misscut/website/check').at(-1)!.clone().json()).toEqual({ id: 5 });
          },
          DISMISS_LISTED: async () => {
            a().send({ type: 'dismiss listed' });
            await settle();
          },
          DELETE: async () => {
            routes['POST /misscut/website/delete_one'] = ok(null);
            a().send({ type: 'delete', id: 5 });
            await settle();
          },
        },
        states: {
          start: () => {
            expect(held.actor).toBeNull();
          },
          loadFailed: () => {
            const s = a().getSnapshot();
            expect(s.value).toBe('failed');
            expect(s.context.error).toBe('网络连接失败');
          },
          empty: () => {
            const s = a().getSnapshot();
            expect(s.matches({ ready: { action: 'idle' } })).toBe(true);
            expect(s.context.sites).toEqual([]);
            expect(s.context.selectedId).toBeNull();
          },
          running: () => {
            const s = a().getSnapshot();
            expect(s.context.listedId).toBeNull();
            expect(s.matches({ ready: { action: 'idle' } })).toBe(true);
            const row = s.context.sites.find((x) => x.id === 5)!;
            expect(['queued', 'running']).toContain(row.status);
            if (row.status === 'running') expect(row.progress).toBe(progressSeen);
          },
          done: (state) => {
            const s = a().getSnapshot();
            expect(s.matches({ ready: { sync: 'idle' } })).toBe(true);
            const row = s.context.sites.find((x) => x.id === 5)!;
            expect(row.status).toBe('done');
            expect(row.last_result?.issue_count).toBe(1);
            expect(saved).toHaveLength(downloads);
            expect(downloads > 0).toBe(state.context.reports > 0);
            if (downloads) expect(saved.at(-1)).toBe('example.org/news-校对报告.csv');
          },
          checkFailed: () => {
            const row = a()
              .getSnapshot()
              .context.sites.find((x) => x.id === 5)!;
            expect(row).toMatchObject({ status: 'failed', error_code: 'web.http_status' });
            expect(a().getSnapshot().context.listedId).toBeNull();
          },
          listed: () => {
            const s = a().getSnapshot();
            expect(s.matches({ ready: { action: 'idle' } })).toBe(true);
            // the listed site is shown and named, so 重新校对 can be offered
            expect(s.context.listedId).toBe(5);
            expect(s.context.selectedId).toBe(5);
            expect(notices.at(-1)?.title).toBe('这个网址已经添加过了');
          },
        },
      });
      held.actor?.stop();
    });
  }
});
