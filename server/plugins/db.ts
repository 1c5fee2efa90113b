import fp from 'fastify-plugin';
import { migrate, openDatabase } from '../db';
import { ensureRootAdmin } from '../domain/accounts/users';

/** Opens the database, applies migrations and creates the root account on first start. */
export default fp(
  async (app) => {
    const { db, dialect } = openDatabase({ dataDir: app.config.dataDir, databaseUrl: app.config.databaseUrl });
    app.decorate('db', db);
    app.decorate('dialect', dialect);
    app.addHook('onClose', async () => db.destroy());
    const applied = await migrate(db, dialect);
    if (applied.length > 0) app.log.info({ applied }, 'database migrations applied');
    const root = await ensureRootAdmin(db, app.config.adminPhone, app.config.adminPassword);
    if (root)
      app.log.warn(
        `created the root account ${app.config.adminPhone}; change ADMIN_PASSWORD's default before exposing the server`,
      );
  },
  { name: 'db' },
);
