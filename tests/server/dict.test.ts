import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, register, startTestApp, type TestApp } from './helpers';

let t: TestApp;
let alice: string;
let bob: string;
beforeAll(async () => {
  t = await startTestApp();
  alice = await register(t, '13900000011');
  bob = await register(t, '13900000012');
});
afterAll(async () => t.close());

const add = (token: string, body: unknown) => call(t.app, 'POST', '/dict/v1/add_one', body, token);

describe('personal dictionary /dict/v1', () => {
  it('adds the four kinds, refuses duplicates (409) and bad input (400)', async () => {
    const wrong = await add(alice, { word: '萍果', type: 5, correct: '苹果' });
    expect(wrong.status).toBe(200);
    expect(wrong.json.result).toMatchObject({ word: '萍果', type: 5, correct: '苹果' });
    expect((await add(alice, { word: '敏感', type: 4 })).json.result).toMatchObject({ type: 4, correct: null });
    expect((await add(alice, { word: '重点', type: 9 })).status).toBe(200);
    expect((await add(alice, { word: '允许', type: 1, correct: 'ignored' })).json.result.correct).toBeNull();
    expect((await add(alice, { word: '萍果', type: 5, correct: '苹果' })).status).toBe(409);
    // same word, another type: allowed
    expect((await add(alice, { word: '萍果', type: 9 })).status).toBe(200);
    // another user may have the same word
    expect((await add(bob, { word: '萍果', type: 5, correct: '苹果' })).status).toBe(200);
    expect((await add(alice, { word: '错词', type: 5 })).status).toBe(400);
    expect((await add(alice, { word: '错词', type: 5, correct: '错词' })).status).toBe(400);
    expect((await add(alice, { word: '   ', type: 4 })).status).toBe(400);
    expect((await add(alice, { word: '词', type: 3 })).status).toBe(400);
    expect((await add(alice, { word: 'x'.repeat(51), type: 4 })).status).toBe(400);
    expect((await call(t.app, 'POST', '/dict/v1/add_one', { word: '词', type: 4 })).status).toBe(401);
  });

  it('lists with paging, search and type filter, newest first, per user', async () => {
    const all = await call(t.app, 'GET', '/dict/v1/get_list?num=1&size=2', undefined, alice);
    expect(all.json.result).toMatchObject({ total: 5, num: 1, size: 2 });
    expect(all.json.result.list.map((w: { word: string }) => w.word)).toEqual(['萍果', '允许']);
    const page3 = await call(t.app, 'GET', '/dict/v1/get_list?num=3&size=2', undefined, alice);
    expect(page3.json.result.list).toHaveLength(1);
    const typed = await call(t.app, 'GET', '/dict/v1/get_list?type=5', undefined, alice);
    expect(typed.json.result.list.map((w: { word: string; type: number }) => [w.word, w.type])).toEqual([['萍果', 5]]);
    const search = await call(t.app, 'GET', `/dict/v1/get_list?keyword=${encodeURIComponent('苹')}`, undefined, alice);
    expect(search.json.result.total).toBe(1);
    const wildcard = await call(t.app, 'GET', `/dict/v1/get_list?keyword=${encodeURIComponent('%')}`, undefined, alice);
    expect(wildcard.json.result.total).toBe(0);
    expect((await call(t.app, 'GET', '/dict/v1/get_list', undefined, bob)).json.result.total).toBe(1);
    expect((await call(t.app, 'GET', '/dict/v1/get_list?size=1000', undefined, alice)).status).toBe(400);
  });

  it('updates, deletes one / many / all; other users get 404 for an id', async () => {
    const list = (await call(t.app, 'GET', '/dict/v1/get_list?size=100', undefined, alice)).json.result.list as Array<{
      id: number;
      word: string;
      type: number;
    }>;
    const sensitive = list.find((w) => w.type === 4)!;
    const upd = await call(t.app, 'PUT', '/dict/v1/update_one', { id: sensitive.id, word: '很敏感', type: 4 }, alice);
    expect(upd.status).toBe(200);
    expect(upd.json.result).toMatchObject({ id: sensitive.id, word: '很敏感' });
    expect(
      (await call(t.app, 'PUT', '/dict/v1/update_one', { id: sensitive.id, word: '别人的', type: 4 }, bob)).status,
    ).toBe(404);
    const wrong = list.find((w) => w.type === 5)!;
    expect(
      (
        await call(
          t.app,
          'PUT',
          '/dict/v1/update_one',
          { id: sensitive.id, word: wrong.word, type: 5, correct: '苹果' },
          alice,
        )
      ).status,
    ).toBe(409);
    expect((await call(t.app, 'DELETE', `/dict/v1/delete_one?id=${sensitive.id}`, undefined, bob)).status).toBe(404);
    expect((await call(t.app, 'DELETE', `/dict/v1/delete_one?id=${sensitive.id}`, undefined, alice)).status).toBe(200);
    expect((await call(t.app, 'DELETE', `/dict/v1/delete_one?id=${sensitive.id}`, undefined, alice)).status).toBe(404);
    const bobId = (await call(t.app, 'GET', '/dict/v1/get_list', undefined, bob)).json.result.list[0].id;
    const many = await call(t.app, 'POST', '/dict/v1/delete_many', { ids: [wrong.id, bobId] }, alice);
    expect(many.json.result).toEqual({ count: 1 });
    expect((await call(t.app, 'GET', '/dict/v1/get_list', undefined, bob)).json.result.total).toBe(1);
    expect((await call(t.app, 'POST', '/dict/v1/delete_many', { ids: [] }, alice)).status).toBe(400);
    const typed = await call(t.app, 'POST', '/dict/v1/delete_all_word', { type: 1 }, alice);
    expect(typed.json.result).toEqual({ count: 1 });
    const rest = await call(t.app, 'POST', '/dict/v1/delete_all_word', {}, alice);
    expect(rest.json.result.count).toBe(2);
    expect((await call(t.app, 'GET', '/dict/v1/get_list', undefined, alice)).json.result.total).toBe(0);
  });
});
