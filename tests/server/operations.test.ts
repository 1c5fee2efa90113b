import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { implementedOperations } from '../../server/routes';
import { DEFAULT_SPEC, NOT_AVAILABLE_MSG } from '../../server/plugins/openapi';
import { ADMIN, CLIENT_HEADERS, login, startTestApp, type TestApp } from './helpers';

interface ContractOperation {
  method: string;
  path: string;
  operationId: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function operationsOf(spec: any): ContractOperation[] {
  const ops: ContractOperation[] = [];
  for (const [path, item] of Object.entries<any>(spec.paths ?? {})) {
    for (const method of METHODS)
      if (item[method]) ops.push({ method: method.toUpperCase(), path, operationId: item[method].operationId });
  }
  return ops;
}

const concreteUrl = (path: string) => path.replace(/\{[^}]+\}/g, '1');

const contract = parse(readFileSync(DEFAULT_SPEC, 'utf8'));
const contractOps = operationsOf(contract);

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp();
  token = await login(t.app, ADMIN.phone, ADMIN.password);
});
afterAll(async () => t.close());

describe('which calls are implemented', () => {
  it('lists the implemented calls; each is an operation of the contract', () => {
    const byId = new Map(contractOps.map((op) => [op.operationId, op]));
    const lines = implementedOperations.map(
      (id) => `${id}: ${byId.get(id)?.method ?? '??'} ${byId.get(id)?.path ?? '(not in contract)'}`,
    );
    const missing = contractOps.filter((op) => !implementedOperations.includes(op.operationId));
    console.log(
      `implemented ${implementedOperations.length} of ${contractOps.length} contract ` +
        `calls:\n  ${lines.join('\n  ')}\n` +
        `answering 501 (${missing.length}): ${missing.map((op) => `${op.method} ${op.path}`).join(', ') || 'none'}`,
    );
    expect(implementedOperations.filter((id) => !byId.has(id))).toEqual([]);
    expect(implementedOperations).toEqual(
      expect.arrayContaining([
        'getHealth',
        'getWorkbenchConfigJson',
        'postUserSmsCode',
        'postUserRegister',
        'postUserLogin',
        'postUserLogout',
        'getUserUserInfo',
        'putUserLoginId',
        'putUserPhone',
        'putUserPwd',
        'getUserPortrait',
        'postUserPortrait',
        'postUserLeaveMessage',
        'postUserCancellation',
      ]),
    );
  });

  it('every implemented call is routed (never 404 or 501), with and without a token', async () => {
    for (const op of contractOps.filter((o) => implementedOperations.includes(o.operationId))) {
      for (const headers of [CLIENT_HEADERS, { ...CLIENT_HEADERS, authorization: `Bearer ${token}` }]) {
        const res = await t.app.inject({ method: op.method as 'GET', url: concreteUrl(op.path), headers });
        expect([404, 501], `${op.method} ${op.path}`).not.toContain(res.statusCode);
      }
    }
  });

  it('no call of the contract answers 501: every one has a handler', () => {
    const missing = contractOps.filter((o) => !implementedOperations.includes(o.operationId));
    expect(missing.map((op) => `${op.method} ${op.path}`)).toEqual([]);
    expect(implementedOperations.length).toBe(contractOps.length);
  });
});

describe('a call the contract has but the server does not implement', () => {
  let extra: TestApp;
  let dir: string;
  beforeAll(async () => {
    // The contract plus a call the server does not implement: it must say so, whatever the input or token.
    const spec = structuredClone(contract);
    spec.paths['/misscut/v1/future_call/{id}'] = {
      post: {
        operationId: 'postMisscutV1FutureCallById',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } },
            },
          },
        },
        responses: { '200': { description: 'ok' } },
      },
    };
    dir = mkdtempSync(join(tmpdir(), 'wb-spec-'));
    writeFileSync(join(dir, 'workbench.yaml'), stringify(spec));
    extra = await startTestApp({ specification: join(dir, 'workbench.yaml') });
  });
  afterAll(async () => {
    await extra.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 501 with and without a token, with valid or invalid input', async () => {
    const cases = [
      { url: '/misscut/v1/future_call/7', payload: { text: 'ok' } },
      { url: '/misscut/v1/future_call/not-a-number', payload: { nope: 1 } },
    ];
    for (const { url, payload } of cases) {
      for (const headers of [CLIENT_HEADERS, { ...CLIENT_HEADERS, authorization: 'Bearer whatever' }]) {
        const res = await extra.app.inject({ method: 'POST', url, headers, payload });
        expect(res.statusCode).toBe(501);
        expect(res.json()).toEqual({ code: 501, msg: '该功能尚未开放', msg_code: NOT_AVAILABLE_MSG, result: null });
      }
    }
  });
});
