/**
 * Wallets (docs/reference/api.md "Wallet"): list, add, rename, remove, and the sync run by serve's worker.
 * Changing wallets and syncing them need a `write` key, as tags do (docs/server.md).
 */
import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../deps.js';
import { JSON_TYPE, bodyWorkspace, param, queryWorkspace } from './helpers.js';
import { queryKey } from '../read-cache.js';

export function walletRoutes(app: FastifyInstance, { backend, cache }: RouteDeps): void {
  app.get('/wallets', { config: { access: 'read' } }, async (req, reply) => {
    const { ws, query } = queryWorkspace(req, { required: true });
    const body = await cache.get(ws, queryKey('wallets', query), async () => ({ success: true, ...(await backend.listWallets(ws, query)) }));
    return reply.type(JSON_TYPE).send(body);
  });
  app.post('/wallets', { config: { access: 'write' } }, async (req, reply) => {
    const ws = bodyWorkspace(req, { required: true });
    return reply.code(201).send({ success: true, data: await backend.as(req.grant!.memberId).createWallet(ws, req.body) });
  });
  app.patch('/wallets/:wallet_id', { config: { access: 'write' } }, async (req) => {
    const ws = bodyWorkspace(req);
    return { success: true, data: await backend.as(req.grant!.memberId).updateWallet(ws, param(req, 'wallet_id'), req.body) };
  });
  app.delete('/wallets/:wallet_id', { config: { access: 'write' } }, async (req) => {
    const { ws } = queryWorkspace(req);
    return { success: true, data: await backend.as(req.grant!.memberId).deleteWallet(ws, param(req, 'wallet_id')) };
  });
  // 202 also when a sync of the wallet is already queued or running: that one is the answer.
  app.post('/wallets/:wallet_id/sync', { config: { access: 'write' } }, async (req, reply) => {
    const ws = bodyWorkspace(req);
    return reply.code(202).send({ success: true, data: await backend.as(req.grant!.memberId).requestWalletSync(ws, param(req, 'wallet_id')) });
  });
  app.get('/wallets/:wallet_id/sync', { config: { access: 'read' } }, async (req) => {
    const { ws } = queryWorkspace(req);
    return { success: true, data: await backend.walletSyncStatus(ws, param(req, 'wallet_id')) };
  });
}
