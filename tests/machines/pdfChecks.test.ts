// Model-based test of the PDF list and a test of the PDF detail: abstract models of what the user sees, whose paths
// drive the REAL live machines (livePdfChecks, livePdfDetail: the real PDF calls through the API client). Only the
// transport is fake; the socket's progress messages are sent as the app's socket forwards them.
import { afterAll, describe, expect, it } from 'vitest';
import { createActor, setup } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { modelOptions, settle as settleFor } from './model';
import { configureApi } from '../../src/api/client';
import { livePdfChecks, livePdfDetail } from '../../src/machines/live-pdf';
import type { PdfResult, PdfSummary } from '../../src/machines/pdfCalls';
import type { PdfProgressData } from '../../openapi/socket-protocol';
import { collectNotices, fakeFetch, freshStores } from '../api/helpers';

const model = setup({
  types: {} as {
    events:
      | { type: 'LOAD_EMPTY' }
      | { type: 'LOAD_FAILS' }
      | { type: 'RETRY' }
      | { type: 'UPLOADED' }
      | { type: 'PROGRESS' }
      | { type: 'DONE' }
      | { type: 'FAILED' }
      | { type: 'CANCEL' }
      | { type: 'DELETE' };
  },
}).createMachine({
  id: 'pdfChecksModel',
  initial: 'start',
  states: {
    start: { on: { LOAD_EMPTY: 'empty', LOAD_FAILS: 'loadFailed' } },
    loadFailed: { on: { RETRY: 'empty' } },
    empty: { on: { UPLOADED: 'running' } },
    running: { on: { PROGRESS: 'running', DONE: 'done', FAILED: 'failed', CANCEL: 'cancelled' } },
    done: { on: { DELETE: 'empty' } },
    failed: { on: { DELETE: 'empty' } },
    cancelled: { on: { DELETE: 'empty' } },
  },
});

const { notices, unsubscribe } = collectNotices();
afterAll(unsubscribe);
const NOW = '2026-11-27T02:00:00.000Z';
const summary = (over: Partial<PdfSummary> = {}): PdfSummary => ({
  id: 9,
  name: '通知.pdf',
  size: 1000,
  status: 'queued',
  progress: 0,
  page_count: 4,
  pages_done: 0,
  issue_count: 0,
  created_at: NOW,
  ...over,
});
const ok = (result: unknown) => ({ body: { code: 200, msg: 'success', result } });
const list = (rows: PdfSummary[]) => ok({ list: rows, total: rows.length, num: 1, size: 20 });
const message = (data: Partial<PdfProgressData>) => ({
  type: 'server message' as const,
  message: {
    type: 2 as const,
    cmd: 7 as const,
    status: 200 as const,
    index: 1,
    data: { id: 9, status: 'running' as const, progress: 0, ...data },
  },
});
const settle = () => settleFor(5);

describe('PDF list (model-based)', () => {
  const shortest = createTestModel(model, modelOptions).getShortestPaths({ allowDuplicatePaths: true });
  it('has enough paths to cover the flow', () => expect(shortest.length).toBeGreaterThanOrEqual(9));

  for (const path of shortest) {
    it(path.description, async () => {
      freshStores();
      notices.length = 0;
      const routes: Record<string, { status?: number; body?: unknown; networkDown?: boolean }> = {};
      const transport = fakeFetch(routes);
      configureApi({ baseURL: 'http://api.test', fetch: transport.fetch });
      const held: { actor: ReturnType<typeof createActor<ReturnType<typeof livePdfChecks>>> | null } = { actor: null };
      const a = () => held.actor!;
      let done = 0;
      const begin = async () => {
        held.actor = createActor(livePdfChecks());
        held.actor.start();
        await settle();
      };
      const row = () =>
        a()
          .getSnapshot()
          .context.list.find((r) => r.id === 9);
      await path.test({
        events: {
          LOAD_EMPTY: async () => {
            routes['GET /misscut/v2/pdf_check/page'] = list([]);
            await begin();
          },
          LOAD_FAILS: async () => {
            routes['GET /misscut/v2/pdf_check/page'] = { networkDown: true };
            await begin();
          },
          RETRY: async () => {
            routes['GET /misscut/v2/pdf_check/page'] = list([]);
            a().send({ type: 'retry' });
            await settle();
          },
          UPLOADED: async () => {
            done = 0;
            a().send({ type: 'uploaded', pdf: summary() });
            // the same answer twice (a re-render) lists it once
            a().send({ type: 'uploaded', pdf: summary() });
            await settle();
          },
          PROGRESS: async () => {
            done = Math.min(3, done + 1);
            a().send(message({ progress: done * 25, pages_done: done, page_count: 4, issue_count: done }));
            await settle();
          },
          DONE: async () => {
            routes['GET /misscut/v2/pdf_check/page'] = list([
              summary({ status: 'done', progress: 100, pages_done: 4 }),
            ]);
            a().send(message({ status: 'done', progress: 100, pages_done: 4, page_count: 4, issue_count: 3 }));
            await settle();
          },
          FAILED: async () => {
            const failed = { error: 'PDF 中没有可校对的文字', error_code: 'pdf.no_text' as const };
            routes['GET /misscut/v2/pdf_check/page'] = list([summary({ status: 'failed', ...failed })]);
            a().send(message({ status: 'failed', ...failed }));
            await settle();
          },
          CANCEL: async () => {
            routes['POST /misscut/v2/pdf_check/cancel'] = ok(null);
            const cancelled = { error: '已取消 PDF 校对，已退回次数', error_code: 'pdf.cancelled' as const };
            routes['GET /misscut/v2/pdf_check/page'] = list([summary({ status: 'cancelled', ...cancelled })]);
            a().send({ type: 'cancel', id: 9 });
            await settle();
            expect(transport.requests.some((r) => new URL(r.url).pathname === '/misscut/v2/pdf_check/cancel')).toBe(
              true,
            );
            a().send(message({ status: 'cancelled', ...cancelled }));
            await settle();
          },
          DELETE: async () => {
            routes['DELETE /misscut/v2/pdf_check/delete/9'] = ok(null);
            a().send({ type: 'delete', id: 9 });
            await settle();
          },
        },
        states: {
          start: () => expect(held.actor).toBeNull(),
          loadFailed: () => {
            expect(a().getSnapshot().value).toBe('failed');
            expect(a().getSnapshot().context.error).toBe('网络连接失败');
          },
          empty: () => {
            expect(a().getSnapshot().matches('ready')).toBe(true);
            expect(a().getSnapshot().context.list).toEqual([]);
          },
          running: () => {
            expect(a().getSnapshot().context.list).toHaveLength(1);
            expect(row()).toMatchObject({ pages_done: done, progress: done * 25 });
          },
          done: () => expect(row()).toMatchObject({ status: 'done', pages_done: 4 }),
          failed: () => expect(row()).toMatchObject({ status: 'failed', error_code: 'pdf.no_text' }),
          cancelled: () => expect(row()).toMatchObject({ status: 'cancelled', error_code: 'pdf.cancelled' }),
        },
      });
      held.actor?.stop();
    });
  }
});

describe('PDF detail', () => {
  const page = (n: number) => ({ page: n, width: 595, height: 842, text: `第${n}页`, issues: [] });
  const result = (pages: number, status: PdfResult['status']): PdfResult => ({
    ...summary({ status, pages_done: pages }),
    pages: Array.from({ length: pages }, (_, i) => page(i + 1)),
  });

  it('reads the result again as pages complete and when the check ends; pages, zoom and export', async () => {
    freshStores();
    const routes: Record<string, { body?: unknown }> = {};
    const transport = fakeFetch(routes);
    configureApi({ baseURL: 'http://api.test', fetch: transport.fetch });
    const loads = () => transport.requests.filter((r) => new URL(r.url).pathname.endsWith('/result')).length;
    routes['GET /misscut/v2/pdf_check/result'] = ok(result(1, 'running'));
    const saved: string[] = [];
    const actor = createActor(livePdfDetail({ save: (_blob, name) => saved.push(name) }), { input: { id: 9 } });
    actor.start();
    await settle();
    expect(actor.getSnapshot().context.result?.pages).toHaveLength(1);
    // nothing to export while the check runs
    actor.send({ type: 'export', format: 'pdf' });
    expect(actor.getSnapshot().matches({ ready: { export: 'idle' } })).toBe(true);
    // another check's progress, and this one's without new pages, read nothing
    actor.send(message({ id: 8, pages_done: 3 }));
    actor.send(message({ pages_done: 1 }));
    await settle();
    expect(loads()).toBe(1);
    routes['GET /misscut/v2/pdf_check/result'] = ok(result(3, 'running'));
    actor.send(message({ pages_done: 3 }));
    await settle();
    expect(loads()).toBe(2);
    expect(actor.getSnapshot().context.result?.pages).toHaveLength(3);
    routes['GET /misscut/v2/pdf_check/result'] = ok(result(4, 'done'));
    actor.send(message({ status: 'done', pages_done: 4, progress: 100 }));
    await settle();
    expect(actor.getSnapshot().context.result?.status).toBe('done');
    actor.send({ type: 'select page', index: 99 });
    expect(actor.getSnapshot().context.pageIndex).toBe(3);
    for (let i = 0; i < 9; i++) actor.send({ type: 'zoom', step: 1 });
    expect(actor.getSnapshot().context.zoom).toBe(5);
    actor.send({ type: 'zoom', step: 0 });
    expect(actor.getSnapshot().context.zoom).toBe(2);
    // the finished check exports: the file named after the PDF is handed to the browser
    routes['GET /misscut/v2/pdf_check/export'] = { body: 'PDF' };
    actor.send({ type: 'export', format: 'xlsx' });
    await settle();
    expect(saved).toEqual(['通知（校对报告）.xlsx']);
    actor.stop();
  });
});
