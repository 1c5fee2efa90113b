import fp from 'fastify-plugin';
import { findInstanceIds } from '../db/repos/instances';
import { ImageChecks } from '../services/media/images';

/** Image checks: those a stopped process left are ended (refunded) at start; running ones end when it closes. */
export default fp(
  async (app) => {
    const checks = new ImageChecks(app);
    app.decorate('imageChecks', checks);
    app.addHook('onReady', async () => {
      await checks.sweep(await findInstanceIds(app.db));
    });
    // before onClose (the database closes there)
    app.addHook('preClose', async () => checks.close());
  },
  { name: 'image-checks', dependencies: ['db', 'websocket', 'instance', 'heavy'] },
);
