/**
 * Members and invitations through the API in-process (docs/server.md "Teams"), with the e-mail
 * sent to a real SMTP server on 127.0.0.1: invite, the mail with its token, accept with the key
 * shown once, roles acting, events and actors; and what must be refused with nothing changed:
 * an invitation accepted twice, an expired or revoked one, another address, a second pending
 * invitation, a removed member's key, the last admin, an unknown role or an address that is none.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildServer } from '../../src/server/app.js';
import { LocalBackend } from '../../src/engine/local-backend.js';
import { OTHER_WS, WS, seedLedger, type Seeded } from './seed.js';
import { startSmtp, type Mail } from '../helpers/smtp.js';

let s: Seeded;
let app: FastifyInstance;
let admin: string;
let smtp: Awaited<ReturnType<typeof startSmtp>>;

beforeAll(async () => {
  smtp = await startSmtp();
  s = seedLedger();
  app = buildServer({ backend: new LocalBackend(s.engine), engine: s.engine, allowPrivateWebhooks: false });
  admin = s.key('full');
});
afterAll(async () => {
  await app.close();
  s.engine.close();
  await smtp.stop();
});
afterEach(() => {
  delete process.env.TXA_NOW;
});

async function call(key: string | null, opts: InjectOptions) {
  const headers = { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(opts.headers ?? {}) };
  const res = await app.inject({ ...opts, headers });
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined };
}
const members = `/api/v1/workspaces/${WS}/members`;
const invite = (email: string, role: string, key = admin) => call(key, { method: 'POST', url: members, payload: { email, role } });
const accept = (token: string, email: string) => call(null, { method: 'POST', url: `/api/v1/invitations/${token}/accept`, payload: { email } });
/** What a refusal must leave as it was. */
const state = () => JSON.stringify(['members', 'invitations', 'api_keys', 'events'].map((t) => s.engine.db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all()));
const mailTo = (email: string): Mail => smtp.mails.filter((m) => m.to.includes(email)).at(-1)!;
/** The token as the e-mail gives it (quoted-printable may fold long lines). */
const tokenIn = (mail: Mail) => /txa_inv_[0-9A-Za-z]+/.exec(mail.raw.replace(/=\r?\n/g, ''))![0];

describe('inviting and accepting', () => {
  let contributorKey: string;
  let contributorId: string;

  it('e-mails the invitation through the export SMTP settings, and accepting it makes the member and its key', async () => {
    const sent = await invite('Ana@Example.com ', 'editor');
    expect(sent.status).toBe(201);
    expect(sent.body.data).toMatchObject({ email: 'ana@example.com', role: 'contributor', status: 'pending', email_sent: true, email_error: null });
    expect(Date.parse(sent.body.data.expires_at) - Date.parse(sent.body.data.created_at)).toBe(7 * 86400_000);
    const mail = mailTo('ana@example.com');
    expect(mail.from).toBe('ledger@example.com');
    expect(mail.raw).toMatch(/Subject: You are invited to the txa workspace Main as\s+Contributor/);
    const token = tokenIn(mail);
    expect(token).toBe(sent.body.data.token);
    // Only the token's hash is kept.
    expect(JSON.stringify(s.engine.db.prepare('SELECT * FROM invitations').all())).not.toContain(token.slice(8));

    const joined = await accept(token, 'ana@example.com');
    expect(joined.status).toBe(201);
    expect(joined.body.data.member).toMatchObject({ email: 'ana@example.com', role: 'contributor', workspace_id: WS, removed_at: null });
    expect(joined.body.data.api_key.key).toMatch(/^txa_live_/);
    contributorKey = joined.body.data.api_key.key;
    contributorId = joined.body.data.member.id;
    const list = await call(contributorKey, { method: 'GET', url: members });
    expect(list.body.data.map((m: { email: string | null; name: string | null; role: string }) => [m.email ?? m.name, m.role])).toEqual([
      ['owner', 'admin'],
      ['ana@example.com', 'contributor'],
    ]);
    const invitations = await call(admin, { method: 'GET', url: `/api/v1/workspaces/${WS}/invitations` });
    expect(invitations.body.data[0]).toMatchObject({ email: 'ana@example.com', status: 'accepted', member_id: contributorId });
  });

  it('the member acts with its role and is the actor of its changes and of the member events', async () => {
    const tag = await call(contributorKey, { method: 'POST', url: '/api/v1/tags', payload: { workspace_id: WS, name: 'Payroll', type: 'expense' } });
    expect([tag.status, tag.body.data.created_by]).toEqual([201, contributorId]);
    const del = await call(contributorKey, { method: 'DELETE', url: `/api/v1/tags/${tag.body.data.id}` });
    expect([del.status, del.body.error.code, del.body.error.message]).toEqual([
      403,
      'INSUFFICIENT_PERMISSIONS',
      "this operation requires the Admin role; this key's member is a Contributor",
    ]);
    const events = await call(admin, { method: 'GET', url: `/api/v1/events?workspace_id=${WS}&type=member.joined` });
    expect(events.body.data[0].payload).toMatchObject({ event: 'member.joined', actor: contributorId, member: { id: contributorId } });
    const invited = await call(admin, { method: 'GET', url: `/api/v1/events?workspace_id=${WS}&type=member.invited` });
    const owner = (s.engine.db.prepare("SELECT id FROM members WHERE name = 'owner' AND workspace_id = ?").get(WS) as { id: string }).id;
    expect(invited.body.data[0].payload).toMatchObject({ actor: owner, invitation: { email: 'ana@example.com', role: 'contributor' } });
    expect(invited.body.data[0].payload.invitation.token).toBeUndefined();
  });

  it('an invitation accepted twice, with another address, expired or revoked: refused, nothing changed', async () => {
    const token = (await invite('bo@example.com', 'viewer')).body.data.token;
    let before = state();
    const wrong = await accept(token, 'eve@example.com');
    expect([wrong.status, wrong.body.error.code, wrong.body.error.field]).toEqual([403, 'FORBIDDEN', 'email']);
    expect(state()).toBe(before);
    expect((await accept(token, 'bo@example.com')).status).toBe(201);
    before = state();
    const twice = await accept(token, 'bo@example.com');
    expect([twice.status, twice.body.error.code]).toEqual([409, 'INVITATION_NOT_PENDING']);
    expect(state()).toBe(before);

    const late = (await invite('cy@example.com', 'viewer')).body.data;
    process.env.TXA_NOW = new Date(Date.parse(late.expires_at) + 1000).toISOString();
    before = state();
    const expired = await accept(late.token, 'cy@example.com');
    expect([expired.status, expired.body.error.code]).toEqual([410, 'INVITATION_EXPIRED']);
    expect(state()).toBe(before);
    const listed = await call(admin, { method: 'GET', url: `/api/v1/workspaces/${WS}/invitations` });
    expect(listed.body.data.find((i: { id: string }) => i.id === late.id).status).toBe('expired');
    // An expired invitation does not block a new one, and is not revocable.
    const again = await invite('cy@example.com', 'viewer');
    expect(again.status).toBe(201);
    expect((await call(admin, { method: 'DELETE', url: `/api/v1/workspaces/${WS}/invitations/${late.id}` })).body.error.code).toBe('INVITATION_NOT_PENDING');
    delete process.env.TXA_NOW;

    const revoked = await call(admin, { method: 'DELETE', url: `/api/v1/workspaces/${WS}/invitations/${again.body.data.id}` });
    expect([revoked.status, revoked.body.data.status]).toEqual([200, 'revoked']);
    before = state();
    expect((await accept(again.body.data.token, 'cy@example.com')).body.error.code).toBe('INVITATION_NOT_PENDING');
    expect((await accept('txa_inv_nope', 'cy@example.com')).body.error.code).toBe('INVITATION_NOT_FOUND');
    expect(state()).toBe(before);
  });

  it('a second pending invitation for one address is 400 INVITATION_EXISTS; a member already is 409', async () => {
    expect((await invite('di@example.com', 'viewer')).status).toBe(201);
    const before = state();
    const dup = await invite('DI@example.com', 'admin');
    expect([dup.status, dup.body.error.code, dup.body.error.field]).toEqual([400, 'INVITATION_EXISTS', 'email']);
    const member = await invite('ana@example.com', 'viewer');
    expect([member.status, member.body.error.code]).toEqual([409, 'MEMBER_ALREADY_EXISTS']);
    expect(state()).toBe(before);
  });

  it('an unknown role or an address that is none: the field named, nothing stored', async () => {
    const before = state();
    const role = await invite('ed@example.com', 'owner');
    expect([role.status, role.body.error.code, role.body.error.field]).toEqual([400, 'INVALID_FIELD', 'role']);
    expect(role.body.error.message).toContain('admin, contributor, viewer');
    const email = await invite('not-an-address', 'viewer');
    expect([email.status, email.body.error.code, email.body.error.field]).toEqual([400, 'INVALID_FIELD', 'email']);
    const missing = await call(admin, { method: 'POST', url: members, payload: { role: 'viewer' } });
    expect([missing.body.error.code, missing.body.error.field]).toEqual(['MISSING_REQUIRED_FIELD', 'email']);
    const patch = await call(admin, { method: 'PATCH', url: `${members}/${contributorId}`, payload: { role: 'boss' } });
    expect([patch.status, patch.body.error.field]).toEqual([400, 'role']);
    expect(state()).toBe(before);
  });

  it('only an admin manages members, and only in its own workspace', async () => {
    const r = await invite('fay@example.com', 'viewer', contributorKey);
    expect([r.status, r.body.error.code]).toEqual([403, 'INSUFFICIENT_PERMISSIONS']);
    const other = await call(admin, { method: 'GET', url: `/api/v1/workspaces/${OTHER_WS}/members` });
    expect([other.status, other.body.error.code]).toEqual([403, 'FORBIDDEN']);
  });
});

describe('changing and removing members', () => {
  it('a role change holds from the next request; a removed member is refused at once with its keys revoked', async () => {
    const token = (await invite('gil@example.com', 'viewer')).body.data.token;
    const joined = (await accept(token, 'gil@example.com')).body.data;
    const key = joined.api_key.key;
    const tag = { method: 'POST' as const, url: '/api/v1/tags', payload: { workspace_id: WS, name: 'Gil', type: 'income' } };
    expect((await call(key, tag)).status).toBe(403);
    const updated = await call(admin, { method: 'PATCH', url: `${members}/${joined.member.id}`, payload: { role: 'contributor' } });
    expect([updated.status, updated.body.data.role]).toEqual([200, 'contributor']);
    expect((await call(key, tag)).status).toBe(201);
    const removed = await call(admin, { method: 'DELETE', url: `${members}/${joined.member.id}` });
    expect(removed.body.data).toMatchObject({ id: joined.member.id, revoked_keys: 1, removed_at: expect.any(String) });
    const before = state();
    const refused = await call(key, { method: 'GET', url: `/api/v1/tags?workspace_id=${WS}` });
    expect([refused.status, refused.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
    expect((await call(admin, { method: 'DELETE', url: `${members}/${joined.member.id}` })).body.error.code).toBe('MEMBER_NOT_FOUND');
    expect(state()).toBe(before);
    const events = await call(admin, { method: 'GET', url: `/api/v1/events?workspace_id=${WS}&type=member.updated` });
    expect(events.body.data[0].payload.changes).toEqual({ role: { old: 'viewer', new: 'contributor' } });
    expect((await call(admin, { method: 'GET', url: `/api/v1/events?workspace_id=${WS}&type=member.removed` })).body.data).toHaveLength(1);
  });

  it('the last admin can be neither demoted nor removed; with a second admin, it can', async () => {
    const owner = (await call(admin, { method: 'GET', url: members })).body.data[0];
    const before = state();
    const demote = await call(admin, { method: 'PATCH', url: `${members}/${owner.id}`, payload: { role: 'viewer' } });
    expect([demote.status, demote.body.error.code]).toEqual([409, 'LAST_ADMIN']);
    const remove = await call(admin, { method: 'DELETE', url: `${members}/${owner.id}` });
    expect([remove.status, remove.body.error.code]).toEqual([409, 'LAST_ADMIN']);
    expect(state()).toBe(before);
    const token = (await invite('hal@example.com', 'admin')).body.data.token;
    const hal = (await accept(token, 'hal@example.com')).body.data;
    const down = await call(hal.api_key.key, { method: 'PATCH', url: `${members}/${owner.id}`, payload: { role: 'viewer' } });
    expect([down.status, down.body.data.role]).toEqual([200, 'viewer']);
    // The owner's keys now act as a viewer.
    expect((await invite('ivy@example.com', 'viewer')).body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
  });
});
