import fp from 'fastify-plugin';
import { HeavyPool } from '../workers/heavy/pool';

/** The bounded heavy worker pool, sized and limited from the configuration, stopped when the server closes. */
export default fp(
  async (app) => {
    const pool = new HeavyPool(app.config.heavy, app.config.tools);
    app.decorate('heavy', pool);
    app.addHook('onClose', async () => pool.close());
  },
  { name: 'heavy' },
);
