import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, SocketClient, type ServerProcess } from '../../server/bench/processes';
import { migrate, openDatabase } from '../../server/db';
import { addGrant } from '../../server/domain/rights/ledger';
import { issueToken } from '../../server/domain/accounts/tokens';
import { createUser } from '../../server/domain/accounts/users';
import { CLIENT_HEADERS } from './helpers';
import { serverEntry } from '../../scripts/server-build.mjs';

/** Several seconds of checking for one checker worker. */
const longText = Array.from(
  { length: 4000 },
  (_, i) => `第${i + 1}条：各部门要认真落实会议精神，按期完成各项工作任务。`,
).join('\n');

// The server as `npm start` runs it (the bundle in dist/server under the supervisor, SQLite): killed with -9 in
// the middle of a charged check, it comes back by itself, and the check's characters are back in the account.
describe('crash recovery', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'wb-crash-'));
  let server: ServerProcess;
  let token: string;

  const highSpeedBalance = async () => {
    const res = await fetch(`${server.base}/user/v1/get_user_right?user_right_type=1`, {
      headers: { ...CLIENT_HEADERS, authorization: `Bearer ${token}` },
    });
    const json = await res.json();
    expect(res.status, JSON.stringify(json)).toBe(200);
    return json.result.disposable_num as number;
  };

  beforeAll(async () => {
    const { db, dialect } = openDatabase({ dataDir });
    await migrate(db, dialect);
    const user = await createUser(db, { phone: '13900000311', password: 'crash12345' });
    await addGrant(db, user.uid, 1, 2_000_000, 'test:1');
    await addGrant(db, user.uid, 32, 1_000_000, 'test:32');
    token = await issueToken(db, user.uid);
    await db.destroy();
    server = await startServer(
      { DATA_DIR: dataDir, SPA_DIR: join(dataDir, 'no-spa'), CHECK_WORKERS: '1', CHECK_RATE_MAX: '0' },
      60_000,
      true,
    );
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('runs the bundled server, whose bundled heavy workers do the work', async () => {
    const cmdline = readFileSync(`/proc/${server.serverPid()}/cmdline`, 'utf8').split('\0');
    expect(cmdline[1]).toBe(serverEntry());
    expect(cmdline[1]).toMatch(/dist\/server\/[0-9a-f]{16}\/server\.mjs$/);
    const res = await fetch(`${server.base}/misscut/doc_check/v1/html2doc/stream`, {
      method: 'POST',
      headers: { ...CLIENT_HEADERS, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ html: '<h1>标题</h1><p>正文一段。</p>', name: '测试' }),
    });
    expect(res.status).toBe(200);
    const docx = Buffer.from(await res.arrayBuffer());
    // a zip whose document part holds the text
    expect(docx.subarray(0, 2).toString()).toBe('PK');
    const { default: JSZip } = await import('jszip');
    const xml = await (await JSZip.loadAsync(docx)).file('word/document.xml')!.async('string');
    expect(xml).toContain('正文一段。');
  });

  it('restarts a killed server and refunds the check it was running, exactly', async () => {
    const before = await highSpeedBalance();
    const socket = new SocketClient(`ws://127.0.0.1:${server.port}/ws?token=${token}&endpoint=1`);
    await socket.open();
    const res = await fetch(`${server.base}/misscut/v1/check_text`, {
      method: 'POST',
      headers: {
        ...CLIENT_HEADERS,
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        session: socket.sessionId,
      },
      body: JSON.stringify({ text: longText }),
    });
    const json = await res.json();
    expect(res.status, JSON.stringify(json)).toBe(200);
    // results are flowing: the check is under way, and charged
    await socket.waitFor((m) => m.type === 2 && m.cmd === 2 && m.data?.check_id === json.result.check_id);
    expect(await highSpeedBalance()).toBeLessThan(before);
    socket.close();

    const pid = server.serverPid();
    expect(pid).not.toBeNull();
    process.kill(pid!, 'SIGKILL');
    // the supervisor says so and starts the server again
    const end = Date.now() + 60_000;
    while (
      server.serverPid() === pid ||
      !(await fetch(`${server.base}/health`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      if (Date.now() > end) throw new Error(`the server did not come back:\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(server.output()).toMatch(/server died \(signal SIGKILL\); restarting/);
    expect(await highSpeedBalance()).toBe(before);
  }, 120_000);
});
