import fp from 'fastify-plugin';
import { PgCluster } from '../realtime/cluster';
import { ServerInstance } from '../services/instance';

/**
 * This process among those sharing the database (services/instance.ts), and with PostgreSQL the event bus that
 * carries socket messages and revocations between them (realtime/cluster.ts).
 */
export default fp(
  async (app) => {
    const instance = new ServerInstance(app);
    app.decorate('instance', instance);
    await instance.start();
    let cluster: PgCluster | null = null;
    if (app.dialect === 'postgres' && app.config.databaseUrl) {
      cluster = new PgCluster(
        app.config.databaseUrl,
        app.db,
        instance.id,
        (event) => {
          if (event.kind === 'documents') app.documents.fill();
          else app.realtime.receive(event);
        },
        app.log,
      );
      await cluster.start();
      app.realtime.cluster = cluster;
    }
    app.addHook('onClose', async () => {
      app.realtime.cluster = null;
      await cluster?.close();
      await instance.stop();
    });
  },
  { name: 'instance', dependencies: ['db', 'websocket'] },
);
