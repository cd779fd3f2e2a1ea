/** Tags: POST/GET /tags, PATCH/DELETE /tags/:id (docs/reference/api.md). */
import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../deps.js';
import { JSON_TYPE, bodyWorkspace, param, queryWorkspace } from './helpers.js';
import { queryKey } from '../read-cache.js';
import { pageOfList } from '../../core/pagination.js';

export function tagRoutes(app: FastifyInstance, { backend, cache }: RouteDeps): void {
  app.post('/tags', { config: { access: 'write' } }, async (req, reply) => {
    const ws = bodyWorkspace(req, { required: true });
    return reply.code(201).send({ success: true, data: await backend.as(req.grant!.memberId).createTag(ws, req.body) });
  });
  app.get('/tags', { config: { access: 'read' } }, async (req, reply) => {
    const { ws, query } = queryWorkspace(req, { required: true });
    const body = await cache.get(ws, queryKey('tags', query), async () => ({ success: true, ...pageOfList(await backend.listTags(ws), query) }));
    return reply.type(JSON_TYPE).send(body);
  });
  app.patch('/tags/:tag_id', { config: { access: 'write' } }, async (req) => {
    const ws = bodyWorkspace(req);
    return { success: true, data: await backend.as(req.grant!.memberId).updateTag(ws, param(req, 'tag_id'), req.body) };
  });
  app.delete('/tags/:tag_id', { config: { access: 'write' } }, async (req) => {
    const { ws } = queryWorkspace(req);
    return { success: true, data: await backend.as(req.grant!.memberId).deleteTag(ws, param(req, 'tag_id')) };
  });
}
