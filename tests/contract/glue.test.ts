import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import openapiGlue from 'fastify-openapi-glue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

/**
 * fastify-openapi-glue loads the contract: every operation becomes a route, request validation comes
 * from the file, and response schemas only let declared fields out. The handlers here record what they
 * received, so the tests see exactly what validation let through. Unknown properties must be refused,
 * not silently removed (`removeAdditional: false`), and JSON bodies are not coerced ("127" is not a number);
 * query, path and header values arrive as text and are coerced.
 */
function makeAjv(coerceTypes: boolean | 'array') {
  const ajv = new Ajv({ strict: false, coerceTypes, useDefaults: true, removeAdditional: false });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  return ajv;
}
const bodyAjv = makeAjv(false);
const textAjv = makeAjv('array');
const specification = fileURLToPath(new URL('../../openapi/workbench.yaml', import.meta.url));
const doc = parse(readFileSync(specification, 'utf8'));
const METHODS = ['get', 'put', 'post', 'delete'];

let app: FastifyInstance;
const calls: Array<{ operationId: string; body: unknown; query: unknown; params: unknown }> = [];

beforeAll(async () => {
  app = Fastify();
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const { $id: _placeholder, ...rest } = schema as Record<string, unknown>;
    return (httpPart === 'body' ? bodyAjv : textAjv).compile(rest);
  });
  app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    return reply.code(status).send({ code: status, msg: error.message, result: null });
  });
  await app.register(openapiGlue, {
    specification,
    operationResolver: (operationId: string) => async (request: { body: unknown; query: unknown; params: unknown }) => {
      calls.push({ operationId, body: request.body, query: request.query, params: request.params });
      if (operationId === 'getUserUserInfo') {
        return {
          code: 200,
          msg: 'ok',
          result: {
            uid: 1,
            phone: '13800000000',
            name: 'a',
            role: 'root',
            user_identity: 0,
            enterprise_id: null,
            login_id: null,
            password_hash: 'secret',
          },
        };
      }
      return { code: 200, msg: 'ok', result: null };
    },
  } as never);
  await app.ready();
  // compiling a validator for every operation of the contract takes seconds, more on a busy CI machine
}, 60_000);

afterAll(() => app?.close());

const lastCall = () => calls[calls.length - 1];

describe('fastify-openapi-glue with the contract', () => {
  it('registers a route for every operation but those a plugin of their own serves (x-no-fastify-config)', () => {
    let count = 0;
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const method of METHODS.filter((m) => item[m])) {
        // /docs: the reference page's plugin (tests/server/production.test.ts asks the whole app for it)
        const own = (item[method] as Record<string, unknown>)['x-no-fastify-config'] === true;
        const url = path.replace(/\{(\w+)\}/g, ':$1');
        expect(app.hasRoute({ method: method.toUpperCase() as 'GET', url }), `${method} ${path}`).toBe(!own);
        if (!own) count++;
      }
    }
    expect(count).toBeGreaterThan(120);
  });

  it('accepts a valid login and refuses a bad phone, a missing field and an unknown property', async () => {
    const ok = await app.inject({
      method: 'POST',
      url: '/user/login',
      payload: { phone: '13800000000', password: 'admin123456' },
    });
    expect(ok.statusCode).toBe(200);
    expect(lastCall()).toMatchObject({
      operationId: 'postUserLogin',
      body: { phone: '13800000000', password: 'admin123456' },
    });
    for (const payload of [
      { phone: '138', password: 'x' },
      { phone: '13800000000' },
      { phone: '13800000000', password: 'x', admin: true },
      { phone: 13800000000, password: 'x' },
    ]) {
      const res = await app.inject({ method: 'POST', url: '/user/login', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ code: 400, result: null });
    }
  });

  it('check_text needs the session header and applies the defaults checkMode 3 and checkOptions 127', async () => {
    const noSession = await app.inject({ method: 'POST', url: '/misscut/v1/check_text', payload: { text: '你好' } });
    expect(noSession.statusCode).toBe(400);
    const ok = await app.inject({
      method: 'POST',
      url: '/misscut/v2/check_text',
      headers: { session: 's1', cid: 'd1', endpoint: '1' },
      payload: { text: '你好' },
    });
    expect(ok.statusCode).toBe(200);
    expect(lastCall()).toMatchObject({
      operationId: 'postMisscutV2CheckText',
      body: { text: '你好', checkMode: 3, checkOptions: 127 },
    });
    for (const payload of [
      { text: '' },
      { text: '你好', checkMode: 5 },
      { text: '你好', checkOptions: -1 },
      { text: '你好', checkOptions: '127' },
    ]) {
      const res = await app.inject({
        method: 'POST',
        url: '/misscut/v1/check_text',
        headers: { session: 's1' },
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  it('coerces and bounds query and path parameters', async () => {
    expect((await app.inject({ url: '/misscut/v1/click?click_type=3&bd_vid=x' })).statusCode).toBe(200);
    expect(lastCall()).toMatchObject({ operationId: 'getMisscutV1Click', query: { click_type: 3 } });
    expect((await app.inject({ url: '/misscut/v1/click' })).statusCode).toBe(400);
    expect((await app.inject({ url: '/misscut/v1/click?click_type=abc' })).statusCode).toBe(400);
    expect((await app.inject({ url: '/misscut/document/v1/page?num=2&size=10' })).statusCode).toBe(200);
    expect(lastCall().query).toMatchObject({ num: 2, size: 10 });
    expect((await app.inject({ url: '/misscut/document/v1/page?size=1000' })).statusCode).toBe(400);
    expect((await app.inject({ method: 'DELETE', url: '/misscut/v2/pdf_check/delete/7' })).statusCode).toBe(200);
    expect(lastCall()).toMatchObject({ operationId: 'deleteMisscutV2PdfCheckDeleteById', params: { id: 7 } });
    expect((await app.inject({ method: 'DELETE', url: '/misscut/v2/pdf_check/delete/0' })).statusCode).toBe(400);
    expect(
      (
        await app.inject({
          method: 'PUT',
          url: '/enterprise-dic/leader/update/abc',
          payload: { name: '张三', titles: ['市长'] },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await app.inject({
          method: 'PUT',
          url: '/dict/v1/leader/update/3',
          payload: { name: '张三', titles: ['市长'] },
        })
      ).statusCode,
    ).toBe(200);
    expect(lastCall()).toMatchObject({ operationId: 'putDictV1LeaderUpdateById', params: { id: 3 } });
  });

  it('personal dictionary words take only the four word types', async () => {
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/dict/v1/add_one',
          payload: { word: '在次', type: 5, correct: '再次' },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await app.inject({ method: 'POST', url: '/dict/v1/add_one', payload: { word: '在次', type: 2 } })).statusCode,
    ).toBe(400);
    expect(
      (await app.inject({ method: 'POST', url: '/dict/v1/add_one', payload: { word: 'x'.repeat(51), type: 1 } }))
        .statusCode,
    ).toBe(400);
  });

  it('response schemas let only declared fields out', async () => {
    const res = await app.inject({ url: '/user/user_info' });
    expect(res.statusCode).toBe(200);
    expect(res.json().result).toEqual({
      uid: 1,
      phone: '13800000000',
      name: 'a',
      role: 'root',
      user_identity: 0,
      enterprise_id: null,
      login_id: null,
    });
  });
});
