// /rules: the operators' text as headings and paragraphs, for everyone; an operator edits and saves it.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp, TEST_USER } from './helpers';
import { rulesBlocks } from '../../src/ui/screens/Rules';

afterEach(cleanup);

const ok = (result: unknown, msg = 'success') =>
  new Response(JSON.stringify({ code: 200, msg, result }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
const TEXT = '## 一、总则\n使用本服务即表示同意。\n第二行。\n\n## 二、账号\n请保管好密码。<b>不是标记</b>';

describe('/rules', () => {
  it('reads headings and paragraphs from the text', () => {
    expect(rulesBlocks(TEXT)).toEqual([
      { kind: 'heading', text: '一、总则' },
      { kind: 'paragraph', text: '使用本服务即表示同意。\n第二行。' },
      { kind: 'heading', text: '二、账号' },
      { kind: 'paragraph', text: '请保管好密码。<b>不是标记</b>' },
    ]);
  });

  it('shows the rules to a visitor, as text; no edit button', async () => {
    renderApp({
      path: '/rules',
      loggedIn: false,
      handlers: { 'GET /site/v1/rules': () => ok({ text: TEXT, updated_at: null, custom: false }) },
    });
    const body = await screen.findByTestId('rules-body');
    expect(
      within(body)
        .getAllByRole('heading')
        .map((h) => h.textContent),
    ).toEqual(['一、总则', '二、账号']);
    expect(body.textContent).toContain('<b>不是标记</b>');
    expect(body.querySelector('b')).toBeNull();
    expect(screen.queryByTestId('rules-edit')).toBeNull();
  });

  it('lets an operator edit and save them', async () => {
    let text = TEXT;
    const saved: unknown[] = [];
    renderApp({
      path: '/rules',
      user: { ...TEST_USER, role: 'root' },
      handlers: {
        'GET /site/v1/rules': () => ok({ text, updated_at: '2026-11-27T02:00:00.000Z', custom: true }),
        'PUT /admin/v1/rules': async (_r, request) => {
          const body = await request.json();
          saved.push(body);
          text = body.text;
          return ok(null, '用户规则已更新');
        },
      },
    });
    fireEvent.click(await screen.findByTestId('rules-edit'));
    const area = screen.getByTestId('rules-text');
    expect((area as HTMLTextAreaElement).value).toBe(TEXT);
    fireEvent.change(area, { target: { value: '## 新规则\n遵守法律。' } });
    fireEvent.click(screen.getByTestId('rules-save'));
    await waitFor(() => expect(saved).toEqual([{ text: '## 新规则\n遵守法律。' }]));
    const body = await screen.findByTestId('rules-body');
    await waitFor(() => expect(within(body).getByRole('heading').textContent).toBe('新规则'));
  });
});
