import { readFileSync } from 'node:fs';
import { pingDatabase } from '../../db/repos/health';
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
    await pingDatabase(request.server.db);
    return envelope({ status: 'ok', database: request.server.dialect, version }, 'ok');
  },
};
