// Real server processes on this machine, for the benchmarks and the multi-process tests: spawn, wait for
// /health, talk to the socket, stop or kill -9.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import WebSocket from 'ws';
import { HEARTBEAT_INTERVAL_MS } from '../../openapi/socket-protocol';
import { ensureServerBuild } from '../../scripts/server-build.mjs';
import { repoRoot } from './support';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  port: number;
  base: string;
  child: ChildProcess;
  /** everything the process wrote, for a failing test's message */
  output(): string;
  /** SIGTERM and wait for the exit */
  stop(): Promise<void>;
  /** SIGKILL (no shutdown of any kind) and wait for the exit */
  kill(): Promise<void>;
  /** under the supervisor: the pid of the server it started last */
  serverPid(): number | null;
}

/**
 * Starts the bundled server (scripts/server-build.mjs) with the given environment and resolves once /health
 * answers; `supervised` starts it under scripts/supervise.mjs (as `npm start` does), whose log names the server's pid.
 */
export async function startServer(
  env: Record<string, string>,
  timeoutMs = 60_000,
  supervised = false,
  /** node's own options for the process (`--cpu-prof` is not allowed in NODE_OPTIONS) */
  nodeArgs: string[] = [],
): Promise<ServerProcess> {
  const port = await freePort();
  // the server as `npm start` runs it: the bundle in dist/server (the supervisor builds it when missing)
  const args = [...nodeArgs, supervised ? join(repoRoot, 'scripts/supervise.mjs') : (await ensureServerBuild()).entry];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', LOG_FORMAT: 'json', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer /health within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  const serverPid = () => {
    const started = [...output.matchAll(/server started \(pid (\d+)\)/g)];
    return started.length ? Number(started[started.length - 1][1]) : null;
  };
  return { port, base, child, output: () => output, stop: () => end('SIGTERM'), kill: () => end('SIGKILL'), serverPid };
}

/**
 * A socket client as the SPA is one: acknowledges indexed messages, keeps what arrives and sends the heartbeat (a
 * socket silent for three periods is closed by the server, which would strand a long run's idle users).
 */
export class SocketClient {
  ws: WebSocket;
  sessionId = '';
  messages: Array<{ type: number; cmd: number; status: number; data: any; index?: number }> = [];
  private waiters: Array<() => void> = [];
  private heartbeat: NodeJS.Timeout;

  constructor(url: string) {
    this.ws = new WebSocket(url);
    this.heartbeat = setInterval(() => {
      if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: 1, cmd: 1 }));
    }, HEARTBEAT_INTERVAL_MS);
    this.heartbeat.unref();
    this.ws.once('close', () => clearInterval(this.heartbeat));
  }

  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.ws.once('error', reject);
      this.ws.on('message', (raw) => {
        const m = JSON.parse(raw.toString());
        if (m.index !== undefined) this.ws.send(JSON.stringify({ type: 1, cmd: 2, index: m.index }));
        if (m.type === 3) {
          this.sessionId = m.data.session_id;
          resolve();
        }
        this.messages.push(m);
        for (const wake of this.waiters.splice(0)) wake();
      });
    });
  }

  /** Resolves with the first message (already received or to come) that satisfies `test`. */
  async waitFor(test: (m: SocketClient['messages'][number]) => boolean, timeoutMs = 30_000): Promise<any> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.messages.find(test);
      if (hit) return hit;
      if (Date.now() > until) throw new Error(`no such socket message within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  /** Resolves when the check's last result (`done`) has arrived. */
  waitDone(checkId: string, timeoutMs?: number): Promise<any> {
    return this.waitFor((m) => m.type === 2 && m.cmd === 2 && m.data?.check_id === checkId && m.data?.done, timeoutMs);
  }

  close(): void {
    clearInterval(this.heartbeat);
    this.ws.close(1000);
  }
}
