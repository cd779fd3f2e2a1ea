/**
 * Transactions: list, get, update, tag, untag, and attachments (docs/reference/api.md "GET /api/v1/transactions"). An
 * attachment is the raw request body with its own Content-Type and `X-File-Name` (percent-encoded
 * UTF-8 is decoded), limited to 10 MB; its file is served back to key holders of the workspace.
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { TxaError } from '../../core/errors.js';
import type { RouteDeps } from '../deps.js';
import { JSON_TYPE, bodyWorkspace, param, queryOf, queryWorkspace, workspaceOf } from './helpers.js';
import { queryKey } from '../read-cache.js';
import { ATTACHMENT_MAX_BYTES } from '../../engine/transaction-edits.js';
import { findAttachment } from '../../store/attachments.js';

function fileNameHeader(value: string | string[] | undefined): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new TxaError('MISSING_REQUIRED_FIELD', 'the X-File-Name header is required', { field: 'X-File-Name' });
  }
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export function transactionRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { backend, engine, cache } = deps;
  app.get('/transactions', { config: { access: 'read' } }, async (req, reply) => {
    const { ws, query } = queryWorkspace(req, { required: true });
    const body = await cache.get(ws, queryKey('transactions', query), async () => ({ success: true, ...(await backend.listTransactions(ws, query)) }));
    return reply.type(JSON_TYPE).send(body);
  });
  app.get('/transactions/:transaction_id', { config: { access: 'read' } }, async (req) => {
    const { ws } = queryWorkspace(req);
    return { success: true, data: await backend.getTransaction(ws, param(req, 'transaction_id')) };
  });
  app.patch('/transactions/:transaction_id', { config: { access: 'write' } }, async (req) => {
    const ws = bodyWorkspace(req);
    return { success: true, data: await backend.as(req.grant!.memberId).updateTransaction(ws, param(req, 'transaction_id'), req.body) };
  });
  app.post('/transactions/:transaction_id/tags', { config: { access: 'write' } }, async (req) => {
    const ws = bodyWorkspace(req);
    return { success: true, data: await backend.as(req.grant!.memberId).tagTransaction(ws, param(req, 'transaction_id'), req.body) };
  });
  app.delete('/transactions/:transaction_id/tags/:tag_id', { config: { access: 'write' } }, async (req) => {
    const { ws } = queryWorkspace(req);
    return { success: true, data: await backend.as(req.grant!.memberId).untagTransaction(ws, param(req, 'transaction_id'), param(req, 'tag_id')) };
  });
  app.get('/transactions/:transaction_id/history', { config: { access: 'read' } }, async (req) => {
    const { ws } = queryWorkspace(req);
    return { success: true, data: await backend.transactionHistory(ws, param(req, 'transaction_id')) };
  });

  // Raw bodies of any type, in their own plugin so the JSON parser of the API does not apply.
  app.register(async (files) => {
    files.removeAllContentTypeParsers();
    files.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: ATTACHMENT_MAX_BYTES }, (_req, body, done) => done(null, body));
    files.post('/transactions/:transaction_id/attachments', { config: { access: 'write' }, bodyLimit: ATTACHMENT_MAX_BYTES }, async (req, reply) => {
      const ws = workspaceOf(req, queryOf(req).workspace_id);
      const data = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const attachment = await backend.as(req.grant!.memberId).attachFile(ws, param(req, 'transaction_id'), {
        file_name: fileNameHeader(req.headers['x-file-name']),
        content_type: req.headers['content-type'] ?? 'application/octet-stream',
        data,
      });
      return reply.code(201).send({ success: true, data: attachment });
    });
  });

  app.get('/attachments/:attachment_id', { config: { access: 'read' } }, async (req, reply) => {
    const ws = workspaceOf(req, queryOf(req).workspace_id);
    const row = findAttachment(engine.db, ws, param(req, 'attachment_id'));
    if (!row) throw new TxaError('ATTACHMENT_NOT_FOUND', `attachment ${param(req, 'attachment_id')} not found`);
    return (
      reply
        .type(row.content_type)
        .header('content-length', row.file_size)
        .header('x-content-type-options', 'nosniff')
        // The type is the uploader's: never let a browser run it as a page of this origin.
        .header('content-security-policy', "sandbox; default-src 'none'")
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(row.file_name)}`)
        .send(createReadStream(join(engine.filesDir, 'attachments', row.stored_name)))
    );
  });
}
