import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, SocketClient, type ServerProcess } from '../../server/bench/processes';
import { migrate, openDatabase, type Db } from '../../server/db';
import { addGrant } from '../../server/domain/rights/ledger';
import { issueToken } from '../../server/domain/accounts/tokens';
import { createUser } from '../../server/domain/accounts/users';
import { CLIENT_HEADERS } from './helpers';
import { PG_BIN, PgServer } from './pg-server';

const TYPO = '我们明天讨论这个问提，请大家准时参加。';

// Two server processes on a PostgreSQL of their own, which is restarted under them (as in an upgrade or a
// failover): both become ready again, their LISTEN connections come back, and a check submitted through one process
// still streams its results to a socket held by the other.
describe.skipIf(!PG_BIN)('PostgreSQL restarted under two server processes', () => {
  const server = new PgServer();
  const dirs: string[] = [];
  let url: string;
  let db: Db;
  let token: string;
  let a: ServerProcess;
  let b: ServerProcess;
  let socket: SocketClient;

  const serverEnv = () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-restart-'));
    dirs.push(dir);
    return {
      DATABASE_URL: url,
      DATA_DIR: dir,
      SPA_DIR: join(dir, 'no-spa'),
      CHECK_WORKERS: '1',
      DOC_WORKERS: '1',
      HEAVY_WORKERS: '1',
      INSTANCE_HEARTBEAT_MS: '500',
      INSTANCE_STALE_MS: '15000',
      CHECK_RATE_MAX: '0',
    };
  };
  const until = async (what: string, test: () => Promise<boolean>, ms = 60_000) => {
    const end = Date.now() + ms;
    while (!(await test().catch(() => false))) {
      if (Date.now() > end) {
        // what each process answered last, so a failure says which part did not come back
        const answers = [...lastAnswer.values()].join(' | ');
        throw new Error(`timed out waiting for ${what}; /ready answered: ${answers}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const lastAnswer = new Map<ServerProcess, string>();
  const ready = async (process: ServerProcess) => {
    const res = await fetch(`${process.base}/ready`).catch((error: Error) => error);
    if (res instanceof Error) {
      lastAnswer.set(process, res.message);
      return false;
    }
    lastAnswer.set(process, `${res.status} ${await res.text()}`);
    return res.status === 200;
  };

  beforeAll(async () => {
    url = await server.start();
    ({ db } = openDatabase({ dataDir: mkdtempSync(join(tmpdir(), 'wb-restart-db-')), databaseUrl: url }));
    await migrate(db, 'postgres');
    const user = await createUser(db, { phone: '13900000302', password: 'restart123' });
    await addGrant(db, user.uid, 1, 1_000_000, 'test:1');
    token = await issueToken(db, user.uid);
    await db.destroy();
    [a, b] = await Promise.all([startServer(serverEnv()), startServer(serverEnv())]);
    socket = new SocketClient(`ws://127.0.0.1:${a.port}/ws?token=${token}&endpoint=1`);
    await socket.open();
  }, 120_000);

  afterAll(async () => {
    socket?.close();
    await Promise.all([a?.stop(), b?.stop()]);
    server.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('comes back ready and carries a socket event across processes after the restart', async () => {
    await until('both processes to be ready', async () => (await ready(a)) && (await ready(b)));
    const before = socket.sessionId;
    server.restart();
    // the processes notice, reconnect their bus and give the socket's session a new id (messages may be lost)
    await until('both processes to be ready again', async () => (await ready(a)) && (await ready(b)));
    await socket.waitFor((m) => m.type === 3 && m.data?.session_id !== before, 30_000);
    expect(socket.sessionId).not.toBe(before);

    const res = await fetch(`${b.base}/misscut/v1/check_text`, {
      method: 'POST',
      headers: {
        ...CLIENT_HEADERS,
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        session: socket.sessionId,
      },
      body: JSON.stringify({ text: TYPO }),
    });
    const json = await res.json();
    expect(res.status, JSON.stringify(json)).toBe(200);
    await socket.waitDone(json.result.check_id);
    const issues = socket.messages
      .filter((m) => m.type === 2 && m.cmd === 2 && m.data?.check_id === json.result.check_id)
      .flatMap((m) => m.data.issues);
    expect(issues.some((i: { suggestions: string[] }) => i.suggestions.includes('题'))).toBe(true);
  }, 120_000);
});
