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
 * Before 2, the server against the engine alone on the same cores (0): the engine in as many threads as the server
 * has checker workers, checking the units of 1,000-character texts back to back (its limit: checks/s and CPU per
 * check), then the server with 8 and with 32 clients checking such texts back to back (checks/s, its share of the
 * engine's limit, the server process's CPU per check against the engine's); during 2 the server's RSS is sampled
 * (peak) and read again a minute after. Each figure with its goal. `--profile DIR` runs the single server under
 * `--cpu-prof` (profiles in DIR); `--only-engine-ratio` stops after 0 and 2.
 * Texts are distinct per check (no cache hits). CHECK_WORKERS is passed through to the servers.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Document, Packer, Paragraph, TextRun } from 'docx';
import { PgDatabase, PG_BIN } from '../../tests/server/pg-server';
import { loadConfig } from '../config';
import { migrate, openDatabase } from '../db';
import { addGrant } from '../domain/rights/ledger';
import { issueToken } from '../domain/accounts/tokens';
import { createUser } from '../domain/accounts/users';
import { hashPassword } from '../domain/accounts/passwords';
import { insertUser } from '../db/repos/users';
import { splitUnits } from '../workers/checker/jobs';
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
const ENGINE_SECONDS = opt('engine-seconds', 15);
const CLIENT_SECONDS = opt('client-seconds', 20);
const ONLY_ENGINE_RATIO = args.includes('--only-engine-ratio');
const PROFILE_DIR = args.includes('--profile') ? args[args.indexOf('--profile') + 1] : null;
/** the server's checker workers, read as the server reads them (CHECK_WORKERS, else one per core, at most 4) */
const CHECKER_THREADS = loadConfig().checker.workers;

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
  textChars = 500,
) {
  const latencies: number[] = [];
  let errors = 0;
  let chars = 0;
  const deadline = performance.now() + seconds * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: users }, async (_, u) => {
      while (performance.now() < deadline) {
        const text = makeText(textChars);
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

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();
/** CPU milliseconds in a /proc stat file (utime + stime). */
const statCpuMs = (path: string) => {
  // the fields after the command name, which is in parentheses and may hold spaces
  const fields = readFileSync(path, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
};
/** CPU milliseconds a process (all its threads) has used so far, from /proc (Linux). */
const processCpuMs = (pid: number) => statCpuMs(`/proc/${pid}/stat`);
/** CPU milliseconds of each thread of a process so far, by thread id. */
const threadCpuMs = (pid: number) => {
  const out = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      out.set(Number(tid), statCpuMs(`/proc/${pid}/task/${tid}/stat`));
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
};
/**
 * Where a process's CPU went between two thread readings: the main thread, the `workers` busiest other threads (the
 * checker workers under check load) and the rest (V8's GC and compiler threads, libuv's pool).
 */
function cpuSplit(pid: number, before: Map<number, number>, after: Map<number, number>, workers: number) {
  const delta = [...after].map(([tid, ms]) => ({ tid, ms: ms - (before.get(tid) ?? 0) }));
  const main = delta.find((d) => d.tid === pid)?.ms ?? 0;
  const others = delta.filter((d) => d.tid !== pid).sort((a, b) => b.ms - a.ms);
  const sum = (xs: Array<{ ms: number }>) => xs.reduce((s, x) => s + x.ms, 0);
  return { main, workers: sum(others.slice(0, workers)), rest: sum(others.slice(workers)) };
}
const rssMb = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return line ? Math.round(Number(line[1]) / 1024) : NaN;
};
const mark = (ok: boolean) => (ok ? 'met' : 'NOT met');

/** The engine alone (engine-limit.ts in a child process) on 1,000-character texts split as the server splits them. */
async function engineLimit(threads: number, seconds: number) {
  // enough distinct texts for a fast machine (about 150 checks/s per thread), and the warm-up's
  const checks = Array.from({ length: 40 + threads * seconds * 150 }, () =>
    splitUnits(makeText(1000)).map((u) => u.text),
  );
  const dir = mkdtempSync(join(tmpdir(), 'wb-bench-engine-'));
  const file = join(dir, 'checks.json');
  writeFileSync(file, JSON.stringify(checks));
  try {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        new URL('./engine-limit.ts', import.meta.url).pathname,
        file,
        String(threads),
        String(seconds),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`engine-limit exited with ${code}: ${out}`);
    const r = JSON.parse(out.trim().split('\n').pop()!) as {
      checks: number;
      seconds: number;
      cpuMs: number;
      threadsCpuMs: number;
      ranOut: boolean;
    };
    if (r.ranOut) console.error('engine-limit ran out of texts: its figure is a floor');
    return { ...r, perSecond: r.checks / r.seconds };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `clients` users checking 1,000-character texts back to back: checks/s and the server's CPU per check. */
async function serverLoad(server: ServerProcess, clients: number, tokens: string[], sockets: SocketClient[]) {
  const pid = server.child.pid!;
  const cpu0 = processCpuMs(pid);
  const threads0 = threadCpuMs(pid);
  const own0 = process.cpuUsage();
  const r = await load(
    CLIENT_SECONDS,
    clients,
    tokens.slice(0, clients),
    sockets.slice(0, clients),
    () => server,
    1000,
  );
  const cpuMs = processCpuMs(pid) - cpu0;
  const split = cpuSplit(pid, threads0, threadCpuMs(pid), CHECKER_THREADS);
  const own = process.cpuUsage(own0);
  const n = r.latencies.length;
  return {
    ...r,
    cpuMsPerCheck: cpuMs / n,
    split: { main: split.main / n, workers: split.workers / n, rest: split.rest / n },
    clientCpuMsPerCheck: (own.user + own.system) / 1000 / n,
  };
}

async function singleProcess(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'wb-bench-'));
  const tokens = await makeUsers(USERS + 1, { dataDir });
  const listeners = await makeListeners(LISTENERS, { dataDir });
  const server = await startServer(
    { DATA_DIR: dataDir, SPA_DIR: join(dataDir, 'no-spa'), CHECK_RATE_MAX: '0' },
    60_000,
    false,
    PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [],
  );
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

    // 0. the server against the engine alone, on the same cores: the engine before and after the server's runs (the
    // machine's other load drifts), its figures over both
    const before = await engineLimit(CHECKER_THREADS, ENGINE_SECONDS);
    const byClients: Array<{ clients: number } & Awaited<ReturnType<typeof serverLoad>>> = [];
    for (const clients of [8, 32]) {
      byClients.push({ clients, ...(await serverLoad(server, clients, tokens.slice(1), sockets.slice(1))) });
    }
    const after = await engineLimit(CHECKER_THREADS, ENGINE_SECONDS);
    const engine = {
      perSecond: (before.perSecond + after.perSecond) / 2,
      cpuMsPerCheck: (before.cpuMs + after.cpuMs) / (before.checks + after.checks),
      threadsCpuMsPerCheck: (before.threadsCpuMs + after.threadsCpuMs) / (before.checks + after.checks),
    };
    console.log(
      `\n0) the engine alone, ${CHECKER_THREADS} thread${CHECKER_THREADS > 1 ? 's' : ''} (as many as the server's ` +
        `checker workers), 1,000-character texts, ${ENGINE_SECONDS} s before and after the server's runs: ` +
        `${before.perSecond.toFixed(1)} and ${after.perSecond.toFixed(1)} checks/s (its limit here: the mean, ` +
        `${engine.perSecond.toFixed(1)}), ${engine.cpuMsPerCheck.toFixed(1)} ms of CPU per check (the checking ` +
        `threads ${engine.threadsCpuMsPerCheck.toFixed(1)}, other threads ` +
        `${(engine.cpuMsPerCheck - engine.threadsCpuMsPerCheck).toFixed(1)})`,
    );
    for (const l of byClients) {
      console.log(
        `   the server, ${l.clients} clients for ${l.elapsed.toFixed(1)} s: ${l.perSecond.toFixed(1)} checks/s ` +
          `(${((100 * l.perSecond) / engine.perSecond).toFixed(0)} % of the engine's limit), ` +
          `${l.cpuMsPerCheck.toFixed(1)} ms of server CPU per check ` +
          `(${(l.cpuMsPerCheck / engine.cpuMsPerCheck).toFixed(2)}× the engine's: main thread ` +
          `${l.split.main.toFixed(1)}, checker workers ${l.split.workers.toFixed(1)}, other threads ` +
          `${l.split.rest.toFixed(1)}), p50 ${ms(pct(l.latencies, 50))}, ` +
          `p95 ${ms(pct(l.latencies, 95))}, errors ${l.errors}; the bench's own CPU ` +
          `${l.clientCpuMsPerCheck.toFixed(1)} ms per check`,
      );
    }

    // 2. concurrent users, the server's RSS sampled throughout
    const pid = server.child.pid!;
    let rssPeak = rssMb(pid);
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(pid))), 250);
    const r = await load(SECONDS, USERS, tokens.slice(1), sockets.slice(1), () => server);
    clearInterval(sampler);
    const rssEnd = rssMb(pid);
    console.log(
      `\n2) ${USERS} concurrent users, 500-character texts, ${r.elapsed.toFixed(1)} s: ${r.latencies.length} checks, ` +
        `${r.perSecond.toFixed(1)} checks/s (${Math.round(r.chars / r.elapsed)} characters/s), ` +
        `p50 ${ms(pct(r.latencies, 50))}, p95 ${ms(pct(r.latencies, 95))}, errors ${r.errors}; ` +
        `server RSS peak ${rssPeak} MB, ${rssEnd} MB at the end`,
    );
    await new Promise((resolve) => setTimeout(resolve, 60_000));
    const rssAfter = rssMb(pid);
    console.log(`   server RSS a minute after: ${rssAfter} MB`);

    const at8 = byClients[0];
    const share8 = at8.perSecond / engine.perSecond;
    const cpuRatio = at8.cpuMsPerCheck / engine.cpuMsPerCheck;
    console.log(
      '\n   goals (one run; engine and server measured on the same cores):\n' +
        `   - throughput at 8 clients ${at8.perSecond.toFixed(1)} checks/s = ${(100 * share8).toFixed(0)} % of the ` +
        `engine's ${engine.perSecond.toFixed(1)} (goal ≥ 85 %): ${mark(share8 >= 0.85)}\n` +
        `   - server CPU per check at 8 clients ${at8.cpuMsPerCheck.toFixed(1)} ms = ${cpuRatio.toFixed(2)}× the ` +
        `engine's ${engine.cpuMsPerCheck.toFixed(1)} ms (goal ≤ 1.15×): ${mark(cpuRatio <= 1.15)}\n` +
        `   - RSS peak during the ${USERS}-user run ${rssPeak} MB (goal ≤ 600 MB): ${mark(rssPeak <= 600)}\n` +
        `   - RSS a minute after ${rssAfter} MB (goal < 400 MB): ${mark(rssAfter < 400)}`,
    );
    if (ONLY_ENGINE_RATIO) {
      for (const s of sockets) s.close();
      return;
    }

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
  const cluster = new PgDatabase();
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
    await cluster.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const hardLimit = setTimeout(
    () => {
      console.error('bench: time limit reached');
      process.exit(2);
    },
    (SECONDS + 2 * CLUSTER_SECONDS + ENGINE_SECONDS + 2 * CLIENT_SECONDS + 660) * 1000,
  );
  hardLimit.unref();
  await singleProcess();
  if (!SKIP_CLUSTER && !ONLY_ENGINE_RATIO) await processesOnPostgres();
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
