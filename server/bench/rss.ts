/**
 * The resident memory of the server as `npm start` runs it (the bundle under the supervisor, SQLite) once its
 * checker workers have their lexicons: at rest after one check, then 5 s and a minute after concurrent checks have
 * kept every worker busy. Read from /proc (Linux).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate, openDatabase } from '../db';
import { addGrant } from '../domain/rights/ledger';
import { issueToken } from '../domain/accounts/tokens';
import { createUser } from '../domain/accounts/users';
import { startServer, SocketClient, type ServerProcess } from './processes';

export interface ServerRss {
  workers: number;
  /** MB at rest after the first check */
  idleMb: number;
  /** MB 5 s after concurrent checks */
  afterLoadMb: number;
  /** MB a minute after them */
  settledMb: number;
}

const rssMb = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  if (!line) throw new Error(`no VmRSS for process ${pid}`);
  return Math.round(Number(line[1]) / 1024);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function check(server: ServerProcess, socket: SocketClient, token: string, text: string): Promise<void> {
  const res = await fetch(`${server.base}/misscut/v1/check_text`, {
    method: 'POST',
    headers: {
      cid: 'bench',
      endpoint: '1',
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      session: socket.sessionId,
    },
    body: JSON.stringify({ text }),
  });
  const json = (await res.json()) as { msg: string; result: { check_id: string } | null };
  if (res.status !== 200 || !json.result) throw new Error(`check_text ${res.status}: ${json.msg}`);
  await socket.waitDone(json.result.check_id, 120_000);
}

export async function measureServerRss(workers: number, texts: string[]): Promise<ServerRss> {
  const dataDir = mkdtempSync(join(tmpdir(), 'wb-rss-'));
  let server: ServerProcess | null = null;
  try {
    const { db, dialect } = openDatabase({ dataDir });
    await migrate(db, dialect);
    const user = await createUser(db, { phone: '17700009999', password: 'bench123456' });
    await addGrant(db, user.uid, 1, 100_000_000, 'bench:1');
    const token = await issueToken(db, user.uid);
    await db.destroy();
    server = await startServer(
      { DATA_DIR: dataDir, SPA_DIR: join(dataDir, 'no-spa'), CHECK_WORKERS: String(workers), CHECK_RATE_MAX: '0' },
      60_000,
      true,
    );
    const pid = server.serverPid();
    if (pid === null) throw new Error('the supervisor named no server process');
    const socket = new SocketClient(`ws://127.0.0.1:${server.port}/ws?token=${token}&endpoint=1`);
    await socket.open();
    await check(server, socket, token, texts[0]);
    await sleep(5000);
    const idleMb = rssMb(pid);
    await Promise.all(texts.map((t) => check(server!, socket, token, t)));
    await sleep(5000);
    const afterLoadMb = rssMb(pid);
    // V8's memory reducer gives the workers' grown heaps back after some idle seconds (about 20-35 here)
    await sleep(55_000);
    const settledMb = rssMb(pid);
    socket.close();
    return { workers, idleMb, afterLoadMb, settledMb };
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
