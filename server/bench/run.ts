/**
 * Server benchmark for the check flow (issue 4 item 5). Loopback only, bounded in time.
 *
 *   npx tsx server/bench/run.ts [--seconds 60] [--users 50] [--runs 30] [--big 100000] [--skip-big]
 *
 * Starts the real server (`server/server.ts`) as a child process on 127.0.0.1 with a temporary DATA_DIR,
 * creates the users directly in its database, then measures over real HTTP + WebSocket:
 *  1. one user, 1,000-character texts: time from POST check_text to the `done` result, p50 / p95;
 *  2. N concurrent users (default 50), each checking 500-character texts back to back for --seconds:
 *     throughput, p50 / p95 latency, error count;
 *  3. one 100,000-character text fully streamed, while /health is called every 50 ms: total time and the
 *     slowest health answer (event-loop responsiveness).
 * Texts are distinct per check (no cache hits). CHECK_WORKERS is passed through to the server.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { migrate, openDatabase } from '../db';
import { createUser } from '../services/users';
import { issueToken } from '../services/tokens';
import { addGrant } from '../services/rights';
import { benchOption, benchSentences, repoRoot } from './support';

const args = process.argv.slice(2);
const opt = benchOption;
const SECONDS = opt('seconds', 60);
const USERS = opt('users', 50);
const RUNS = opt('runs', 30);
const BIG = opt('big', 100_000);
const SKIP_BIG = args.includes('--skip-big');


const corpus = benchSentences;
const SENTENCES = corpus();
let serial = 0;
let seed = 12345;
const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
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

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

class Socket {
  ws: WebSocket;
  sessionId = '';
  private handlers = new Map<string, (data: any, status: number) => void>();
  private early = new Map<string, Array<[any, number]>>();
  constructor(url: string) {
    this.ws = new WebSocket(url);
  }
  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.ws.on('error', reject);
      this.ws.on('message', (raw) => {
        const m = JSON.parse(raw.toString());
        if (m.index !== undefined) this.ws.send(JSON.stringify({ type: 1, cmd: 2, index: m.index }));
        if (m.type === 3) {
          this.sessionId = m.data.session_id;
          resolve();
          return;
        }
        if (m.type === 2 && m.cmd === 2 && m.status === 200) {
          const handler = this.handlers.get(m.data.check_id);
          if (handler) handler(m.data, m.status);
          else this.early.set(m.data.check_id, [...(this.early.get(m.data.check_id) ?? []), [m.data, m.status]]);
        }
      });
    });
  }
  /** Resolves when the check's `done` result arrives. */
  waitDone(checkId: string): Promise<void> {
    return new Promise((resolve) => {
      const handle = (data: any) => {
        if (data.done) {
          this.handlers.delete(checkId);
          resolve();
        }
      };
      this.handlers.set(checkId, handle);
      for (const [data] of this.early.get(checkId) ?? []) handle(data);
      this.early.delete(checkId);
    });
  }
  close() {
    this.ws.close(1000);
  }
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'wb-bench-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;

  // users and tokens straight into the database the server will open
  const { db, dialect } = openDatabase({ dataDir });
  await migrate(db, dialect);
  const tokens: string[] = [];
  for (let n = 0; n < USERS + 1; n++) {
    const user = await createUser(db, { phone: `1770000${String(n).padStart(4, '0')}`, password: 'bench123456' });
    await addGrant(db, user.uid, 1, 100_000_000, 'bench:1');
    await addGrant(db, user.uid, 32, 1_000_000, 'bench:32');
    tokens.push(await issueToken(db, user.uid));
  }
  await db.destroy();

  const server = spawn(process.execPath, ['--import', 'tsx', 'server/server.ts'], {
    cwd: repoRoot,
    // the benchmark measures throughput, not the per-user check rate limit (CHECK_RATE_MAX 0 = off)
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', SPA_DIR: join(dataDir, 'no-spa'), CHECK_RATE_MAX: '0' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = () => {
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.on('exit', stop);
  const hardLimit = setTimeout(() => {
    console.error('bench: time limit reached');
    process.exit(2);
  }, (SECONDS + 240) * 1000);
  hardLimit.unref();

  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (i > 200) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }

  const sockets: Socket[] = [];
  for (const token of tokens) {
    const s = new Socket(`ws://127.0.0.1:${port}/ws?token=${token}&endpoint=1`);
    await s.open();
    sockets.push(s);
  }

  async function check(n: number, text: string): Promise<number> {
    const t0 = performance.now();
    const res = await fetch(`${base}/misscut/v1/check_text`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[n]}`, session: sockets[n].sessionId, cid: 'bench', endpoint: '1' },
      body: JSON.stringify({ text }),
    });
    const json = (await res.json()) as { code: number; msg: string; result: { check_id: string } | null };
    if (res.status !== 200 || !json.result) throw new Error(`check_text ${res.status}: ${json.msg}`);
    await sockets[n].waitDone(json.result.check_id);
    return performance.now() - t0;
  }

  // warm-up: the workers load their lexicons in the background at start; wait until a check answers
  const w0 = performance.now();
  await check(0, makeText(200));
  console.log(`server up; first check answered ${ms(performance.now() - w0)} after /health`);
  for (let i = 0; i < 4; i++) await check(0, makeText(1000));

  // 1. single user, 1,000 characters
  const single: number[] = [];
  for (let i = 0; i < RUNS; i++) single.push(await check(0, makeText(1000)));
  console.log(`\n1) 1,000-character text, one user, ${RUNS} runs: p50 ${ms(pct(single, 50))}, p95 ${ms(pct(single, 95))}, max ${ms(Math.max(...single))}`);

  // 2. concurrent users
  const latencies: number[] = [];
  let errors = 0;
  let chars = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const t2 = performance.now();
  await Promise.all(
    Array.from({ length: USERS }, async (_, u) => {
      while (performance.now() < deadline) {
        const text = makeText(500);
        try {
          latencies.push(await check(u + 1, text));
          chars += text.length;
        } catch (error) {
          errors++;
          if (errors <= 3) console.error(String(error));
        }
      }
    }),
  );
  const elapsed = (performance.now() - t2) / 1000;
  console.log(
    `\n2) ${USERS} concurrent users, 500-character texts, ${elapsed.toFixed(1)} s: ${latencies.length} checks, ` +
      `${(latencies.length / elapsed).toFixed(1)} checks/s (${Math.round(chars / elapsed)} characters/s), ` +
      `p50 ${ms(pct(latencies, 50))}, p95 ${ms(pct(latencies, 95))}, errors ${errors}`,
  );

  // 3. one big text, with /health probes
  if (!SKIP_BIG) {
    const probes: number[] = [];
    let probing = true;
    const probe = (async () => {
      while (probing) {
        const p0 = performance.now();
        await fetch(`${base}/health`);
        probes.push(performance.now() - p0);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const big = makeText(BIG);
    const took = await check(0, big);
    probing = false;
    await probe;
    console.log(
      `\n3) ${big.length.toLocaleString('en')}-character text fully streamed in ${ms(took)} (${Math.round(big.length / (took / 1000))} characters/s); ` +
        `/health during it: ${probes.length} calls, p50 ${ms(pct(probes, 50))}, max ${ms(Math.max(...probes))}`,
    );
  }

  for (const s of sockets) s.close();
  stop();
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
