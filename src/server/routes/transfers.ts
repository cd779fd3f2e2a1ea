/** Own transfers (docs/accounting.md "Own transfers"): GET/POST /transfers, DELETE /transfers/:id; changes act as the request's member. */
import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../deps.js';
import { JSON_TYPE, bodyWorkspace, param, queryWorkspace } from './helpers.js';
import { queryKey } from '../read-cache.js';

export function transferRoutes(app: FastifyInstance, { backend, cache }: RouteDeps): void {
  app.get('/transfers', { config: { access: 'read' } }, async (req, reply) => {
    const { ws, query } = queryWorkspace(req, { required: true });
    const body = await cache.get(ws, queryKey('transfers', query), async () => ({ success: true, ...(await backend.listTransfers(ws, query)) }));
    return reply.type(JSON_TYPE).send(body);
  });
  app.post('/transfers', { config: { access: 'write' } }, async (req, reply) => {
    const ws = bodyWorkspace(req);
    return reply.code(201).send({ success: true, data: await backend.as(req.grant!.memberId).createTransfer(ws, req.body) });
  });
  app.delete('/transfers/:transfer_id', { config: { access: 'write' } }, async (req) => {
    const { ws } = queryWorkspace(req);
    return { success: true, data: await backend.as(req.grant!.memberId).deleteTransfer(ws, param(req, 'transfer_id')) };
  });
}
