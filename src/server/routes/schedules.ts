/**
 * Scheduled reports (docs/server.md "Scheduled reports"). Making, removing and running a schedule
 * is workspace management, like webhooks: a `full` key; listing is a GET like any other. A webhook
 * target is checked like an export's (the outbound guard).
 */
import type { FastifyInstance } from 'fastify';
import { pageOfList } from '../../core/pagination.js';
import type { RouteDeps } from '../deps.js';
import { assertPublicUrl } from '../url-guard.js';
import { bodyWorkspace, param, queryWorkspace } from './helpers.js';

export function scheduleRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { backend } = deps;
  app.get('/schedules', { config: { access: 'read' } }, async (req) => {
    const { ws, query } = queryWorkspace(req);
    return { success: true, ...pageOfList(await backend.listSchedules(ws), query) };
  });
  app.post('/schedules', { config: { access: 'full' } }, async (req, reply) => {
    const ws = bodyWorkspace(req);
    const target = (req.body as { delivery?: { webhook_url?: unknown } } | undefined)?.delivery?.webhook_url;
    if (!deps.allowPrivateWebhooks && typeof target === 'string') assertPublicUrl(target, 'delivery.webhook_url');
    return reply.code(201).send({ success: true, data: await backend.as(req.grant!.keyId).createSchedule(ws, req.body) });
  });
  app.delete('/schedules/:schedule_id', { config: { access: 'full' } }, async (req) => {
    const { ws } = queryWorkspace(req);
    return { success: true, data: await backend.deleteSchedule(ws, param(req, 'schedule_id')) };
  });
  // The run's export is queued for the export worker, off the request thread: 202 as a queued export.
  app.post('/schedules/:schedule_id/run', { config: { access: 'full' } }, async (req, reply) => {
    const ws = bodyWorkspace(req);
    return reply.code(202).send({ success: true, data: await backend.as(req.grant!.keyId).runSchedule(ws, param(req, 'schedule_id')) });
  });
}
