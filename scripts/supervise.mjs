// Runs the server and starts it again when it dies (a crash, the out-of-memory killer, kill -9), waiting longer
// after each quick failure so a server that cannot start does not spin. SIGINT/SIGTERM stop both for good.
// `npm start` runs it after building the front end; production may run it directly (deploy/ has a unit file).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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
  child = spawn(process.execPath, ['--import', 'tsx', 'server/server.ts'], { cwd: root, stdio: 'inherit' });
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

start();
