import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  addedCalls,
  foundationCalls,
  languageToolCalls,
  nonEnvelopeCalls,
  publicCalls,
  redirectCalls,
  specCalls,
  type Call,
} from './spec-calls';

const root = fileURLToPath(new URL('../..', import.meta.url));
const specPath = `${root}openapi/workbench.yaml`;
// biome-ignore lint: the document is plain parsed YAML
type Node = any;
const doc: Node = parse(readFileSync(specPath, 'utf8'));

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** Follows local `$ref`s ("#/components/...") until a non-reference node. */
function deref(node: Node): Node {
  let current = node;
  for (let hops = 0; current && typeof current.$ref === 'string'; hops++) {
    if (hops > 20) throw new Error(`reference loop at ${node.$ref}`);
    const ref: string = current.$ref;
    if (!ref.startsWith('#/')) throw new Error(`only local references are allowed: ${ref}`);
    current = ref
      .slice(2)
      .split('/')
      .reduce((acc: Node, key) => acc?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    if (current === undefined) throw new Error(`dangling reference ${ref}`);
  }
  return current;
}

interface Operation {
  method: string;
  path: string;
  op: Node;
}

const operations: Operation[] = Object.entries(doc.paths as Record<string, Node>).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m]).map((method) => ({ method, path, op: item[method] })),
);
const key = ([method, path]: Call | [string, string]) => `${method.toUpperCase()} ${path}`;
const byKey = new Map(operations.map((o) => [key([o.method, o.path]), o]));

/** The operationId rule of the shared contract, computed from method + path. */
function expectedOperationId(method: string, path: string): string {
  const words = [method];
  for (const segment of path.split('/').filter(Boolean)) {
    const param = /^\{(.+)\}$/.exec(segment);
    if (param) words.push('by', ...param[1].split(/[^A-Za-z0-9]+/).filter(Boolean));
    else words.push(...segment.split(/[^A-Za-z0-9]+/).filter(Boolean));
  }
  return words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1))).join('');
}

function effectiveSecurity(op: Node): Node[] {
  return op.security ?? doc.security;
}

const redirects = new Set(redirectCalls.map(([m, p]) => `${m.toUpperCase()} ${p}`));

describe('openapi/workbench.yaml', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(specPath);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('has no dangling references', () => {
    const refs: string[] = [];
    const walk = (node: Node) => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        if (typeof node.$ref === 'string') refs.push(node.$ref);
        Object.values(node).forEach(walk);
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(100);
    for (const ref of new Set(refs)) expect(() => deref({ $ref: ref }), ref).not.toThrow();
  });

  it('the operationId rule is computed as the contract examples say', () => {
    expect(expectedOperationId('get', '/user/user_info')).toBe('getUserUserInfo');
    expect(expectedOperationId('post', '/misscut/v1/check_text')).toBe('postMisscutV1CheckText');
    expect(expectedOperationId('put', '/enterprise-dic/leader/update/{id}')).toBe('putEnterpriseDicLeaderUpdateById');
    expect(expectedOperationId('get', '/workbench/config.json')).toBe('getWorkbenchConfigJson');
    expect(expectedOperationId('delete', '/misscut/v2/pdf_check/delete/{id}')).toBe(
      'deleteMisscutV2PdfCheckDeleteById',
    );
  });

  it('every operationId follows the rule and is unique', () => {
    const wrong = operations
      .filter((o) => o.op.operationId !== expectedOperationId(o.method, o.path))
      .map(
        (o) => `${key([o.method, o.path])}: ${o.op.operationId} (expected ${expectedOperationId(o.method, o.path)})`,
      );
    expect(wrong).toEqual([]);
    const ids = operations.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(Object.entries(specCalls))('has every call of spec §7 — %s', (_section, calls) => {
    const missing = calls.filter((c) => !byKey.has(key(c))).map(key);
    expect(missing).toEqual([]);
  });

  it('has the foundation, LanguageTool and added calls, and nothing unlisted', () => {
    const listed = [...Object.values(specCalls).flat(), ...foundationCalls, ...languageToolCalls, ...addedCalls];
    expect(listed.filter((c) => !byKey.has(key(c))).map(key)).toEqual([]);
    const listedKeys = new Set(listed.map(key));
    expect(operations.map((o) => key([o.method, o.path])).filter((k) => !listedKeys.has(k))).toEqual([]);
  });

  it('added calls say in their description that the spec does not list them', () => {
    for (const call of addedCalls) expect(byKey.get(key(call))?.op.description, key(call)).toMatch(/^Added \(/);
  });

  it('every operation has tags, a summary and a 200 response', () => {
    const tagNames = new Set((doc.tags as Node[]).map((t) => t.name));
    for (const { method, path, op } of operations) {
      const where = key([method, path]);
      expect(op.tags?.length, where).toBeGreaterThan(0);
      for (const tag of op.tags) expect(tagNames.has(tag), `${where} tag ${tag}`).toBe(true);
      expect(op.summary, where).toBeTruthy();
      // a navigation (WeChat's login and binding) succeeds with a redirect instead
      expect(op.responses?.[redirects.has(where) ? '302' : '200'], where).toBeDefined();
    }
  });

  it('every enveloped 200 response is {code: 200, msg, result}', () => {
    const exempt = new Set(nonEnvelopeCalls.map(key));
    for (const { method, path, op } of operations) {
      const where = key([method, path]);
      if (redirects.has(where)) continue;
      const content = deref(op.responses['200']).content;
      if (exempt.has(where)) {
        expect(
          content?.['application/json']?.schema?.properties?.code,
          `${where} is listed as not enveloped`,
        ).toBeUndefined();
        continue;
      }
      expect(Object.keys(content ?? {}), where).toEqual(['application/json']);
      const schema = deref(content['application/json'].schema);
      expect(schema.type, where).toBe('object');
      expect(schema.required, where).toEqual(['code', 'msg', 'result']);
      expect(deref(schema.properties.code), where).toMatchObject({ type: 'integer', const: 200 });
      expect(deref(schema.properties.msg), where).toMatchObject({ type: 'string' });
      expect(schema.properties.result, where).toBeDefined();
    }
  });

  it(
    'every enveloped error response is the error envelope {code, msg, result: null}, except 402 which says the ' +
      'quota kind and the per-check limit 413 of the calls that check a text',
    () => {
      const exempt = new Set(nonEnvelopeCalls.map(key));
      const errorEnvelope = doc.components.schemas.ErrorEnvelope;
      expect(errorEnvelope.properties.result).toEqual({ type: 'null' });
      const quota = doc.components.responses.QuotaExhausted.content['application/json'].schema;
      expect(quota.properties.code).toEqual({ type: 'integer', const: 402 });
      expect(quota.properties.result.properties.kind).toEqual({ type: 'integer', enum: [1, 2] });
      // over the plan's per-check limit: {max, total}, which the client cannot take for the quota answer
      const tooLong = doc.components.responses.TextTooLong.content['application/json'].schema;
      expect(tooLong.properties.code).toEqual({ type: 'integer', const: 413 });
      expect(Object.keys(tooLong.properties.result.properties)).toEqual(['max', 'total']);
      const checksText = new Set([
        'POST /misscut/v1/check_text',
        'POST /misscut/v2/check_text',
        'POST /misscut/document/v1/edit_upload_save',
      ]);
      for (const { method, path, op } of operations) {
        const where = key([method, path]);
        if (exempt.has(where) && path.startsWith('/v2/')) continue;
        for (const [status, response] of Object.entries(op.responses as Record<string, Node>)) {
          if (status === '200' || (status === '302' && redirects.has(where))) continue;
          expect(Number(status), `${where} ${status}`).toBeGreaterThanOrEqual(400);
          const schema = deref(deref(response).content['application/json'].schema);
          const expected =
            status === '402' ? quota : status === '413' && checksText.has(where) ? tooLong : errorEnvelope;
          expect(schema, `${where} ${status}`).toBe(expected);
        }
      }
    },
  );

  it('lists the error responses each operation can produce', () => {
    for (const { method, path, op } of operations) {
      const where = key([method, path]);
      const statuses = Object.keys(op.responses);
      const sec = effectiveSecurity(op);
      if (sec.length > 0) expect(statuses, `${where} needs a token`).toContain('401');
      const params = (op.parameters ?? []).map(deref);
      if (op.requestBody || params.some((p: Node) => p.in === 'query' || p.in === 'path')) {
        expect(statuses, `${where} takes input`).toContain('400');
      }
      if (path !== '/workbench/config.json' && !path.startsWith('/v2/')) expect(statuses, where).toContain('500');
    }
  });

  it('every §7 call can answer 501 until its issue lands, and the foundation calls are not marked so', () => {
    const foundation = new Set(foundationCalls.map(key));
    for (const call of [...Object.values(specCalls).flat(), ...addedCalls]) {
      if (foundation.has(key(call))) continue;
      expect(Object.keys(byKey.get(key(call))!.op.responses), key(call)).toContain('501');
    }
    for (const call of foundationCalls)
      expect(Object.keys(byKey.get(key(call))!.op.responses), key(call)).not.toContain('501');
  });

  it(
    'security: bearer globally; exactly the public calls opt out; LanguageTool ' +
      'calls also accept username + apiKey',
    () => {
      expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(doc.security).toEqual([{ bearerAuth: [] }]);
      const open = operations.filter((o) => effectiveSecurity(o.op).length === 0).map((o) => key([o.method, o.path]));
      expect(open.sort()).toEqual(publicCalls.map(key).sort());
      const optional = operations
        .filter((o) => effectiveSecurity(o.op).some((s: Node) => Object.keys(s).length === 0))
        .map((o) => key([o.method, o.path]));
      expect(optional.sort()).toEqual(
        languageToolCalls
          .filter((c) => c[1] !== '/v2/languages')
          .map(key)
          .sort(),
      );
    },
  );

  it('sends cid and endpoint as optional headers on every envelope call, without cid on guide show/access', () => {
    const noCid = new Set(['GET /wizard/v1/show', 'GET /wizard/v1/access']);
    for (const { method, path, op } of operations) {
      const where = key([method, path]);
      if (path.startsWith('/v2/') || path === '/workbench/config.json' || path === '/health') continue;
      const headers = (op.parameters ?? []).map(deref).filter((p: Node) => p.in === 'header');
      const names = headers.map((p: Node) => p.name);
      expect(names, where).toContain('endpoint');
      if (noCid.has(where)) expect(names, where).not.toContain('cid');
      else expect(names, where).toContain('cid');
      for (const h of headers.filter((p: Node) => p.name === 'cid' || p.name === 'endpoint'))
        expect(h.required, where).toBe(false);
    }
    for (const name of ['BdVid', 'Qhclickid', 'UpId']) {
      expect(doc.components.parameters[name]).toMatchObject({ in: 'query', required: false });
    }
  });

  it('marks exactly the silent calls of spec §8 with x-silent', () => {
    const silent = operations.filter((o) => o.op['x-silent'] === true).map((o) => key([o.method, o.path]));
    expect(silent.sort()).toEqual([
      'GET /enterprise/v1/share_dic_in_use',
      'GET /misscut/v1/click',
      'POST /proofread/result/collect/receive',
    ]);
  });

  it('check_text exists as v1 and v2 with the same body, a session header and checkMode/checkOptions defaults', () => {
    const v1 = byKey.get('POST /misscut/v1/check_text')!.op;
    const v2 = byKey.get('POST /misscut/v2/check_text')!.op;
    expect(v2.requestBody).toEqual(v1.requestBody);
    const body = deref(v1.requestBody.content['application/json'].schema);
    expect(body.required).toEqual(['text']);
    expect(body.properties.checkMode).toMatchObject({ enum: [3, 4], default: 3 });
    expect(body.properties.checkOptions).toMatchObject({ type: 'integer', default: 127 });
    const session = v1.parameters.map(deref).find((p: Node) => p.name === 'session');
    expect(session).toMatchObject({ in: 'header', required: true });
  });

  it('personal dictionary add_one takes {word, type: 1|4|5|9, correct?}', () => {
    const body = deref(byKey.get('POST /dict/v1/add_one')!.op.requestBody.content['application/json'].schema);
    expect(body.required).toEqual(['word', 'type']);
    expect(deref(body.properties.type).enum).toEqual([1, 4, 5, 9]);
    expect(body.properties.correct).toBeDefined();
  });

  it(
    'shared dictionary words take {dic_id, word, type: 1|4|5|9, correct?}; a ' +
      'shared dictionary says whether the caller uses it',
    () => {
      const body = deref(byKey.get('POST /enterprise-dic/add_one')!.op.requestBody.content['application/json'].schema);
      expect(body.required).toEqual(['dic_id', 'word', 'type']);
      expect(deref(body.properties.type).enum).toEqual([1, 4, 5, 9]);
      const dict = doc.components.schemas.SharedDictionary;
      expect(dict.required).toEqual(expect.arrayContaining(['id', 'name', 'word_count', 'in_use', 'user_count']));
      const status = deref(
        byKey.get('POST /enterprise/v1/modify_share_dic_status')!.op.requestBody.content['application/json'].schema,
      );
      expect(status.properties.status.enum).toEqual([0, 1]);
      for (const path of [
        '/enterprise/v1/add_share_dic_info',
        '/enterprise-dic/add_one',
        '/enterprise-dic/update_one',
        '/enterprise/v1/delete_share_dic',
      ]) {
        expect(Object.keys(byKey.get(`POST ${path}`)!.op.responses), path).toEqual(expect.arrayContaining(['403']));
      }
    },
  );
});

describe('strict request schemas', () => {
  /** Yields every schema reachable from `node` (through refs, properties, items, allOf/oneOf/anyOf). */
  function* schemas(node: Node, seen = new Set<Node>()): Generator<Node> {
    const s = deref(node);
    if (!s || typeof s !== 'object' || seen.has(s)) return;
    seen.add(s);
    yield s;
    for (const sub of Object.values(s.properties ?? {})) yield* schemas(sub, seen);
    if (s.items) yield* schemas(s.items, seen);
    for (const k of ['allOf', 'oneOf', 'anyOf']) for (const sub of s[k] ?? []) yield* schemas(sub, seen);
  }
  const isType = (s: Node, t: string) => s.type === t || (Array.isArray(s.type) && s.type.includes(t));

  it('JSON request bodies reject unknown properties', () => {
    for (const { method, path, op } of operations) {
      const json = op.requestBody && deref(op.requestBody).content['application/json'];
      if (!json) continue;
      for (const s of schemas(json.schema)) {
        if (isType(s, 'object')) expect(s.additionalProperties, `${key([method, path])}`).toBe(false);
      }
    }
  });

  it('every string input has a maximum length (or an enum) and every integer input bounds (or an enum)', () => {
    const problems: string[] = [];
    const check = (where: string, schema: Node) => {
      for (const s of schemas(schema)) {
        if (s.enum || s.const !== undefined) continue;
        if (isType(s, 'string') && s.maxLength === undefined) problems.push(`${where}: string without maxLength`);
        if (isType(s, 'integer') && (s.minimum === undefined || s.maximum === undefined))
          problems.push(`${where}: integer without bounds`);
      }
    };
    for (const { method, path, op } of operations) {
      const where = key([method, path]);
      for (const p of (op.parameters ?? []).map(deref)) check(`${where} ${p.in} ${p.name}`, p.schema);
      const content = op.requestBody ? deref(op.requestBody).content : {};
      for (const [type, media] of Object.entries(content as Record<string, Node>))
        check(`${where} ${type}`, media.schema);
    }
    expect(problems).toEqual([]);
  });

  it('multipart uploads carry a required binary `file` part', () => {
    let uploads = 0;
    for (const { method, path, op } of operations) {
      const multipart = op.requestBody && deref(op.requestBody).content['multipart/form-data'];
      if (!multipart) continue;
      uploads++;
      const schema = deref(multipart.schema);
      expect(schema.required, key([method, path])).toContain('file');
      expect(deref(schema.properties.file).contentMediaType, key([method, path])).toBe('application/octet-stream');
    }
    expect(uploads).toBeGreaterThanOrEqual(7);
  });
});

describe('openapi/schema.d.ts', () => {
  it('is generated from the current contract (npm run gen:api)', async () => {
    // Same command and flags as the gen:api script, plus --check (exit 1 when the file differs).
    const script: string = JSON.parse(readFileSync(`${root}package.json`, 'utf8')).scripts['gen:api'];
    const [bin, ...args] = script.trim().split(/\s+/);
    expect(bin).toBe('openapi-typescript');
    const cli = `${root}node_modules/openapi-typescript/bin/cli.js`;
    const run = promisify(execFile);
    const result = await run(process.execPath, [cli, ...args, '--check'], { cwd: root }).then(
      () => 'up to date',
      (err: { stderr?: string }) => `stale: run npm run gen:api (${err.stderr?.trim()})`,
    );
    expect(result).toBe('up to date');
  }, 30_000);
});
