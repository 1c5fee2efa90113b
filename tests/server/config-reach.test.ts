import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { checkService } from '../../server/workers/checker/jobs';
import { createTeam } from '../../server/domain/teams/teams';
import { makePdf } from '../fixtures/pdf';
import { call, CLIENT_HEADERS, form, register, startTestApp, type TestApp } from './helpers';

// An app built with settings other than the environment's: each must reach what it governs, which a service
// reading the environment itself would miss.
const env = loadConfig();
const templatesDir = mkdtempSync(join(tmpdir(), 'wb-reach-templates-'));
const settings = {
  team: { ...env.team, inviteDays: 2 },
  paths: { ...env.paths, formatTemplates: templatesDir },
  checker: { ...env.checker, cacheEntries: 17 },
  pdf: { maxPages: 1 },
  ai: { ...env.ai, url: 'http://127.0.0.1:9/reach' },
  compare: { ...env.compare, maxPages: 7 },
};

let t: TestApp;
let token: string;
beforeAll(async () => {
  const gb = JSON.parse(
    readFileSync(join(__dirname, '../../server/formats/format/templates/gbt9704-2012.json'), 'utf8'),
  );
  writeFileSync(join(templatesDir, 'reach.json'), JSON.stringify({ ...gb, id: 41, key: 'reach', name: '到达' }));
  t = await startTestApp({ config: settings });
  token = await register(t, '13566660001');
}, 60_000);
afterAll(async () => {
  await t.close();
  rmSync(templatesDir, { recursive: true, force: true });
});

describe("an app's own config reaches the services", () => {
  it('differs from the environment in every setting tried', () => {
    expect(env.team.inviteDays).not.toBe(2);
    expect(env.paths.formatTemplates).not.toBe(templatesDir);
    expect(env.checker.cacheEntries).not.toBe(17);
    expect(env.pdf.maxPages).not.toBe(1);
    // (the browser tests' setup points AI_URL at a fake chat service for the whole run)
    expect(env.ai.url).not.toBe(settings.ai.url);
    expect(env.compare.maxPages).not.toBe(7);
  });

  it('invitations last TEAM_INVITE_DAYS of the app', async () => {
    const root = (await call(t.app, 'GET', '/user/user_info', undefined, token)).json.result;
    await createTeam(t.app.db, { name: '到达团队', adminUid: root.uid, adminPhone: '13566660001', seats: 5 });
    const before = Date.now();
    const res = await call(t.app, 'POST', '/enterprise/v1/invite_or_apply', { type: 1, phone: '13566660002' }, token);
    expect(res.status).toBe(200);
    const row = await t.app.db
      .selectFrom('enterprise_members')
      .select('invite_expires_at')
      .where('phone', '=', '13566660002')
      .executeTakeFirstOrThrow();
    const days = (Date.parse(row.invite_expires_at!) - before) / 86_400_000;
    expect(days).toBeGreaterThan(1.99);
    expect(days).toBeLessThan(2.01);
  });

  it('format templates come from its FORMAT_TEMPLATES_DIR', async () => {
    const list = await call(t.app, 'GET', '/misscut/v1/doc/template_types', undefined, token);
    expect(list.json.result.map((x: { id: number }) => x.id)).toEqual([41]);
  });

  it('the paragraph cache holds its CHECK_CACHE_ENTRIES', () => {
    expect(checkService(t.app).cache.maxEntries).toBe(17);
  });

  it('a PDF over its PDF_MAX_PAGES is refused', async () => {
    const pdf = makePdf([1, 2].map(() => ({ kind: 'text' as const, lines: ['一页'] })));
    const { payload, contentType } = form([{ name: 'file', filename: '两页.pdf', data: pdf }]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/misscut/v2/pdf_check/upload',
      headers: { ...CLIENT_HEADERS, authorization: `Bearer ${token}`, 'content-type': contentType },
      payload,
    });
    expect(res.json()).toMatchObject({ code: 400, msg_code: 'pdf.too_many_pages', msg_params: { pages: 2, max: 1 } });
  });

  it('AI writing is offered with its AI_URL', async () => {
    const res = await call(t.app, 'GET', '/gpt/v1/chat/function', undefined, token);
    expect(res.json.result.available).toBe(true);
  });

  it("a user's compare ceiling without a grant is its COMPARE_MAX_PAGES", async () => {
    const res = await call(t.app, 'GET', '/user/v1/get_user_right?user_right_type=262144', undefined, token);
    expect(res.json.result.disposable_num).toBe(7);
  });
});
