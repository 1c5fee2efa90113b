// Findings keep their note (the message as a catalogue id, engine/messages.ts) when a result is stored and read back
// through the contract's response schema; a result stored before notes existed reads as it was, message only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertImageTask } from '../../server/db/repos/image-tasks';
import { renderNote, type Note } from '../../engine/messages';
import { call, register, startTestApp, type TestApp } from './helpers';

let t: TestApp;
let token: string;
let uid: number;

beforeAll(async () => {
  t = await startTestApp();
  token = await register(t, '13566665101');
  uid = (await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result.uid;
}, 60_000);
afterAll(async () => t.close());

const OLD_ISSUE = {
  start: 9,
  end: 10,
  original: '提',
  suggestions: ['题'],
  category: '1',
  level: 1,
  message: '“问提”应为“问题”：同音字误用（提 tí/dī，题 tí）。',
  boxes: [[1, 2, 3, 4]],
};

async function doneTask(issues: unknown[]): Promise<number> {
  const now = new Date().toISOString();
  return insertImageTask(
    t.app.db,
    {
      uid,
      name: 'a.png',
      size: 10,
      status: 'done',
      width: 100,
      height: 40,
      text: '我们明天讨论这个问提。',
      issues: JSON.stringify(issues),
      unsure: '[]',
      error: null,
      error_code: null,
      error_params: null,
      created_at: now,
      updated_at: now,
    },
    new Uint8Array(0),
    async () => {},
  );
}

describe('finding notes on the wire', () => {
  it('an image result checked again carries each finding’s note, nested reasons included', async () => {
    const id = await doneTask([OLD_ISSUE]);
    const text = '截止本月十日，我们已经讨论了这个问提。';
    const res = await call(t.app, 'POST', '/misscut/v1/image/recheck', { task_id: id, text }, token);
    expect(res.status).toBe(200);
    const read = await call(t.app, 'GET', `/misscut/v1/image/result?task_id=${id}`, undefined, token);
    const issues = read.json.result.issues as Array<{ message: string; note?: Note }>;
    expect(issues.length).toBeGreaterThanOrEqual(2);
    for (const i of issues) expect(renderNote(i.note!, 'cn')).toBe(i.message);
    const reason = issues.find((i) => i.note?.id === 'usage.should')!;
    expect(reason.note!.args!.reason).toEqual({ id: 'reason.jiezhi' });
    expect(renderNote(reason.note!, 'en')).toBe(
      '“止” should be “至”: before a time, “up to” is “截至”; “截止” takes no object.',
    );
  });

  it('a result stored before notes existed reads back with its message and no note', async () => {
    const id = await doneTask([OLD_ISSUE]);
    const read = await call(t.app, 'GET', `/misscut/v1/image/result?task_id=${id}`, undefined, token);
    expect(read.json.result.issues).toEqual([OLD_ISSUE]);
  });
});
