// Runs the server and starts it again when it dies (a crash, the out-of-memory killer, kill -9), waiting longer
// after each quick failure so a server that cannot start does not spin. SIGINT/SIGTERM stop both for good.
// `npm start` runs it after building the front end; production may run it directly (deploy/ has a unit file).
// The server runs as plain JavaScript from dist/server, bundled first when missing or out of date.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureServerBuild } from './server-build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
/** A server that ran this long was healthy: the next restart is quick again. */
const HEALTHY_MS = 60_000;
const MAX_DELAY_MS = 30_000;

let child = null;
let stopping = false;
let delay = 1_000;

function log(message) {
  console.error(`[supervisor] ${new Date().toISOString()} ${message}`);
}

function start() {
  const started = Date.now();
  child = spawn(process.execPath, [serverEntry], { cwd: root, stdio: 'inherit', env: serverEnv });
  log(`server started (pid ${child.pid})`);
  child.on('exit', (code, signal) => {
    child = null;
    if (stopping) process.exit(code ?? 0);
    if (code === 0) {
      log('server exited normally');
      process.exit(0);
    }
    if (Date.now() - started > HEALTHY_MS) delay = 1_000;
    log(`server died (${signal ? `signal ${signal}` : `exit code ${code}`}); restarting in ${delay / 1000} s`);
    setTimeout(start, delay);
    delay = Math.min(MAX_DELAY_MS, delay * 2);
  });
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopping = true;
    if (child) child.kill(signal);
    else process.exit(0);
  });
}

// glibc gives every thread that allocates its own malloc arena; two keep the workers' native memory from spreading
// over a dozen: 15–35 MB less resident memory with two checker workers; 20 concurrent checks take as long.
const serverEnv = { MALLOC_ARENA_MAX: '2', ...process.env };

/** the bundle for the sources as they were when the supervisor started: every restart runs the same code */
let serverEntry;
try {
  const { entry, built } = await ensureServerBuild();
  if (built) log('server bundled into dist/server');
  serverEntry = entry;
} catch (error) {
  log(`the server could not be bundled: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
start();
