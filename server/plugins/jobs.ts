import fp from 'fastify-plugin';
import { jobHandlers } from '../jobs/kinds';
import { JobRunner, type JobRunnerOptions } from '../jobs/runner';

/** The job runner (server/jobs) with its kinds: it claims work once the server is ready and stops before it closes. */
export default fp(
  async (app, opts: { runner?: JobRunnerOptions }) => {
    const runner = new JobRunner(app, opts.runner);
    for (const handler of Object.values(jobHandlers)) runner.register(handler);
    app.decorate('jobs', runner);
    app.addHook('onReady', async () => {
      await runner.refundEnded();
      await runner.start();
    });
    // before onClose (the database closes there): running jobs stop and go back to the queue
    app.addHook('preClose', async () => runner.close());
  },
  { name: 'jobs', dependencies: ['db', 'websocket', 'instance', 'heavy'] },
);
