// AI writing on the real server against a local fake of an OpenAI-compatible chat service (tests/fixtures/
// fake-chat.ts; the real service is an outside, paid one): the functions, a run streamed as server-sent events
// and charged exactly what it wrote from right 512, a service that fails midway, cuts the stream, falls silent
// or refuses (everything given back), a run stopped at what is left of the right, a run the user stops (pays
// what was written), bad input and the rate limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countChars, rightBalance, setDefaultRemaining } from '../../server/domain/rights/ledger';
import { FAKE_REPLY, startFakeChat, type FakeChat } from '../fixtures/fake-chat';
import { call, CLIENT_HEADERS, register, startTestApp, type TestApp } from './helpers';
import { listen } from './proofread-support';

let t: TestApp;
let base: string;
let token: string;
let uid: number;
let fake: FakeChat;

type StreamEvent = { delta?: string; done?: boolean; used?: number; truncated?: boolean; error?: { code: string } };

/** One run over real HTTP: the status, and the events when it streamed. */
async function run(body: Record<string, unknown>, options: { as?: string; stopAfter?: number } = {}) {
  const controller = new AbortController();
  const res = await fetch(`http://${base}/gpt/v1/chat/completions`, {
    method: 'POST',
    headers: {
      ...CLIENT_HEADERS,
      authorization: `Bearer ${options.as ?? token}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
    return { status: res.status, json: await res.json(), events: [] as StreamEvent[] };
  }
  const events: StreamEvent[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (line.startsWith('data: ')) events.push(JSON.parse(line.slice(6)));
      }
      if (options.stopAfter !== undefined && events.length >= options.stopAfter) {
        controller.abort();
        break;
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  }
  return { status: res.status, json: null, events };
}

const text = (events: StreamEvent[]) => events.map((e) => e.delta ?? '').join('');
const reservations = () => t.app.db.selectFrom('check_reservations').select('check_id').execute();

beforeAll(async () => {
  // (the browser tests' global setup configures a chat service for its server; this file starts without one)
  delete process.env.AI_URL;
  fake = await startFakeChat();
  t = await startTestApp();
  base = await listen(t);
  token = await register(t, '13577770001');
  uid = (await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result.uid;
}, 60_000);
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe('AI writing', () => {
  it('without a chat service: the functions say so and a run is refused with 503, nothing charged', async () => {
    const functions = await call(t.app, 'GET', '/gpt/v1/chat/function', undefined, token);
    expect(functions.status).toBe(200);
    expect(functions.json.result.available).toBe(false);
    const ids = functions.json.result.functions.map((f: { id: string }) => f.id);
    expect(ids).toEqual([
      'continue',
      'polish',
      'shorten',
      'expand',
      'formal',
      'summarize',
      'titles',
      'notice',
      'request',
      'report',
      'letter',
    ]);
    const notice = functions.json.result.functions.find((f: { id: string }) => f.id === 'notice');
    expect(notice.fields.map((f: { key: string; required: boolean }) => [f.key, f.required])).toEqual([
      ['title', true],
      ['issuer', true],
      ['recipient', false],
    ]);
    const before = await rightBalance(t.app.db, uid, 512);
    expect(before).toBe(2000); // a free account's trial
    const refused = await run({ function_id: 'polish', content: '这个方案须要进一步完善。' });
    expect([refused.status, refused.json.msg_code]).toEqual([503, 'ai.not_configured']);
    expect(await rightBalance(t.app.db, uid, 512)).toBe(before);
  });

  it('streams a polish and charges exactly the characters written', async () => {
    // the app's own settings: the environment is read once, when the app is built
    t.app.config.ai.url = fake.url;
    t.app.config.ai.apiKey = 'sk-test-key';
    const functions = await call(t.app, 'GET', '/gpt/v1/chat/function', undefined, token);
    expect(functions.json.result.available).toBe(true);
    const before = await rightBalance(t.app.db, uid, 512);
    const sent = fake.requests.length;
    const { status, events } = await run({ function_id: 'polish', content: '这个方案须要进一步完善。' });
    expect(status).toBe(200);
    // the text came in pieces, then the end with what was charged
    expect(events.filter((e) => e.delta).length).toBeGreaterThan(5);
    expect(text(events)).toBe(FAKE_REPLY);
    expect(events.at(-1)).toEqual({ done: true, used: countChars(FAKE_REPLY), truncated: false });
    expect(await rightBalance(t.app.db, uid, 512)).toBe(before - countChars(FAKE_REPLY));
    expect(await reservations()).toEqual([]);
    // what the service was asked: the model, the key, a stream, the instruction with the user's text
    const asked = fake.requests[sent];
    expect(asked.url).toBe('/v1/chat/completions');
    expect(asked.authorization).toBe('Bearer sk-test-key');
    expect(asked.body).toMatchObject({ model: 'gpt-4o-mini', stream: true });
    const [system, user] = asked.body.messages!;
    expect(system.role).toBe('system');
    expect(user.content).toMatch(/^请润色下面的文字/);
    expect(user.content).toContain('这个方案须要进一步完善。');
  });

  it('drafts an official document from its fields; a required field left empty is refused', async () => {
    const missing = await run({ function_id: 'notice', content: '周五下午三点开会', fields: { issuer: '办公室' } });
    expect([missing.status, missing.json.msg_code]).toEqual([400, 'ai.missing_field']);
    const sent = fake.requests.length;
    const drafted = await run({
      function_id: 'notice',
      content: '周五下午三点在三楼会议室开会',
      fields: { title: '召开安全生产会议', issuer: '市应急管理局办公室', recipient: '各科室' },
      lang: 'hk',
    });
    expect(drafted.events.at(-1)).toMatchObject({ done: true });
    const [system, user] = fake.requests[sent].body.messages!;
    expect(system.content).toContain('繁体中文');
    expect(user.content).toContain('GB/T 9704');
    expect(user.content).toContain('召开安全生产会议');
    expect(user.content).toContain('主送机关：各科室');
    expect(user.content).toMatch(/\d{4}年\d{1,2}月\d{1,2}日/);
  });

  it('gives everything back when the service fails, cuts the stream, refuses or falls silent', async () => {
    const before = await rightBalance(t.app.db, uid, 512);
    for (const [marker, code] of [
      ['[[fail]]', 'ai.failed'],
      ['[[drop]]', 'ai.failed'],
      ['[[refuse]]', 'ai.failed'],
    ] as const) {
      const { status, events } = await run({ function_id: 'continue', content: `开头 ${marker}` });
      expect(status).toBe(200);
      expect(events.at(-1), marker).toEqual({ error: { code, msg: expect.any(String) } });
      expect(await rightBalance(t.app.db, uid, 512), marker).toBe(before);
    }
    const idle = t.app.config.ai.idleTimeoutMs;
    t.app.config.ai.idleTimeoutMs = 300;
    try {
      const { events } = await run({ function_id: 'continue', content: '开头 [[stall]]' });
      expect(text(events)).toBe('开头');
      expect(events.at(-1)).toEqual({ error: { code: 'ai.timeout', msg: expect.any(String) } });
    } finally {
      t.app.config.ai.idleTimeoutMs = idle;
    }
    expect(await rightBalance(t.app.db, uid, 512)).toBe(before);
    expect(await reservations()).toEqual([]);
  });

  it('stops at what is left of the right, then answers 402', async () => {
    await setDefaultRemaining(t.app.db, uid, 512, 50);
    expect(await rightBalance(t.app.db, uid, 512)).toBe(50);
    const { events } = await run({ function_id: 'expand', content: '扩写 [[long]]' });
    expect(countChars(text(events))).toBe(50);
    expect(events.at(-1)).toEqual({ done: true, used: 50, truncated: true });
    expect(await rightBalance(t.app.db, uid, 512)).toBe(0);
    const exhausted = await run({ function_id: 'expand', content: '再来一次' });
    expect([exhausted.status, exhausted.json.msg_code, exhausted.json.result]).toEqual([
      402,
      'ai.exhausted',
      { kind: 1 },
    ]);
  });

  it('a run the user stops pays for what it wrote, and the service is told to stop', async () => {
    await setDefaultRemaining(t.app.db, uid, 512, 2000);
    const closedBefore = fake.closedEarly;
    const { events } = await run({ function_id: 'expand', content: '扩写 [[long]]' }, { stopAfter: 10 });
    const written = countChars(text(events));
    expect(written).toBeGreaterThan(0);
    // the server notices the closed connection, stops the service and settles the reservation
    await expect.poll(() => reservations(), { timeout: 5000 }).toEqual([]);
    await expect.poll(() => fake.closedEarly).toBe(closedBefore + 1);
    const balance = await rightBalance(t.app.db, uid, 512);
    expect(balance).toBeLessThanOrEqual(2000 - written);
    expect(balance).toBeGreaterThan(2000 - 1200);
  });

  it('refuses bad input and more than 20 runs a minute', async () => {
    const unknown = await run({ function_id: 'rewrite_everything', content: '一段文字' });
    expect([unknown.status, unknown.json.msg_code]).toEqual([400, 'ai.unknown_function']);
    const empty = await run({ function_id: 'polish', content: '' });
    expect([empty.status, empty.json.msg_code]).toEqual([400, 'request.invalid']);
    const tooLong = await run({ function_id: 'polish', content: '字'.repeat(20_001) });
    expect(tooLong.status).toBe(400);
    const anonymous = await fetch(`http://${base}/gpt/v1/chat/completions`, {
      method: 'POST',
      headers: { ...CLIENT_HEADERS, 'content-type': 'application/json' },
      body: JSON.stringify({ function_id: 'polish', content: '一段文字' }),
    });
    expect(anonymous.status).toBe(401);
    const other = await register(t, '13577770002');
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++)
      statuses.push((await run({ function_id: 'nothing', content: '字' }, { as: other })).status);
    expect(statuses.slice(0, 20).every((s) => s === 400)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});
