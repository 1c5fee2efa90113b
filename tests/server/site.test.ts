// The site's own texts on the real server. The guide: the built-in five slides with a picture in each theme, shown
// to a user until they finish or skip its version, the operators' edits (API and CLI) that show a new version
// again, and refusals. The user rules: public, built in until the operators set them (API and CLI).
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../server/cli/admin';
import { ADMIN, call, login, register, startTestApp, type TestApp } from './helpers';

let t: TestApp;
let user: string;
let operator: string;

beforeAll(async () => {
  t = await startTestApp();
  user = await register(t, '13588880001');
  operator = await login(t.app, ADMIN.phone, ADMIN.password);
}, 60_000);
afterAll(async () => t.close());

const show = async (token?: string) => (await call(t.app, 'GET', '/wizard/v1/show', undefined, token)).json.result;

describe('the guide', () => {
  it('is the spec five slides by default, each with a picture of this product in both themes', async () => {
    const guide = await show();
    expect(guide.ver).toBe('001.001.004');
    expect(guide.show).toBe(true);
    expect(guide.slides.map((s: { id: string }) => s.id)).toEqual(['setup', 'text', 'link', 'ai', 'pdf']);
    for (const slide of guide.slides) {
      expect(slide.title).toBeTruthy();
      expect(slide.bullets.length).toBeGreaterThan(0);
      for (const theme of ['light', 'dark'] as const) {
        const path = slide.images[theme];
        expect(path).toMatch(/^\/workbench\/guide\/[a-z]+-(light|dark)\.jpg$/);
        // the SPA serves public/ under /workbench/
        expect(existsSync(join('public', path.replace('/workbench/', ''))), path).toBe(true);
      }
    }
  });

  it('shows once to a user: skipped or finished, not again; a stale token is just anonymous', async () => {
    expect((await show(user)).show).toBe(true);
    expect((await show('no-such-token')).show).toBe(true);
    const skipped = await call(t.app, 'GET', '/wizard/v1/access?type=2&ver=001.001.004', undefined, user);
    expect(skipped.status).toBe(200);
    expect((await show(user)).show).toBe(false);
    // finishing later changes nothing
    expect((await call(t.app, 'GET', '/wizard/v1/access?type=1&ver=001.001.004', undefined, user)).status).toBe(200);
    expect((await show(user)).show).toBe(false);
    const anonymous = await call(t.app, 'GET', '/wizard/v1/access?type=1&ver=001.001.004');
    expect(anonymous.status).toBe(401);
    for (const query of ['type=3&ver=001.001.004', 'type=1&ver=1.1.4', 'type=1']) {
      const bad = await call(t.app, 'GET', `/wizard/v1/access?${query}`, undefined, user);
      expect(bad.status, query).toBe(400);
    }
  });

  it('operators set a new version, which shows again; bad guides are refused; reset goes back', async () => {
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { ver: '001.001.005', slides: [{ id: 'a', title: 'T', bullets: [] }] }],
      ['DELETE', undefined],
    ] as const) {
      const refused = await call(t.app, method, '/admin/v1/guide', body, user);
      expect([refused.status, refused.json.msg_code], method).toEqual([403, 'admin.operators_only']);
    }
    expect((await call(t.app, 'GET', '/admin/v1/guide', undefined, operator)).json.result).toMatchObject({
      ver: '001.001.004',
      custom: false,
    });
    const slides = [
      {
        id: 'welcome',
        title: '新版本上线',
        bullets: ['AI 写作可以起草公文'],
        images: { light: '/workbench/guide/ai-light.jpg' },
      },
      { id: 'video', title: '视频教程', bullets: [], video: '/media/guide.mp4' },
    ];
    const set = await call(t.app, 'PUT', '/admin/v1/guide', { ver: '001.001.005', slides }, operator);
    expect(set.status).toBe(200);
    const guide = await show(user);
    expect(guide).toMatchObject({ ver: '001.001.005', show: true });
    expect(guide.slides).toEqual(slides);
    for (const [bad, problem] of [
      [[{ id: 'x', title: 'T', bullets: [], video: 'javascript:alert(1)' }], 'slide 1: video'],
      [[{ id: 'x', title: 'T', bullets: [], video: 'https://example.com/a.mp4' }], 'slide 1: video'],
      [[{ id: 'x', title: 'T', bullets: [], images: { dark: '//evil.example/a.png' } }], 'slide 1: images'],
      [
        [
          { id: 'x', title: 'T', bullets: [] },
          { id: 'x', title: 'U', bullets: [] },
        ],
        'slide 2: id',
      ],
      [[{ id: 'x', title: ' ', bullets: [] }], 'slide 1: title'],
    ] as const) {
      const refused = await call(t.app, 'PUT', '/admin/v1/guide', { ver: '001.001.006', slides: bad }, operator);
      expect([refused.status, refused.json.msg_code, refused.json.msg], problem).toEqual([
        400,
        'guide.invalid',
        `引导内容不正确：${problem}`,
      ]);
    }
    expect((await show(user)).ver).toBe('001.001.005');

    expect((await call(t.app, 'DELETE', '/admin/v1/guide', undefined, operator)).status).toBe(200);
    // the built-in version again: this user skipped it already
    expect(await show(user)).toMatchObject({ ver: '001.001.004', show: false });
  });

  it('the admin CLI prints, sets and resets the guide', async () => {
    const lines: string[] = [];
    await runAdmin(['guide', 'show'], t.app.db, (l) => lines.push(l));
    const printed = JSON.parse(lines.join('\n'));
    expect(printed.ver).toBe('001.001.004');
    const dir = mkdtempSync(join(tmpdir(), 'guide-'));
    const file = join(dir, 'guide.json');
    writeFileSync(file, JSON.stringify({ ...printed, ver: '002.000.000' }));
    lines.length = 0;
    await runAdmin(['guide', 'set', '--file', file], t.app.db, (l) => lines.push(l));
    expect(lines).toEqual(['guide 002.000.000: 5 slides']);
    expect((await show(user)).show).toBe(true);
    writeFileSync(file, JSON.stringify({ ver: 'two', slides: [] }));
    await expect(runAdmin(['guide', 'set', '--file', file], t.app.db, () => {})).rejects.toThrow(/ver must look like/);
    lines.length = 0;
    await runAdmin(['guide', 'reset'], t.app.db, (l) => lines.push(l));
    expect(lines).toEqual(['guide: the built-in one (001.001.004)']);
  });
});

describe('the user rules', () => {
  it('are public and built in; operators replace them; others and empty texts are refused', async () => {
    const built = await call(t.app, 'GET', '/site/v1/rules');
    expect(built.status).toBe(200);
    expect(built.json.result).toMatchObject({ custom: false, updated_at: null });
    expect(built.json.result.text).toMatch(/^## 一、总则\n/);
    const text = '## 规则\r\n第一条：好好写字。\r\n\r\n第二条：认真校对。';
    expect((await call(t.app, 'PUT', '/admin/v1/rules', { text }, user)).json.msg_code).toBe('admin.operators_only');
    for (const bad of ['', '   \n  ', 'x'.repeat(50_001)]) {
      const refused = await call(t.app, 'PUT', '/admin/v1/rules', { text: bad }, operator);
      expect(refused.status, JSON.stringify(bad.slice(0, 5))).toBe(400);
    }
    expect((await call(t.app, 'PUT', '/admin/v1/rules', { text }, operator)).status).toBe(200);
    const set = (await call(t.app, 'GET', '/site/v1/rules')).json.result;
    expect(set).toMatchObject({ custom: true, text: '## 规则\n第一条：好好写字。\n\n第二条：认真校对。' });
    expect(Date.parse(set.updated_at)).toBeGreaterThan(0);

    const lines: string[] = [];
    await runAdmin(['rules', 'reset'], t.app.db, (l) => lines.push(l));
    expect((await call(t.app, 'GET', '/site/v1/rules')).json.result.custom).toBe(false);
    const dir = mkdtempSync(join(tmpdir(), 'rules-'));
    writeFileSync(join(dir, 'rules.txt'), '## 本站规则\n遵守法律。\n');
    await runAdmin(['rules', 'set', '--file', join(dir, 'rules.txt')], t.app.db, (l) => lines.push(l));
    await runAdmin(['rules', 'show'], t.app.db, (l) => lines.push(l));
    expect(lines).toEqual(['rules: the built-in ones', 'rules: 13 characters', '## 本站规则\n遵守法律。']);
  });
});
