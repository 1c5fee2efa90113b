import { buildApp } from './app';
import { loadConfig } from './config';
import { warmChecker } from './services/checker/pool';

const config = loadConfig();
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
