/** The event log, webhooks, closed periods, health and the OpenAPI document. */
import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../deps.js';
import { assertPublicUrl } from '../url-guard.js';
import { openApiDocument } from '../openapi.js';
import { bodyWorkspace, param, queryWorkspace } from './helpers.js';
import { pageOfList } from '../../core/pagination.js';

export function miscRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { backend } = deps;
  app.get('/health', { config: { access: 'public' } }, async () => ({ success: true, data: { status: 'ok' } }));
  app.get('/openapi.json', { config: { access: 'public' } }, async () => openApiDocument());

  app.get('/events', { config: { access: 'read' } }, async (req) => {
    const { ws, query } = queryWorkspace(req, { required: true });
    return { success: true, ...(await backend.listEvents(ws, query)) };
  });

  // Subscriptions carry URLs the server will call, so making and removing them needs a `full`
  // key; listing them is a GET like any other (the secret is shown only by `add`).
  app.post('/webhooks', { config: { access: 'full' } }, async (req, reply) => {
    const ws = bodyWorkspace(req);
    const url = (req.body as { url?: unknown } | undefined)?.url;
    if (!deps.allowPrivateWebhooks && typeof url === 'string') assertPublicUrl(url, 'url');
    return reply.code(201).send({ success: true, data: await backend.createWebhook(ws, req.body) });
  });
  app.get('/webhooks', { config: { access: 'read' } }, async (req) => {
    const { ws, query } = queryWorkspace(req);
    return { success: true, ...pageOfList(await backend.listWebhooks(ws), query) };
  });
  // Closing and reopening periods is workspace management: a `full` key, as webhooks.
  app.get('/periods', { config: { access: 'read' } }, async (req) => {
    const { ws } = queryWorkspace(req);
    return { success: true, data: await backend.listPeriods(ws) };
  });
  app.post('/periods', { config: { access: 'full' } }, async (req, reply) => {
    const ws = bodyWorkspace(req);
    return reply.code(201).send({ success: true, data: await backend.as(req.grant!.memberId).closePeriod(ws, req.body ?? {}) });
  });
  app.post('/periods/reopen', { config: { access: 'full' } }, async (req) => {
    const ws = bodyWorkspace(req);
    return { success: true, data: await backend.as(req.grant!.memberId).reopenPeriod(ws, req.body ?? {}) };
  });
  app.delete('/webhooks/:webhook_id', { config: { access: 'full' } }, async (req) => {
    const { ws } = queryWorkspace(req);
    return { success: true, data: await backend.deleteWebhook(ws, param(req, 'webhook_id')) };
  });
}
