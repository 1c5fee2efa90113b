import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, SocketClient, type ServerProcess } from '../../server/bench/processes';
import { migrate, openDatabase, type Db } from '../../server/db';

import { addGrant, rightView } from '../../server/domain/rights/ledger';
import { issueToken } from '../../server/domain/accounts/tokens';
import { createUser } from '../../server/domain/accounts/users';
import { CLIENT_HEADERS, form } from './helpers';
import { Cluster, PG_BIN } from './pg-cluster';
import { REDIS_BIN, startRedis } from './redis-server';

const TYPO = '我们明天讨论这个问提，请大家准时参加。';
/** Plenty of ordinary text: several seconds of checking for one checker worker. */
const longText = (sentences: number) =>
  Array.from(
    { length: sentences },
    (_, i) => `第${i + 1}条：各部门要认真落实会议精神，按期完成各项工作任务。${i % 50 === 0 ? TYPO : ''}`,
  ).join('\n');

if (!REDIS_BIN) console.warn('Redis bus tests skipped: install the Debian package `redis-server`.');

// Two real server processes on one PostgreSQL, as a site grows past one process: socket messages cross
// processes, rate limits are shared, and a process killed mid-job loses nothing and charges nothing twice. The
// processes talk through PostgreSQL's LISTEN/NOTIFY, or through Redis pub/sub when REDIS_URL is set (the kill
// tests, which do not depend on the bus, run once).
describe.skipIf(!PG_BIN)('two server processes on one PostgreSQL', () => clusterSuite('postgres'));
describe.skipIf(!PG_BIN || !REDIS_BIN)('two server processes on one PostgreSQL, with Redis', () =>
  clusterSuite('redis'),
);

function clusterSuite(bus: 'postgres' | 'redis') {
  const cluster = new Cluster();
  let redis: { url: string; stop(): Promise<void> } | null = null;
  const dirs: string[] = [];
  let url: string;
  let db: Db;
  let uid: number;
  let token: string;
  let a: ServerProcess;
  let b: ServerProcess;
  let socket: SocketClient;

  const serverEnv = () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-cluster-'));
    dirs.push(dir);
    return {
      DATABASE_URL: url,
      ...(redis ? { REDIS_URL: redis.url } : {}),
      DATA_DIR: dir,
      SPA_DIR: join(dir, 'no-spa'),
      CHECK_WORKERS: '1',
      DOC_WORKERS: '1',
      HEAVY_WORKERS: '1',
      // short, for the test's sake; long enough that a process busy starting up is not taken for dead
      INSTANCE_HEARTBEAT_MS: '500',
      INSTANCE_STALE_MS: '5000',
      LT_ANON_RATE_MAX: '4',
      CHECK_RATE_MAX: '0',
    };
  };
  const headers = (extra: Record<string, string> = {}) => ({
    ...CLIENT_HEADERS,
    authorization: `Bearer ${token}`,
    ...extra,
  });
  const balance = async (type: number) => (await rightView(db, uid, type)).disposable_num;
  const until = async (what: string, test: () => Promise<boolean>, ms = 60_000) => {
    const end = Date.now() + ms;
    while (!(await test())) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  beforeAll(async () => {
    url = await cluster.start();
    if (bus === 'redis') redis = await startRedis();
    ({ db } = openDatabase({ dataDir: mkdtempSync(join(tmpdir(), 'wb-cluster-db-')), databaseUrl: url }));
    await migrate(db, 'postgres');
    const user = await createUser(db, { phone: '13900000301', password: 'cluster123' });
    uid = user.uid;
    await addGrant(db, uid, 1, 5_000_000, 'test:1');
    await addGrant(db, uid, 32, 1_000_000, 'test:32');
    await addGrant(db, uid, 64, 1_000_000, 'test:64');
    token = await issueToken(db, uid);
    [a, b] = await Promise.all([startServer(serverEnv()), startServer(serverEnv())]);
    socket = new SocketClient(`ws://127.0.0.1:${a.port}/ws?token=${token}&endpoint=1`);
    await socket.open();
  }, 120_000);

  afterAll(async () => {
    socket?.close();
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.destroy();
    await cluster.stop();
    await redis?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('delivers to a socket on A the results of a check submitted through B', async () => {
    const res = await fetch(`${b.base}/misscut/v1/check_text`, {
      method: 'POST',
      headers: headers({ 'content-type': 'application/json', session: socket.sessionId }),
      body: JSON.stringify({ text: TYPO }),
    });
    const json = await res.json();
    expect(res.status, JSON.stringify(json)).toBe(200);
    const done = await socket.waitDone(json.result.check_id);
    const issues = socket.messages
      .filter((m) => m.type === 2 && m.cmd === 2 && m.data?.check_id === json.result.check_id)
      .flatMap((m) => m.data.issues);
    expect(done.data.done).toBe(true);
    expect(issues.some((i: { original: string; suggestions: string[] }) => i.suggestions.includes('题'))).toBe(true);
    // a session that exists nowhere is refused by either process
    const unknown = await fetch(`${b.base}/misscut/v1/check_text`, {
      method: 'POST',
      headers: headers({ 'content-type': 'application/json', session: 'no-such-session' }),
      body: JSON.stringify({ text: TYPO }),
    });
    expect(unknown.status).toBe(400);
  }, 60_000);

  it('shares rate limits between the processes', async () => {
    const anonymous = (server: ServerProcess) =>
      fetch(`${server.base}/v2/check`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'text=%E6%B5%8B%E8%AF%95&language=zh-CN',
      });
    const statuses = [];
    for (const server of [a, b, a, b]) statuses.push((await anonymous(server)).status);
    expect(statuses).not.toContain(429);
    // each process alone has seen two: only a shared count reaches the limit of four
    expect((await anonymous(b)).status).toBe(429);
    expect((await anonymous(a)).status).toBe(429);
  });

  if (bus === 'redis') {
    it('carries the events over Redis, both processes subscribed', async () => {
      const client = new Redis(redis!.url);
      const [, subscribers] = (await client.pubsub('NUMSUB', 'workbench_events')) as [string, number];
      await client.quit();
      expect(Number(subscribers)).toBe(2);
    });
  }

  // the kill tests do not depend on the bus: they run once
  if (bus === 'redis') return;

  it('refunds a text check whose process is killed mid-check, exactly once', async () => {
    const before = await balance(1);
    const res = await fetch(`${b.base}/misscut/v1/check_text`, {
      method: 'POST',
      headers: headers({ 'content-type': 'application/json', session: socket.sessionId }),
      body: JSON.stringify({ text: longText(4000) }),
    });
    const json = await res.json();
    expect(res.status, JSON.stringify(json)).toBe(200);
    await b.kill();
    expect(await balance(1)).toBeLessThan(before);
    // A notices B is gone and refunds the reservation
    await until('the reservation to be released', async () => {
      const rows = await db.selectFrom('check_reservations').select('check_id').execute();
      return rows.length === 0;
    });
    expect(await balance(1)).toBe(before);
    // what was taken and what was given back under the check's id add up to nothing
    const net = await sql<{
      total: string;
    }>`SELECT COALESCE(SUM(num), 0) AS total FROM right_records WHERE ref = ${json.result.check_id}`.execute(db);
    expect(Number(net.rows[0].total)).toBe(0);
    b = await startServer(serverEnv());
  }, 120_000);

  it('lets the other process finish a document job whose process was killed, charging the upload once', async () => {
    const uploadsBefore = await balance(256);
    const { payload, contentType } = form([{ name: 'file', filename: '长文.txt', data: Buffer.from(longText(1500)) }]);
    const res = await fetch(`${b.base}/misscut/document/v1/upload`, {
      method: 'POST',
      headers: headers({ 'content-type': contentType }),
      body: payload,
    });
    const json = await res.json();
    expect(res.status, JSON.stringify(json)).toBe(200);
    const id = json.result.id as number;
    const row = () => db.selectFrom('documents').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const job = () =>
      db.selectFrom('jobs').selectAll().where('kind', '=', 'document').where('ref', '=', id).executeTakeFirstOrThrow();
    await until('the job to be running', async () => {
      const r = await row();
      return r.status === 'running' && (await job()).owner !== null && r.progress > 5;
    });
    const owner = (await job()).owner;
    const ownerIds = await db.selectFrom('server_instances').select('id').execute();
    expect(ownerIds.map((r) => r.id)).toContain(owner);
    // kill whichever process holds the job (b was started last: its instance row is the newest); the other takes over
    const instances = await db.selectFrom('server_instances').select('id').orderBy('started_at').execute();
    const [victim, survivor] = owner === instances[instances.length - 1].id ? [b, a] : [a, b];
    await victim.kill();
    await until('the job to be done by the other process', async () => (await row()).status === 'done', 90_000);
    const done = await row();
    expect(await job()).toMatchObject({ state: 'done', owner: null, charge_state: 'committed', attempts: 2 });
    expect(JSON.parse(done.issues ?? '[]').some((i: { suggestions: string[] }) => i.suggestions.includes('题'))).toBe(
      true,
    );
    expect(await balance(256)).toBe(uploadsBefore - 1);
    // the survivor still answers, and the victim can come back
    expect((await fetch(`${survivor.base}/health`)).ok).toBe(true);
    if (victim === a) a = await startServer(serverEnv());
    else b = await startServer(serverEnv());
  }, 180_000);
}
