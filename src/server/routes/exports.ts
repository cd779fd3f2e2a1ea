/**
 * Exports: create, status, list, cancel, and the signed download link (docs/exports.md "Links and expiry"). The link
 * alone is the credential, like a presigned URL, so the download route takes no key.
 */
import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { verifyDownloadToken } from '../../engine/exports.js';
import type { RouteDeps } from '../deps.js';
import { assertPublicUrl } from '../url-guard.js';
import { bodyWorkspace, param, queryOf, queryWorkspace } from './helpers.js';

export function exportRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { backend } = deps;
  app.post('/exports', { config: { access: 'full' } }, async (req, reply) => {
    const ws = bodyWorkspace(req, { required: true });
    const target = (req.body as { delivery?: { webhook_url?: unknown } } | undefined)?.delivery?.webhook_url;
    if (!deps.allowPrivateWebhooks && typeof target === 'string') assertPublicUrl(target, 'delivery.webhook_url');
    const record = await backend.createExport(ws, req.body);
    return reply.code(record.status === 'queued' ? 202 : 201).send({ success: true, data: record });
  });
  app.get('/exports', { config: { access: 'read' } }, async (req) => {
    const { ws, query } = queryWorkspace(req, { required: true });
    return { success: true, ...(await backend.listExports(ws, query)) };
  });
  app.get('/exports/:export_id', { config: { access: 'read' } }, async (req) => {
    const { ws } = queryWorkspace(req);
    return { success: true, data: await backend.getExport(ws, param(req, 'export_id')) };
  });
  // Cancelling changes an export like creating one does: full access. The body may be empty.
  app.post('/exports/:export_id/cancel', { config: { access: 'full' } }, async (req) => {
    const ws = bodyWorkspace(req);
    return { success: true, data: await backend.cancelExport(ws, param(req, 'export_id')) };
  });
  app.get('/exports/:export_id/download', { config: { access: 'public' } }, async (req, reply) => {
    const q = queryOf(req);
    const file = verifyDownloadToken(deps.engine, param(req, 'export_id'), q.expires ?? '', q.token ?? '');
    return reply
      .type(file.contentType)
      .header('content-length', file.size)
      .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.fileName)}`)
      .header('cache-control', 'private, no-store')
      .send(createReadStream(file.path));
  });
}
