/**
 * `txa members` in process (docs/server.md "Teams"), on the local ledger (its user is the owner,
 * an admin) and on a remote backend: a `txa serve` app listening on 127.0.0.1 in this process
 * over the same ledger, where the role table applies (a viewer's invite is exit 4) and accepting
 * needs no key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import * as list from '../../../src/cli/commands/members/list.js';
import * as invite from '../../../src/cli/commands/members/invite.js';
import * as update from '../../../src/cli/commands/members/update.js';
import * as remove from '../../../src/cli/commands/members/remove.js';
import * as accept from '../../../src/cli/commands/members/accept.js';
import * as invitations from '../../../src/cli/commands/members/invitations.js';
import * as revokeInvitation from '../../../src/cli/commands/members/revoke-invitation.js';
import * as createKey from '../../../src/cli/commands/keys/create.js';
import { tempLedger } from '../../helpers/in-process-ledger.js';
import { runInProcess } from '../../helpers/in-process.js';
import { Engine } from '../../../src/engine/engine.js';
import { LocalBackend } from '../../../src/engine/local-backend.js';
import { buildServer } from '../../../src/server/app.js';

let db: string;
let workspace: string;
let engine: Engine;
let app: FastifyInstance;
let baseUrl: string;

beforeAll(async () => {
  delete process.env.TXA_SMTP_URL;
  ({ db, workspace } = tempLedger());
  engine = Engine.open(db);
  app = buildServer({ backend: new LocalBackend(engine), engine, allowPrivateWebhooks: false });
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await app.close();
  engine.close();
});

const g = (json = false) => ({ db, workspace, json });

describe('txa members on the local ledger', () => {
  let token: string;

  it('invite without an SMTP server: the token printed once and a warning saying why no mail went out', async () => {
    const r = await runInProcess('txa members invite', invite.run, { email: 'ana@example.com', role: 'editor' }, g());
    expect(r.exitCode).toBe(0);
    token = /^token\t(txa_inv_\S+)$/m.exec(r.stdout)![1]!;
    expect(r.stdout).toMatch(/^role\tcontributor$/m);
    expect(r.stderr).toContain('not e-mailed: no SMTP server is configured');
    expect(r.stderr).toContain('txa members accept TOKEN --email ana@example.com');
  });

  it('accept prints the key alone on stdout; list shows the owner and the new member', async () => {
    const r = await runInProcess('txa members accept', accept.run, { token, email: 'ana@example.com' }, g());
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^txa_live_\S+\n$/);
    expect(r.stderr).toMatch(/Joined workspace \S+ as contributor/);
    const l = await runInProcess('txa members list', list.run, {}, g());
    expect(
      l.stdout
        .trim()
        .split('\n')
        .map((line) => line.split('\t').slice(1, 3)),
    ).toEqual([
      ['owner', 'admin'],
      ['ana@example.com', 'contributor'],
    ]);
  });

  it('update, invitations, revoke-invitation and remove, with --json giving the API body', async () => {
    const members = JSON.parse((await runInProcess('txa members list', list.run, {}, g(true))).stdout).data;
    const ana = members[1];
    const up = await runInProcess('txa members update', update.run, { id: ana.id, role: 'viewer' }, g(true));
    expect(JSON.parse(up.stdout)).toMatchObject({ success: true, data: { id: ana.id, role: 'viewer' } });
    const sent = JSON.parse((await runInProcess('txa members invite', invite.run, { email: 'bo@example.com', role: 'viewer' }, g(true))).stdout).data;
    const rv = await runInProcess('txa members revoke-invitation', revokeInvitation.run, { id: sent.id }, g(true));
    expect(JSON.parse(rv.stdout).data.status).toBe('revoked');
    const inv = await runInProcess('txa members invitations', invitations.run, {}, g());
    expect(inv.stdout).toMatch(new RegExp(`^${sent.id}\tbo@example.com\tviewer\trevoked\t`, 'm'));
    const rm = await runInProcess('txa members remove', remove.run, { id: ana.id, yes: true }, g(true));
    expect(JSON.parse(rm.stdout).data).toMatchObject({ id: ana.id, revoked_keys: 1 });
    const none = await runInProcess('txa members remove', remove.run, { id: ana.id }, g());
    expect([none.exitCode, none.stderr]).toEqual([2, expect.stringMatching(/^error: USAGE_ERROR \(yes\)/)]);
  });

  it('an unknown --role is a usage error naming the flag (exit 2); an address that is none is INVALID_FIELD (email); nothing stored', async () => {
    const before = JSON.parse((await runInProcess('txa members invitations', invitations.run, {}, g(true))).stdout).data.length;
    const role = await runInProcess('txa members invite', invite.run, { email: 'cy@example.com', role: 'owner' }, g());
    expect([role.exitCode, role.stdout]).toEqual([2, '']);
    expect(role.stderr).toMatch(/^error: USAGE_ERROR \(role\): --role must be one of admin, contributor, viewer, editor, got 'owner'/);
    const email = await runInProcess('txa members invite', invite.run, { email: 'cy at example', role: 'viewer' }, g());
    expect(email.exitCode).toBe(1);
    expect(email.stderr).toMatch(/^error: INVALID_FIELD \(email\): email must be an e-mail address; got 'cy at example'/);
    const after = JSON.parse((await runInProcess('txa members invitations', invitations.run, {}, g(true))).stdout).data.length;
    expect(after).toBe(before);
  });
});

describe('txa keys create --member', () => {
  it("makes a key of a member who lost theirs, which acts with the member's role; a removed member has none", async () => {
    const sent = JSON.parse((await runInProcess('txa members invite', invite.run, { email: 'kim@example.com', role: 'viewer' }, g(true))).stdout).data;
    const kim = JSON.parse((await runInProcess('txa members accept', accept.run, { token: sent.token, email: 'kim@example.com' }, g(true))).stdout).data.member;
    const made = await runInProcess('txa keys create', createKey.run, { access: 'full', member: kim.id }, g(true));
    const key = JSON.parse(made.stdout).data;
    expect(key.member_id).toBe(kim.id);
    const refused = await runInProcess('txa members invite', invite.run, { email: 'lee@example.com', role: 'viewer' }, { baseUrl, apiKey: key.key, workspace });
    expect([refused.exitCode, refused.stderr]).toEqual([4, expect.stringContaining("requires the Admin role; this key's member is a Viewer")]);
    await runInProcess('txa members remove', remove.run, { id: kim.id, yes: true }, g());
    const none = await runInProcess('txa keys create', createKey.run, { access: 'full', member: kim.id }, g());
    expect([none.exitCode, none.stderr]).toEqual([1, expect.stringMatching(/^error: MEMBER_NOT_FOUND \(member\): member mem_\w+ not found/)]);
  });
});

describe('txa members on a remote backend', () => {
  it('accepts with no key, lists with the member key, and a viewer inviting is refused with exit 4 naming the role', async () => {
    const ownerKey = (await runInProcess('txa keys create', createKey.run, { access: 'full' }, { db, workspace })).stdout.trim();
    const remote = { baseUrl, apiKey: ownerKey, workspace };
    const sent = await runInProcess('txa members invite', invite.run, { email: 'dee@example.com', role: 'viewer' }, { ...remote, json: true });
    expect(sent.exitCode).toBe(0);
    const token = JSON.parse(sent.stdout).data.token;
    const joined = await runInProcess('txa members accept', accept.run, { token, email: 'dee@example.com' }, { baseUrl, json: true });
    expect(joined.exitCode).toBe(0);
    const viewerKey = JSON.parse(joined.stdout).data.api_key.key;
    const l = await runInProcess('txa members list', list.run, {}, { baseUrl, apiKey: viewerKey, workspace });
    expect(l.stdout).toMatch(/\tdee@example.com\tviewer\t/);
    const refused = await runInProcess(
      'txa members invite',
      invite.run,
      { email: 'eli@example.com', role: 'viewer' },
      { baseUrl, apiKey: viewerKey, workspace },
    );
    expect(refused.exitCode).toBe(4);
    expect(refused.stderr).toMatch(/^error: INSUFFICIENT_PERMISSIONS: this operation requires the Admin role; this key's member is a Viewer/);
    const twice = await runInProcess('txa members accept', accept.run, { token, email: 'dee@example.com' }, { baseUrl });
    expect([twice.exitCode, twice.stderr]).toEqual([1, expect.stringMatching(/^error: INVITATION_NOT_PENDING/)]);
  });
});
