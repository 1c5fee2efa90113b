import fp from 'fastify-plugin';
import { findInstanceIds } from '../db/repos/instances';
import { PdfChecks } from '../services/pdf/checks';

/** PDF checks: those a stopped process left are ended (refunded) at start; running ones end when it closes. */
export default fp(
  async (app) => {
    const checks = new PdfChecks(app);
    app.decorate('pdfChecks', checks);
    app.addHook('onReady', async () => {
      await checks.sweep(await findInstanceIds(app.db));
    });
    // before onClose (the database closes there)
    app.addHook('preClose', async () => checks.close());
  },
  { name: 'pdf-checks', dependencies: ['db', 'websocket', 'instance', 'heavy'] },
);
