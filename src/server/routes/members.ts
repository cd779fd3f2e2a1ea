/**
 * Members and invitations (docs/server.md "Teams"): GET|POST /workspaces/:workspace_id/members,
 * PATCH|DELETE /workspaces/:workspace_id/members/:member_id, GET /workspaces/:workspace_id/invitations,
 * DELETE /workspaces/:workspace_id/invitations/:invitation_id, and POST /invitations/:token/accept,
 * where the token is the credential (no key). Who may call which is the role table's
 * (permissions.ts); the changes act as the request's member.
 */
import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from '../deps.js';
import { param, workspaceOf } from './helpers.js';

export function memberRoutes(app: FastifyInstance, { backend }: RouteDeps): void {
  const ws = (req: Parameters<typeof workspaceOf>[0]) => workspaceOf(req, param(req, 'workspace_id'));
  const as = (req: Parameters<typeof workspaceOf>[0]) => backend.as(req.grant!.memberId);

  app.get('/workspaces/:workspace_id/members', { config: { access: 'read' } }, async (req) => ({ success: true, data: await backend.listMembers(ws(req)) }));
  app.post('/workspaces/:workspace_id/members', { config: { access: 'full' } }, async (req, reply) => {
    return reply.code(201).send({ success: true, data: await as(req).inviteMember(ws(req), req.body ?? {}) });
  });
  app.patch('/workspaces/:workspace_id/members/:member_id', { config: { access: 'full' } }, async (req) => {
    return { success: true, data: await as(req).updateMember(ws(req), param(req, 'member_id'), req.body ?? {}) };
  });
  app.delete('/workspaces/:workspace_id/members/:member_id', { config: { access: 'full' } }, async (req) => {
    return { success: true, data: await as(req).removeMember(ws(req), param(req, 'member_id')) };
  });
  app.get('/workspaces/:workspace_id/invitations', { config: { access: 'read' } }, async (req) => ({
    success: true,
    data: await backend.listInvitations(ws(req)),
  }));
  app.delete('/workspaces/:workspace_id/invitations/:invitation_id', { config: { access: 'full' } }, async (req) => {
    return { success: true, data: await as(req).revokeInvitation(ws(req), param(req, 'invitation_id')) };
  });
  app.post('/invitations/:token/accept', { config: { access: 'public' } }, async (req, reply) => {
    return reply.code(201).send({ success: true, data: await backend.acceptInvitation(param(req, 'token'), req.body ?? {}) });
  });
}
