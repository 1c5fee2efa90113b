// The image screen's machine with its live bindings (the real image calls through the API client; only the
// transport is fake): uploads report their task, results arrive from the socket or from polling, a late reading
// never overwrites a re-check, corrected text is checked again, and a dismissed picture stops its poll.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { configureApi } from '../../src/api/client';
import { liveImageChecks } from '../../src/machines/live-images';
import { IMAGE_POLL_MS } from '../../src/machines/imageChecks';
import type { ImageResultData } from '../../openapi/socket-protocol';
import { fakeFetch, freshStores } from '../api/helpers';
import { settle } from './model';

const ok = (result: unknown) => ({ body: { code: 200, msg: 'success', result } });
const done = (taskId: number, text: string, issues: ImageResultData['issues'] = []): ImageResultData => ({
  task_id: taskId,
  status: 'done',
  text,
  width: 100,
  height: 40,
  issues,
  unsure: [],
});
const message = (data: ImageResultData) => ({
  type: 'server message' as const,
  message: { type: 2 as const, cmd: 5 as const, status: 200 as const, index: 1, data },
});

function start() {
  freshStores();
  const routes: Record<string, { status?: number; body?: unknown }> = {};
  const transport = fakeFetch(routes);
  configureApi({ baseURL: 'http://api.test', fetch: transport.fetch });
  const released: string[] = [];
  const actor = createActor(liveImageChecks({ release: (url) => released.push(url) }));
  actor.start();
  const calls = (path: string) => transport.requests.filter((r) => new URL(r.url).pathname === path);
  return { actor, routes, calls, released };
}

afterEach(() => vi.useRealTimers());

describe('image checks machine', () => {
  it('uploads each picture, takes the socket result, re-checks corrected text, keeps the re-check', async () => {
    const { actor, routes, calls } = start();
    routes['POST /misscut/v1/image/check'] = ok({ task_id: 40 });
    const blob = new Blob(['png']);
    actor.send({ type: 'files chosen', files: [{ file: blob, name: 'a.png', url: 'blob:a' }] });
    expect(actor.getSnapshot().context.items[0]).toMatchObject({ phase: 'uploading', name: 'a.png' });
    await settle();
    expect(calls('/misscut/v1/image/check')).toHaveLength(1);
    expect(actor.getSnapshot().context.items[0]).toMatchObject({ phase: 'queued', taskId: 40 });
    const issue = {
      start: 2,
      end: 3,
      original: '提',
      suggestions: ['题'],
      category: '1',
      level: 1,
      message: 'x',
      boxes: [[1, 2, 3, 4]],
    };
    actor.send(message({ task_id: 40, status: 'running' }));
    expect(actor.getSnapshot().context.items[0].phase).toBe('running');
    actor.send(message(done(40, '问题提', [issue])));
    expect(actor.getSnapshot().context.items[0]).toMatchObject({ phase: 'done', result: { text: '问题提' } });

    // correct the text and check again: the answer replaces the reading; a late socket message does not undo it
    routes['POST /misscut/v1/image/recheck'] = ok(done(40, '问题题'));
    actor.send({ type: 'recheck', key: 'image-0' });
    expect(actor.getSnapshot().context.items[0].phase).toBe('done');
    actor.send({ type: 'text edited', key: 'image-0', text: '问题题' });
    actor.send({ type: 'recheck', key: 'image-0' });
    expect(actor.getSnapshot().context.items[0].phase).toBe('rechecking');
    await settle();
    expect(await calls('/misscut/v1/image/recheck')[0].clone().json()).toEqual({ task_id: 40, text: '问题题' });
    expect(actor.getSnapshot().context.items[0]).toMatchObject({ phase: 'done', draft: null, result: { issues: [] } });
    actor.send(message({ task_id: 40, status: 'running' }));
    expect(actor.getSnapshot().context.items[0].result?.text).toBe('问题题');

    // a second picture whose upload is refused says why
    routes['POST /misscut/v1/image/check'] = {
      status: 400,
      body: { code: 400, msg: '暂不支持 HEIC 图片', msg_code: 'image.heic_unsupported', result: null },
    };
    actor.send({ type: 'files chosen', files: [{ file: blob, name: 'b.heic', url: 'blob:b' }] });
    await settle();
    expect(actor.getSnapshot().context.items[0]).toMatchObject({ name: 'b.heic', phase: 'failed' });
    expect(actor.getSnapshot().context.items[0].error).toContain('HEIC');
    actor.stop();
  });

  it('polls a task whose socket message was missed, and stops polling once it ended or was dismissed', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { actor, routes, calls, released } = start();
    routes['POST /misscut/v1/image/check'] = ok({ task_id: 7 });
    routes['GET /misscut/v1/image/result'] = ok({ task_id: 7, status: 'running' });
    actor.send({ type: 'files chosen', files: [{ file: new Blob(['x']), name: 'c.png', url: 'blob:c' }] });
    await settle();
    vi.advanceTimersByTime(IMAGE_POLL_MS);
    await settle();
    expect(calls('/misscut/v1/image/result')).toHaveLength(1);
    expect(actor.getSnapshot().context.items[0].phase).toBe('running');
    routes['GET /misscut/v1/image/result'] = ok(done(7, '文字'));
    vi.advanceTimersByTime(IMAGE_POLL_MS);
    await settle();
    expect(actor.getSnapshot().context.items[0].phase).toBe('done');
    vi.advanceTimersByTime(IMAGE_POLL_MS * 3);
    expect(calls('/misscut/v1/image/result')).toHaveLength(2);
    actor.send({ type: 'dismiss', key: 'image-0' });
    expect(actor.getSnapshot().context.items).toEqual([]);
    expect(released).toEqual(['blob:c']);
    actor.stop();
  });
});
