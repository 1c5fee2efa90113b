/**
 * Server benchmark (`npm run bench:server`). Loopback only, bounded in time.
 *
 *   npx tsx server/bench/run.ts [--seconds 60] [--users 50] [--runs 30] [--big 100000] [--skip-big]
 *                               [--heavy 8] [--cluster-seconds 20] [--cluster-users 20] [--skip-cluster]
 *                               [--listeners 1000]
 *
 * Starts real server processes (`server/server.ts`) on 127.0.0.1 with temporary data, creates the users directly
 * in their database, then measures over real HTTP + WebSocket:
 *  1. one user, 1,000-character texts: time from POST check_text to the `done` result, p50 / p95;
 *  2. N concurrent users (default 50), each checking 500-character texts back to back for --seconds:
 *     throughput, p50 / p95 latency, error count;
 *  3. one 100,000-character text fully streamed, while /health is called every 50 ms;
 *  4. /health every 20 ms while 8 heavy document jobs (doc2html and format checks of a 5 MB .docx) run at once:
 *     p50 / p99 / max (goal: p99 ≤ 100 ms — heavy work runs in the worker pool, never on the event loop);
 *  5. with PostgreSQL (Debian's initdb, as the tests use): checks per second with one server process, then with two
 *     on the same database, each user's socket on one process and its checks submitted through the other.
 *  6. an announcement published by an operator to --listeners connected users (default 1,000, one socket each):
 *     time until the publish call answers and until the last socket has it (fan-out), p50 / p95 per socket.
 * Texts are distinct per check (no cache hits). CHECK_WORKERS is passed through to the servers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Document, Packer, Paragraph, TextRun } from 'docx';
import { Cluster, PG_BIN } from '../../tests/server/pg-cluster';
import { migrate, openDatabase } from '../db';
import { addGrant } from '../services/rights';
import { issueToken } from '../services/tokens';
import { createUser } from '../services/users';
import { hashPassword } from '../services/passwords';
import { insertUser } from '../db/repos/users';
import { startServer, SocketClient, type ServerProcess } from './processes';
import { benchOption, benchSentences } from './support';

const args = process.argv.slice(2);
const opt = benchOption;
const SECONDS = opt('seconds', 60);
const USERS = opt('users', 50);
const RUNS = opt('runs', 30);
const BIG = opt('big', 100_000);
const HEAVY = opt('heavy', 8);
const LISTENERS = opt('listeners', 1000);
const CLUSTER_SECONDS = opt('cluster-seconds', 20);
const CLUSTER_USERS = opt('cluster-users', 20);
const SKIP_BIG = args.includes('--skip-big');
const SKIP_CLUSTER = args.includes('--skip-cluster');

const SENTENCES = benchSentences();
let serial = 0;
let seed = 12345;
const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
/**
 * About `chars` characters in paragraphs of ~120: sentences drawn at random, each paragraph numbered, so no
 * two paragraphs are the same (no cache hits anywhere).
 */
function makeText(chars: number): string {
  const paragraphs: string[] = [];
  let length = 0;
  while (length < chars) {
    let para = `${++serial}、`;
    while (para.length < 120) para += SENTENCES[Math.floor(rand() * SENTENCES.length)];
    paragraphs.push(para);
    length += para.length + 1;
  }
  return paragraphs.join('\n').slice(0, chars);
}

const pct = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const ms = (v: number) => `${v.toFixed(0)} ms`;
const headers = (token: string, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${token}`,
  cid: 'bench',
  endpoint: '1',
  ...extra,
});

/** Users with plenty of characters, straight into the database the servers will open. */
async function makeUsers(count: number, storage: { dataDir: string; databaseUrl?: string }): Promise<string[]> {
  const { db, dialect } = openDatabase(storage);
  await migrate(db, dialect);
  const tokens: string[] = [];
  for (let n = 0; n < count; n++) {
    const user = await createUser(db, { phone: `1770000${String(n).padStart(4, '0')}`, password: 'bench123456' });
    await addGrant(db, user.uid, 1, 100_000_000, 'bench:1');
    await addGrant(db, user.uid, 32, 1_000_000, 'bench:32');
    tokens.push(await issueToken(db, user.uid));
  }
  await db.destroy();
  return tokens;
}

/** Time from POST check_text (through `submit`) to the `done` result on `socket`. */
async function check(submit: ServerProcess, socket: SocketClient, token: string, text: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${submit.base}/misscut/v1/check_text`, {
    method: 'POST',
    headers: headers(token, { 'content-type': 'application/json', session: socket.sessionId }),
    body: JSON.stringify({ text }),
  });
  const json = (await res.json()) as { code: number; msg: string; result: { check_id: string } | null };
  if (res.status !== 200 || !json.result) throw new Error(`check_text ${res.status}: ${json.msg}`);
  await socket.waitDone(json.result.check_id, 120_000);
  // a long run keeps only what it still needs
  socket.messages = socket.messages.filter((m) => m.type !== 2);
  return performance.now() - t0;
}

/** `users` checkers back to back for `seconds`: user u's socket on sockets[u], its checks through submit(u). */
async function load(
  seconds: number,
  users: number,
  tokens: string[],
  sockets: SocketClient[],
  submit: (u: number) => ServerProcess,
) {
  const latencies: number[] = [];
  let errors = 0;
  let chars = 0;
  const deadline = performance.now() + seconds * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: users }, async (_, u) => {
      while (performance.now() < deadline) {
        const text = makeText(500);
        try {
          latencies.push(await check(submit(u), sockets[u], tokens[u], text));
          chars += text.length;
        } catch (error) {
          errors++;
          if (errors <= 3) console.error(String(error));
        }
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  return { latencies, errors, chars, elapsed, perSecond: latencies.length / elapsed };
}

async function openSockets(servers: ServerProcess[], tokens: string[]): Promise<SocketClient[]> {
  const sockets: SocketClient[] = [];
  for (let u = 0; u < tokens.length; u++) {
    const server = servers[u % servers.length];
    const s = new SocketClient(`ws://127.0.0.1:${server.port}/ws?token=${tokens[u]}&endpoint=1`);
    await s.open();
    sockets.push(s);
  }
  return sockets;
}

/** Calls /health every `everyMs` until stopped; `stop` gives each call's answer time. */
function probeHealth(server: ServerProcess, everyMs: number): { stop(): Promise<number[]> } {
  const times: number[] = [];
  let probing = true;
  const loop = (async () => {
    while (probing) {
      const p0 = performance.now();
      await fetch(`${server.base}/health`);
      times.push(performance.now() - p0);
      await new Promise((res) => setTimeout(res, everyMs));
    }
  })();
  return {
    async stop() {
      probing = false;
      await loop;
      return times;
    },
  };
}

/** A .docx of about `paragraphs` × 120 characters of varied text. */
async function makeDocx(paragraphs: number): Promise<Buffer> {
  const children = Array.from({ length: paragraphs }, (_, i) => {
    let text = `${i + 1}．`;
    while (text.length < 120) text += SENTENCES[Math.floor(rand() * SENTENCES.length)];
    return new Paragraph({ children: [new TextRun(text)] });
  });
  return Packer.toBuffer(new Document({ sections: [{ children }] }));
}

/**
 * `count` accounts that only listen, and an operator: inserted directly with one password hash between them (a
 * hash per account would take minutes and measures nothing here).
 */
async function makeListeners(count: number, storage: { dataDir: string }) {
  const { db, dialect } = openDatabase(storage);
  await migrate(db, dialect);
  const hash = await hashPassword('bench123456');
  const insert = async (phone: string, role: 'free' | 'root') => {
    const row = await insertUser(db, {
      phone,
      login_id: null,
      name: phone,
      role,
      user_identity: 0,
      enterprise_id: null,
      password_hash: hash,
      created_at: new Date().toISOString(),
      closed_at: null,
    });
    return issueToken(db, Number(row.uid));
  };
  const operator = await insert('17900000000', 'root');
  const tokens: string[] = [];
  for (let n = 0; n < count; n++) tokens.push(await insert(`178${String(n).padStart(8, '0')}`, 'free'));
  await db.destroy();
  return { operator, tokens };
}

/** 6. An announcement to `listeners.tokens.length` connected users: the publish call and the fan-out. */
async function announcementFanOut(server: ServerProcess, listeners: { operator: string; tokens: string[] }) {
  const sockets = await openSockets([server], listeners.tokens);
  const arrived: number[] = [];
  let t0 = 0;
  const all = Promise.all(
    sockets.map(
      (s) =>
        new Promise<void>((resolve) => {
          s.ws.on('message', (raw) => {
            const m = JSON.parse(raw.toString());
            if (m.type !== 4 || m.cmd !== 1) return;
            arrived.push(performance.now() - t0);
            resolve();
          });
        }),
    ),
  );
  t0 = performance.now();
  const res = await fetch(`${server.base}/admin/v1/announcements`, {
    method: 'POST',
    headers: headers(listeners.operator, { 'content-type': 'application/json' }),
    body: JSON.stringify({ announcement_type: 1, display_mode: 1, text: '系统将于今晚升级', audience: 'all' }),
  });
  const answered = performance.now() - t0;
  const json = (await res.json()) as { result: { delivered: number } | null; msg: string };
  if (res.status !== 200 || !json.result) throw new Error(`publish ${res.status}: ${json.msg}`);
  const timeout = new Promise<void>((_, reject) => setTimeout(() => reject(new Error('fan-out timed out')), 60_000));
  await Promise.race([all, timeout]);
  console.log(
    `\n6) an announcement to ${sockets.length.toLocaleString('en')} connected users: publish answered in ` +
      `${ms(answered)} (delivered ${json.result.delivered}); the last socket had it after ` +
      `${ms(Math.max(...arrived))}; per socket p50 ${ms(pct(arrived, 50))}, p95 ${ms(pct(arrived, 95))}`,
  );
  for (const s of sockets) s.close();
}

async function singleProcess(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'wb-bench-'));
  const tokens = await makeUsers(USERS + 1, { dataDir });
  const listeners = await makeListeners(LISTENERS, { dataDir });
  const server = await startServer({ DATA_DIR: dataDir, SPA_DIR: join(dataDir, 'no-spa'), CHECK_RATE_MAX: '0' });
  try {
    const sockets = await openSockets([server], tokens);
    const w0 = performance.now();
    await check(server, sockets[0], tokens[0], makeText(200));
    console.log(`server up; first check answered ${ms(performance.now() - w0)} after /health`);
    for (let i = 0; i < 4; i++) await check(server, sockets[0], tokens[0], makeText(1000));

    // 1. single user, 1,000 characters
    const single: number[] = [];
    for (let i = 0; i < RUNS; i++) single.push(await check(server, sockets[0], tokens[0], makeText(1000)));
    console.log(
      `\n1) 1,000-character text, one user, ${RUNS} runs: p50 ${ms(pct(single, 50))}, p95 ${ms(pct(single, 95))}, ` +
        `max ${ms(Math.max(...single))}`,
    );

    // 2. concurrent users
    const r = await load(SECONDS, USERS, tokens.slice(1), sockets.slice(1), () => server);
    console.log(
      `\n2) ${USERS} concurrent users, 500-character texts, ${r.elapsed.toFixed(1)} s: ${r.latencies.length} checks, ` +
        `${r.perSecond.toFixed(1)} checks/s (${Math.round(r.chars / r.elapsed)} characters/s), ` +
        `p50 ${ms(pct(r.latencies, 50))}, p95 ${ms(pct(r.latencies, 95))}, errors ${r.errors}`,
    );

    // 3. one big text, with /health probes
    if (!SKIP_BIG) {
      const probe = probeHealth(server, 50);
      const big = makeText(BIG);
      const took = await check(server, sockets[0], tokens[0], big);
      const probes = await probe.stop();
      console.log(
        `\n3) ${big.length.toLocaleString('en')}-character text fully streamed in ${ms(took)} ` +
          `(${Math.round(big.length / (took / 1000))} characters/s); /health during it: ${probes.length} calls, ` +
          `p50 ${ms(pct(probes, 50))}, max ${ms(Math.max(...probes))}`,
      );
    }

    // 4. /health while heavy document jobs run
    const docx = await makeDocx(40_000);
    const probe = probeHealth(server, 20);
    const h0 = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: HEAVY }, async (_, i) => {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(docx)]), 'bench.docx');
        const url = i % 2 ? '/misscut/v1/doc/format_check' : '/misscut/doc_check/v1/doc2html';
        const res = await fetch(`${server.base}${url}`, { method: 'POST', headers: headers(tokens[0]), body: form });
        await res.arrayBuffer();
        return res.status;
      }),
    );
    const heavyMs = performance.now() - h0;
    const probes = await probe.stop();
    const p99 = pct(probes, 99);
    console.log(
      `\n4) ${HEAVY} heavy document jobs at once (doc2html and format checks of a ` +
        `${(docx.length / 1e6).toFixed(1)} MB ` +
        `.docx; answers ${[...new Set(statuses)].join('/')}) in ${ms(heavyMs)}; /health during them: ` +
        `${probes.length} calls, p50 ${ms(pct(probes, 50))}, p99 ${ms(p99)} (goal ≤ 100 ms: ` +
        `${p99 <= 100 ? 'met' : 'NOT met'}), max ${ms(Math.max(...probes))}`,
    );
    for (const s of sockets) s.close();

    // 6. announcement fan-out
    await announcementFanOut(server, listeners);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function processesOnPostgres(): Promise<void> {
  if (!PG_BIN) {
    console.log('\n5) skipped: PostgreSQL is not installed (apt-get install postgresql)');
    return;
  }
  const cluster = new Cluster();
  const dirs: string[] = [];
  const env = (databaseUrl: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-bench-pg-'));
    dirs.push(dir);
    return { DATABASE_URL: databaseUrl, DATA_DIR: dir, SPA_DIR: join(dir, 'no-spa'), CHECK_RATE_MAX: '0' };
  };
  try {
    const url = await cluster.start();
    const tokens = await makeUsers(CLUSTER_USERS, {
      dataDir: mkdtempSync(join(tmpdir(), 'wb-bench-pg-')),
      databaseUrl: url,
    });
    const results: string[] = [];
    for (const count of [1, 2]) {
      // the same number of checker threads in all: the machine's cores, shared by the processes
      const workers = String(Math.max(1, Math.floor(Math.min(4, availableParallelism()) / count)));
      const servers = await Promise.all(
        Array.from({ length: count }, () => startServer({ ...env(url), CHECK_WORKERS: workers })),
      );
      try {
        const sockets = await openSockets(servers, tokens);
        // warm-up: each process's checker has its lexicons loaded
        for (let u = 0; u < count; u++) await check(servers[u], sockets[u], tokens[u], makeText(200));
        // with two processes each check is submitted through the process that does not hold the user's socket
        const r = await load(CLUSTER_SECONDS, CLUSTER_USERS, tokens, sockets, (u) => servers[(u + 1) % count]);
        results.push(
          `${count} process${count > 1 ? 'es' : ''} (${workers} checker thread${workers === '1' ? '' : 's'} each): ` +
            `${r.perSecond.toFixed(1)} checks/s ` +
            `(${Math.round(r.chars / r.elapsed)} characters/s), p95 ${ms(pct(r.latencies, 95))}, errors ${r.errors}`,
        );
        for (const s of sockets) s.close();
      } finally {
        await Promise.all(servers.map((s) => s.stop()));
      }
    }
    console.log(
      `\n5) PostgreSQL, ${CLUSTER_USERS} users for ${CLUSTER_SECONDS} s each, 500-character texts:\n   ` +
        results.join('\n   '),
    );
  } finally {
    cluster.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const hardLimit = setTimeout(
    () => {
      console.error('bench: time limit reached');
      process.exit(2);
    },
    (SECONDS + 2 * CLUSTER_SECONDS + 600) * 1000,
  );
  hardLimit.unref();
  await singleProcess();
  if (!SKIP_CLUSTER) await processesOnPostgres();
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
