import fp from 'fastify-plugin';
import websocket from '@fastify/websocket';
import { RealtimeHub } from '../realtime/hub';
import { registerSocketRoute } from '../realtime/socket-route';

/** The realtime socket at SOCKET_URL's path (default /ws) and the hub later features send through. */
export default fp(
  async (app, opts: { hub?: RealtimeHub; socketIdleMs?: number }) => {
    await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
    const hub = opts.hub ?? new RealtimeHub({ maxSessionsPerUser: app.config.socketSessionsPerUser });
    app.decorate('realtime', hub);
    app.addHook('preClose', async () => hub.close());
    // SOCKET_URL may be absolute (another host); the server listens on its path.
    const url = app.config.publicConfig.socketURL;
    const path = /^wss?:|^https?:/.test(url) ? new URL(url).pathname : url;
    registerSocketRoute(app, path.startsWith('/') ? path : `/${path}`, opts.socketIdleMs);
  },
  { name: 'websocket', dependencies: ['db'] },
);
