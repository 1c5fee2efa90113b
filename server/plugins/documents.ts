import fp from 'fastify-plugin';
import { DocumentQueue, type DocumentQueueOptions } from '../services/documents/jobs';

/** The document worker queue: unfinished jobs resume when the server is ready and pause when it closes. */
export default fp(
  async (app, opts: { queue?: DocumentQueueOptions }) => {
    const queue = new DocumentQueue(app, opts.queue);
    app.decorate('documents', queue);
    app.addHook('onReady', async () => {
      await queue.resume();
    });
    // before onClose (the database closes there): running jobs stop and stay `running` for the next start
    app.addHook('preClose', async () => queue.close());
  },
  { name: 'documents', dependencies: ['db', 'websocket'] },
);
