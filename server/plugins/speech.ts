import fp from 'fastify-plugin';
import { findInstanceIds } from '../db/repos/instances';
import { SpeechTasks } from '../services/media/speech';

/** Speech tasks: those a stopped process left are ended (refunded) at start; running ones end when it closes. */
export default fp(
  async (app) => {
    const tasks = new SpeechTasks(app);
    app.decorate('speechTasks', tasks);
    app.addHook('onReady', async () => {
      await tasks.sweep(await findInstanceIds(app.db));
    });
    // before onClose (the database closes there)
    app.addHook('preClose', async () => tasks.close());
  },
  { name: 'speech', dependencies: ['db', 'instance'] },
);
