// A throwaway Redis server for the tests of the processes' bus and of the rate limits stored in Redis.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import { freePort } from '../../server/bench/processes';

export const REDIS_BIN = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => existsSync(p)) ?? null;

/** A throwaway Redis on a free port, nothing saved. */
export async function startRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(REDIS_BIN!, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const url = `redis://127.0.0.1:${port}`;
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  // refused while the server starts: the loop below tries again
  probe.on('error', () => {});
  for (let i = 0; ; i++) {
    try {
      await probe.connect();
      break;
    } catch (error) {
      if (i > 100) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await probe.quit();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { url, stop: async () => void (child.kill('SIGTERM'), await exited) };
}
