import fp from 'fastify-plugin';
import { cleanupExpiredDownloads } from '../domain/accounts/downloads';

const SWEEP_EVERY_MS = 3_600_000;

/** Sweeps expired download-center files at start and every hour. */
export default fp(
  async (app) => {
    const sweep = async () => {
      try {
        const removed = await cleanupExpiredDownloads(app.db, app.config.dataDir);
        if (removed > 0) app.log.info({ removed }, 'expired downloads removed');
      } catch (error) {
        app.log.error({ err: error }, 'download cleanup failed');
      }
    };
    let timer: NodeJS.Timeout | undefined;
    app.addHook('onReady', async () => {
      await sweep();
      timer = setInterval(sweep, SWEEP_EVERY_MS);
      timer.unref();
    });
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'downloads', dependencies: ['db'] },
);
