import fp from 'fastify-plugin';
import { PgCluster, RedisCluster, type SharedCluster } from '../realtime/cluster';
import type { ClusterEvent } from '../realtime/hub';
import { ServerInstance } from '../workers/instance';

/**
 * This process among those sharing the database (workers/instance.ts), and the event bus that carries socket
 * messages and revocations between them (realtime/cluster.ts): Redis pub/sub with REDIS_URL, else PostgreSQL's
 * LISTEN/NOTIFY with DATABASE_URL; none for one process on SQLite.
 */
export default fp(
  async (app) => {
    const instance = new ServerInstance(app);
    app.decorate('instance', instance);
    await instance.start();
    const deliver = (event: ClusterEvent) => {
      // after a break of the bus, jobs queued meanwhile by others are looked for at once, not at the next poll
      if (event.kind === 'jobs' || event.kind === 'resync') app.jobs.fill();
      if (event.kind !== 'jobs') app.realtime.receive(event);
    };
    const { redisUrl, databaseUrl } = app.config;
    let cluster: SharedCluster | null = null;
    if (redisUrl) cluster = new RedisCluster(redisUrl, app.db, instance.id, deliver, app.log);
    else if (app.dialect === 'postgres' && databaseUrl)
      cluster = new PgCluster(databaseUrl, app.db, instance.id, deliver, app.log);
    if (cluster) {
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
