import { buildApp } from './app';
import { loadConfig } from './config';
import { warmChecker } from './workers/checker/pool';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  // a malformed setting: say which, without a stack trace
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
const app = await buildApp();
// The checker workers load their lexicons in the background, so the first check is not slow.
warmChecker();

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received, closing`);
    // Give open requests a moment, then leave regardless.
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (err) => {
        app.log.error(err, 'error while closing');
        process.exit(1);
      },
    );
  });
}

try {
  await app.listen({ port: config.port, host: config.host });
} catch (err) {
  app.log.error(err);
  process.exit(1);
}
