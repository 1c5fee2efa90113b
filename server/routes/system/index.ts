import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { envelope } from '../../errors';
import type { Operations } from '../types';

const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export const systemOperations: Operations = {
  /** Runtime configuration for the SPA: plain JSON, no envelope (so one build runs anywhere). */
  getWorkbenchConfigJson: async (request, reply) => {
    reply.header('cache-control', 'no-cache');
    return request.server.config.publicConfig;
  },

  getHealth: async (request) => {
    await sql`select 1`.execute(request.server.db);
    return envelope({ status: 'ok', database: request.server.dialect, version }, 'ok');
  },
};
