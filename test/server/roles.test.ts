/**
 * The role table (src/server/permissions.ts, docs/server.md "Teams") against the API itself:
 * every operation of the OpenAPI document called in-process with a key of each role, refused
 * (403 INSUFFICIENT_PERMISSIONS naming the roles it needs) exactly where the table says; an
 * allowed call may still fail for its own reasons (a missing body field, an unknown id). The
 * table, the document and the server's routes hold the same operations, and a route the table
 * lacks stops the server from being built.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildServer } from '../../src/server/app.js';
import { LocalBackend } from '../../src/engine/local-backend.js';
import { openApiDocument } from '../../src/server/openapi.js';
import { PUBLIC, ROUTE_ROLES, rolesOf, routeKey } from '../../src/server/permissions.js';
import { ROLES, type Role } from '../../src/core/members.js';
import { acceptInvitation, inviteMember } from '../../src/engine/members.js';
import { WS, seedLedger, type Seeded } from './seed.js';

let s: Seeded;
let app: FastifyInstance;
const keys = {} as Record<Role, string>;
/** Every route the server added, as `METHOD /path` under the prefix (HEAD routes left out: they are their GET's). */
const served = new Set<string>();

/** Routes of the table that other work adds (scheduled reports); they are in the table before their routes exist. */
const ENTERED_AHEAD = new Set(['GET /schedules', 'POST /schedules', 'DELETE /schedules/:', 'POST /schedules/:/run']);

beforeAll(async () => {
  delete process.env.TXA_SMTP_URL;
  s = seedLedger();
  app = buildServer({ backend: new LocalBackend(s.engine), engine: s.engine, allowPrivateWebhooks: false });
  app.addHook('onRoute', (r) => {
    if (r.method !== 'HEAD' && r.prefix === '/api/v1') served.add(routeKey(String(r.method), r.routePath));
  });
  await app.ready();
  keys.admin = s.key('full');
  for (const role of ['contributor', 'viewer'] as const) {
    const invitation = await inviteMember(s.engine, WS, { email: `${role}@example.com`, role });
    keys[role] = acceptInvitation(s.engine, invitation.token, { email: `${role}@example.com` }).api_key.key;
  }
});
afterAll(async () => {
  await app.close();
  s.engine.close();
});

/** The document's operations: `[method, path]` with `{param}` paths. */
function operations(): [string, string][] {
  const paths = openApiDocument().paths as Record<string, Record<string, unknown>>;
  return Object.entries(paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => [m.toUpperCase(), path] as [string, string]));
}

/** A request for an operation: the key's workspace, made-up ids, a body naming the workspace. */
function requestOf(method: string, path: string, key: string): InjectOptions {
  const url = `/api/v1${path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'workspace_id' ? WS : name === 'token' ? 'txa_inv_unknown' : `${name}_unknown`))}?workspace_id=${WS}`;
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (path.endsWith('/attachments'))
    return { method: method as 'POST', url, headers: { ...headers, 'content-type': 'text/plain', 'x-file-name': 'a.txt' }, payload: 'x' };
  if (method === 'POST' || method === 'PATCH') return { method: method as 'POST', url, headers, payload: { workspace_id: WS } };
  return { method: method as 'GET', url, headers };
}

describe('the role table', () => {
  it('lists every route the server has and every operation of the document, and nothing else', () => {
    const documented = new Set(operations().map(([m, p]) => routeKey(m, p.replace(/\{\w+\}/g, ':x'))));
    const tabled = new Set(Object.keys(ROUTE_ROLES).map((k) => routeKey(k.split(' ')[0]!, k.split(' ')[1]!)));
    expect([...served].filter((r) => !tabled.has(r))).toEqual([]);
    expect([...served].filter((r) => !documented.has(r))).toEqual([]);
    expect([...documented].filter((r) => !served.has(r))).toEqual([]);
    // Only the routes entered ahead may be missing, until the work that adds them is merged.
    expect([...tabled].filter((r) => !served.has(r) && !ENTERED_AHEAD.has(r))).toEqual([]);
  });

  it('refuses to build a server with a route the table does not list', async () => {
    expect(() => rolesOf('GET', '/reports/:id')).toThrow(/no entry in the role table/);
    const extra = buildServer({ backend: new LocalBackend(s.engine), engine: s.engine, allowPrivateWebhooks: false });
    extra.register(async (a) => void a.get('/reports', { config: { access: 'read' } }, async () => ({})), { prefix: '/api/v1' });
    await expect(extra.ready()).rejects.toThrow(/GET \/reports has no entry in the role table/);
    await extra.close().catch(() => undefined);
  });

  it('every operation, with a key of each role: refused with 403 INSUFFICIENT_PERMISSIONS exactly where the table says', async () => {
    const wrong: string[] = [];
    let refusals = 0;
    for (const [method, path] of operations()) {
      const roles = rolesOf(method, path.replace(/\{\w+\}/g, ':x'));
      for (const role of ROLES) {
        const res = await app.inject(requestOf(method, path, keys[role]));
        const body = res.body ? JSON.parse(res.body) : {};
        const refused = res.statusCode === 403 && body.error?.code === 'INSUFFICIENT_PERMISSIONS';
        const expected = roles !== PUBLIC && !roles.includes(role);
        if (refused !== expected) wrong.push(`${role} ${method} ${path}: ${res.statusCode} ${body.error?.code ?? ''}`);
        if (refused) {
          refusals++;
          const names = roles === PUBLIC ? [] : roles.map((r) => r[0]!.toUpperCase() + r.slice(1));
          expect(body.error.message).toContain(names.length === 1 ? `requires the ${names[0]} role` : `requires the ${names.reverse().join(' or ')} role`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(refusals).toBeGreaterThan(20); // the walk reached the check, not only the handlers
  });

  it('says what docs/server.md "Teams" says: a viewer only reads, and not exports nor the event log that links them; a contributor all but the admin list', () => {
    const ops = operations().map(([m, p]) => `${m} ${p}`);
    const allowed = (role: Role) =>
      ops.filter((o) => {
        const [m, p] = o.split(' ');
        const roles = rolesOf(m!, p!.replace(/\{\w+\}/g, ':x'));
        return roles === PUBLIC || roles.includes(role);
      });
    const publicOps = ['GET /health', 'GET /openapi.json', 'GET /exports/{export_id}/download', 'POST /invitations/{token}/accept'];
    expect(allowed('admin')).toEqual(ops);
    const viewer = ops.filter(
      (o) =>
        (o.startsWith('GET ') && !o.startsWith('GET /exports') && !['GET /events', 'GET /workspaces/{workspace_id}/invitations'].includes(o)) ||
        publicOps.includes(o),
    );
    expect(allowed('viewer')).toEqual(viewer);
    const adminOnly = [
      'DELETE /tags/{tag_id}',
      'DELETE /wallets/{wallet_id}',
      'POST /webhooks',
      'DELETE /webhooks/{webhook_id}',
      'POST /periods',
      'POST /periods/reopen',
      'POST /lots/allocation',
      'DELETE /lots/openings/{import_id}',
      'POST /workspaces/{workspace_id}/members',
      'PATCH /workspaces/{workspace_id}/members/{member_id}',
      'DELETE /workspaces/{workspace_id}/members/{member_id}',
      'GET /workspaces/{workspace_id}/invitations',
      'DELETE /workspaces/{workspace_id}/invitations/{invitation_id}',
    ];
    // The scheduled-report routes are admin's wherever they are in the document (their parameters named as they may be).
    const shape = (o: string) => o.replace(/\{\w+\}/g, '{}');
    const schedules = ['POST /schedules', 'DELETE /schedules/{}', 'POST /schedules/{}/run'];
    const expected = [...adminOnly, ...ops.filter((o) => schedules.includes(shape(o)))];
    expect(ops.filter((o) => !allowed('contributor').includes(o)).sort()).toEqual(expected.sort());
    for (const schedule of ['POST /schedules', 'DELETE /schedules/:', 'POST /schedules/:/run']) {
      const [m, p] = schedule.split(' ');
      expect(rolesOf(m!, p!)).toEqual(['admin']);
    }
    expect(rolesOf('GET', '/schedules')).toEqual(ROLES);
  });

  it('names the roles an operation needs, and the narrower key level still applies', async () => {
    const del = await app.inject(requestOf('DELETE', '/tags/{tag_id}', keys.contributor));
    expect(JSON.parse(del.body).error).toEqual({
      code: 'INSUFFICIENT_PERMISSIONS',
      message: "this operation requires the Admin role; this key's member is a Contributor",
    });
    const post = await app.inject({ ...requestOf('POST', '/tags', keys.viewer), payload: { workspace_id: WS, name: 'x', type: 'income' } });
    expect(JSON.parse(post.body).error.message).toBe("this operation requires the Contributor or Admin role; this key's member is a Viewer");
    // An admin's read key: the role allows, the key's level does not.
    const read = s.key('read');
    const res = await app.inject({ ...requestOf('POST', '/tags', read), payload: { workspace_id: WS, name: 'x', type: 'income' } });
    expect([res.statusCode, JSON.parse(res.body).error.message]).toEqual([403, 'this API key has read access; the operation needs write']);
  });
});
