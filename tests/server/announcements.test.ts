// Announcements on the real server with real sockets: an operator publishes; a connected user gets it at once over
// the socket (type 4 cmd 1), another at their next connection, each exactly once; the notice list and reading;
// audiences (a team, an account role); sanitised HTML; refusals; withdrawal; the CLI's announcements reach
// connected users at the server's next heartbeat.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAnnouncement, type ServerMessage } from '../../openapi/socket-protocol';
import { runAdmin } from '../../server/cli/admin';
import { createTeam } from '../../server/domain/teams/teams';
import { ADMIN, call, login, register, startTestApp, type TestApp } from './helpers';
import { listen, SocketClient } from './proofread-support';

let t: TestApp;
let base: string;
let operator: string;
let online: string;
let away: string;
let member: string;
let onlineUid: number;

beforeAll(async () => {
  t = await startTestApp({ config: { instance: { heartbeatMs: 200, staleMs: 60_000 } } });
  base = await listen(t);
  operator = await login(t.app, ADMIN.phone, ADMIN.password);
  online = await register(t, '13599990001');
  away = await register(t, '13599990002');
  member = await register(t, '13599990003');
  onlineUid = (await call(t.app, 'GET', '/user/user_info', undefined, online)).json.result.uid;
}, 60_000);
afterAll(async () => t.close());

const publish = (body: Record<string, unknown>, token = operator) =>
  call(t.app, 'POST', '/admin/v1/announcements', body, token);
const notices = async (token: string) => (await call(t.app, 'GET', '/notice/v1/list', undefined, token)).json.result;
const announcements = (messages: ServerMessage[]) => messages.filter(isAnnouncement);

describe('announcements', () => {
  it('reach a connected user at once and another at their next connection, each exactly once', async () => {
    const socket = await SocketClient.open(base, online);
    const published = await publish({
      announcement_type: 2,
      display_mode: 1,
      text: '今晚 22:00 至 23:00 系统维护，期间暂停服务。',
      audience: 'all',
    });
    expect(published.status).toBe(200);
    expect(published.json.result.delivered).toBe(1);
    const id = published.json.result.id;
    expect(await socket.next()).toMatchObject({
      type: 4,
      cmd: 1,
      status: 200,
      data: { id, display_mode: 1, announcement_type: 2, text: '今晚 22:00 至 23:00 系统维护，期间暂停服务。' },
    });
    // the heartbeat's sweep finds nothing more to send
    expect(announcements(await socket.drain(600))).toEqual([]);
    await socket.close();

    const later = await SocketClient.open(base, away);
    expect(announcements(await later.drain(800)).map((m) => m.data.id)).toEqual([id]);
    await later.close();
    const again = await SocketClient.open(base, away);
    expect(announcements(await again.drain(800))).toEqual([]);
    await again.close();

    // the list keeps it until read; a popup has no end of its own
    const list = await notices(away);
    expect(list.unread).toBe(1);
    expect(list.list[0]).toMatchObject({ id, display_mode: 1, read: false });
    expect(list.list[0].time).toBeUndefined();
    const read = await call(t.app, 'POST', '/notice/v1/read', { ids: [id, 999_999] }, away);
    expect(read.json.result).toEqual({ count: 1 });
    expect(await notices(away)).toMatchObject({ unread: 0, list: [{ id, read: true }] });
  });

  it('a stored notice ends after 3 days; HTML is sanitised and gives the text', async () => {
    const before = Date.now();
    const html =
      '<p onclick="steal()">新功能：<b>AI 写作</b></p><script>alert(1)</script>' +
      '<a href="javascript:alert(2)">坏链接</a><a href="https://example.com/new">详情</a><img src=x onerror=y>' +
      '<xmp><img src=x onerror=alert(3)></xmp>';
    const published = await publish({ announcement_type: 4, display_mode: 0, html_text: html, audience: 'all' });
    expect(published.status).toBe(200);
    const notice = (await notices(online)).list.find((n: { id: number }) => n.id === published.json.result.id);
    expect(notice.html_text).toBe(
      '<p>新功能：<b>AI 写作</b></p><a rel="noopener noreferrer" target="_blank">坏链接</a>' +
        '<a href="https://example.com/new" rel="noopener noreferrer" target="_blank">详情</a>',
    );
    expect(notice.text).toBe('新功能：AI 写作\n坏链接详情');
    expect(notice.time).toBeGreaterThanOrEqual(before + 3 * 86_400_000 - 1000);
    expect(notice.time).toBeLessThanOrEqual(Date.now() + 3 * 86_400_000);
  });

  it('a team announcement reaches only the team; a role announcement only that role', async () => {
    const memberUid = (await call(t.app, 'GET', '/user/user_info', undefined, member)).json.result.uid;
    const team = await createTeam(t.app.db, {
      name: '公告测试团队',
      adminUid: memberUid,
      adminPhone: '13599990003',
      seats: 20,
    });
    const forTeam = (
      await publish({ announcement_type: 0, display_mode: 0, text: '团队通知', audience: 'team', enterprise_id: team })
    ).json.result.id;
    const forRoot = (
      await publish({ announcement_type: 3, display_mode: 0, text: '管理员须知', audience: 'role', role: 'root' })
    ).json.result.id;
    const ids = async (token: string) => (await notices(token)).list.map((n: { id: number }) => n.id);
    expect(await ids(member)).toContain(forTeam);
    expect(await ids(member)).not.toContain(forRoot);
    expect(await ids(online)).not.toContain(forTeam);
    expect(await ids(operator)).toContain(forRoot);
    // reading another's notice does nothing
    expect((await call(t.app, 'POST', '/notice/v1/read', { ids: [forTeam] }, online)).json.result).toEqual({
      count: 0,
    });
  });

  it('refuses non-operators and bad announcements; a withdrawn one goes from lists and deliveries', async () => {
    const plain = { announcement_type: 0, display_mode: 0, text: '通知', audience: 'all' };
    expect((await publish(plain, online)).json.msg_code).toBe('admin.operators_only');
    expect((await call(t.app, 'GET', '/admin/v1/announcements', undefined, online)).status).toBe(403);
    for (const [body, code] of [
      [{ ...plain, text: '   ' }, 'notice.empty'],
      [{ ...plain, text: undefined, html_text: '<script>x</script>' }, 'notice.empty'],
      [{ ...plain, audience: 'team' }, 'notice.audience'],
      [{ ...plain, audience: 'role' }, 'notice.audience'],
      [{ ...plain, expires_at: '2020-01-01T00:00:00Z' }, 'notice.expired'],
      [{ ...plain, announcement_type: 6 }, 'request.invalid'],
      [{ ...plain, display_mode: 2 }, 'request.invalid'],
    ] as const) {
      const refused = await publish(body);
      expect([refused.status, refused.json.msg_code], JSON.stringify(body)).toEqual([400, code]);
    }
    const id = (await publish({ ...plain, text: '将被撤回' })).json.result.id;
    expect((await call(t.app, 'DELETE', `/admin/v1/announcements/${id}`, undefined, operator)).status).toBe(200);
    const gone = await call(t.app, 'DELETE', `/admin/v1/announcements/${id}`, undefined, operator);
    expect([gone.status, gone.json.msg_code]).toEqual([404, 'notice.unknown']);
    expect((await notices(away)).list.map((n: { id: number }) => n.id)).not.toContain(id);
    const all = (await call(t.app, 'GET', '/admin/v1/announcements', undefined, operator)).json.result;
    expect(all.find((a: { id: number }) => a.id === id)).toMatchObject({ withdrawn_at: expect.any(String) });
    // the first announcement: delivered to the two who connected, read by one
    expect(all.at(-1)).toMatchObject({ delivered: 2, read: 1 });
  });

  it('an announcement from the CLI reaches a connected user at the next heartbeat', async () => {
    const socket = await SocketClient.open(base, online);
    await socket.drain(300);
    const lines: string[] = [];
    await runAdmin(['notice', 'publish', '--type', '1', '--mode', '1', '--text', '系统已升级'], t.app.db, (l) =>
      lines.push(l),
    );
    expect(lines[0]).toMatch(/^announcement \d+ published$/);
    const message = await socket.next(5000);
    expect(message).toMatchObject({ type: 4, cmd: 1, data: { text: '系统已升级', announcement_type: 1 } });
    await socket.close();
    lines.length = 0;
    await runAdmin(['notice', 'list'], t.app.db, (l) => lines.push(l));
    // (delivered counts every session the server keeps, connected or waiting for its client to come back)
    expect(lines[1]).toMatch(/^\d+\t1\t1\tall\t[1-9]\d*\t0\t-\t-\t系统已升级$/);
    expect(onlineUid).toBeGreaterThan(0);
  });
});
