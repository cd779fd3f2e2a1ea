/**
 * Lots (docs/lots.md): GET /lots (open lots at a date), GET|POST /lots/allocation, GET|POST
 * /lots/picks, DELETE /lots/picks/:disposal_id, GET|POST /lots/openings, DELETE
 * /lots/openings/:import_id. Reads need a `read` key, writes a `write` key,
 * as the transfers' routes; writes act as the request's member. The open lots are cached as the
 * other lists are (docs/server.md "List cache").
 */
import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../deps.js';
import { JSON_TYPE, bodyWorkspace, param, queryWorkspace } from './helpers.js';
import { queryKey } from '../read-cache.js';
import { nowIso } from '../../core/clock.js';

export function lotRoutes(app: FastifyInstance, { backend, cache }: RouteDeps): void {
  app.get('/lots', { config: { access: 'read' } }, async (req, reply) => {
    const { ws, query } = queryWorkspace(req, { required: true });
    // A pass over the ledger: cached by the workspace's event sequence (read-cache.ts), under the
    // day the answer is for, so a default `at` (today) does not outlive its day.
    const key = queryKey('lots', { ...query, at: query.at ?? nowIso().slice(0, 10) });
    const body = await cache.get(ws, key, async () => ({ success: true, data: await backend.listLots(ws, query) }));
    return reply.type(JSON_TYPE).send(body);
  });
  app.get('/lots/allocation', { config: { access: 'read' } }, async (req) => {
    const { ws } = queryWorkspace(req, { required: true });
    return { success: true, data: await backend.getLotAllocation(ws) };
  });
  app.post('/lots/allocation', { config: { access: 'write' } }, async (req, reply) => {
    const ws = bodyWorkspace(req);
    const data = await backend.as(req.grant!.memberId).createLotAllocation(ws, req.body);
    return reply.code(data.recorded ? 201 : 200).send({ success: true, data });
  });
  app.get('/lots/picks', { config: { access: 'read' } }, async (req) => {
    const { ws, query } = queryWorkspace(req, { required: true });
    return { success: true, data: await backend.listLotPicks(ws, query) };
  });
  app.post('/lots/picks', { config: { access: 'write' } }, async (req, reply) => {
    const ws = bodyWorkspace(req);
    return reply.code(201).send({ success: true, data: await backend.as(req.grant!.memberId).createLotPicks(ws, req.body) });
  });
  app.delete('/lots/picks/:disposal_id', { config: { access: 'write' } }, async (req) => {
    const { ws } = queryWorkspace(req);
    return { success: true, data: await backend.as(req.grant!.memberId).deleteLotPicks(ws, param(req, 'disposal_id')) };
  });
  app.get('/lots/openings', { config: { access: 'read' } }, async (req) => {
    const { ws } = queryWorkspace(req, { required: true });
    return { success: true, data: await backend.listOpeningLots(ws) };
  });
  app.post('/lots/openings', { config: { access: 'write' } }, async (req, reply) => {
    const ws = bodyWorkspace(req);
    const data = await backend.as(req.grant!.memberId).importOpeningLots(ws, req.body);
    return reply.code(data.dry_run ? 200 : 201).send({ success: true, data });
  });
  app.delete('/lots/openings/:import_id', { config: { access: 'write' } }, async (req) => {
    const { ws } = queryWorkspace(req);
    return { success: true, data: await backend.as(req.grant!.memberId).removeOpeningLots(ws, param(req, 'import_id')) };
  });
}
