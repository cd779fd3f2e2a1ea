/** Every route of the API, registered once per prefix (`/api/v1` and the `/v1` alias). */
import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../deps.js';
import { tagRoutes } from './tags.js';
import { transactionRoutes } from './transactions.js';
import { exportRoutes } from './exports.js';
import { miscRoutes } from './misc.js';
import { transferRoutes } from './transfers.js';
import { walletRoutes } from './wallets.js';
import { lotRoutes } from './lots.js';
import { memberRoutes } from './members.js';
import { scheduleRoutes } from './schedules.js';

export function apiRoutes(deps: RouteDeps) {
  return async (app: FastifyInstance): Promise<void> => {
    tagRoutes(app, deps);
    transactionRoutes(app, deps);
    transferRoutes(app, deps);
    walletRoutes(app, deps);
    lotRoutes(app, deps);
    exportRoutes(app, deps);
    memberRoutes(app, deps);
    scheduleRoutes(app, deps);
    miscRoutes(app, deps);
  };
}
