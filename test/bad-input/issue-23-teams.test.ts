/**
 * Issue 23's "Bad input" and the refusals of its "Reliability" (docs/server.md "Teams",
 * "Scheduled reports"): each run as the user runs it (the CLI in process with `--json`, or the HTTP
 * API of a `txa serve` app over the same ledger), held to its code and field, a message naming the
 * field or value, and a ledger left exactly as it was (every table, test/bad-input/snapshot.ts).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as accept from '../../src/cli/commands/members/accept.js';
import * as invite from '../../src/cli/commands/members/invite.js';
import * as remove from '../../src/cli/commands/members/remove.js';
import * as update from '../../src/cli/commands/members/update.js';
import * as create from '../../src/cli/commands/schedules/create.js';
import { Engine } from '../../src/engine/engine.js';
import { createKey } from '../../src/engine/keys.js';
import { LocalBackend } from '../../src/engine/local-backend.js';
import { updateWorkspace } from '../../src/engine/workspaces.js';
import { buildServer } from '../../src/server/app.js';
import { tempLedger } from '../helpers/in-process-ledger.js';
import { runInProcess } from '../helpers/in-process.js';
import { type CliRun, refusedIn, snapshot } from './snapshot.js';

let db: string;
let workspace: string;
let engine: Engine;
let app: FastifyInstance;

const json = () => ({ db, workspace, json: true });
/** Each served request counts against its key's quota (api_usage): the one table a refused request may touch. */
const USAGE = ['api_usage'];
const refused = (run: () => Promise<CliRun>) => refusedIn(db, run, USAGE);
const inviting = (email: string, role: string) => runInProcess('txa members invite', invite.run, { email, role }, json());
const accepting = (token: string, email: string) => runInProcess('txa members accept', accept.run, { token, email }, json());

beforeAll(() => {
  delete process.env.TXA_SMTP_URL;
  ({ db, workspace } = tempLedger((e, ws) => {
    updateWorkspace(e, ws, { tier: 'pro' });
  }));
  engine = Engine.open(db);
  app = buildServer({ backend: new LocalBackend(engine), engine, allowPrivateWebhooks: false });
});
afterAll(async () => {
  await app.close();
  engine.close();
});
afterEach(() => {
  delete process.env.TXA_NOW;
});

/** One call to the served API, as a client makes it. */
async function call(key: string | null, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) {
  const res = await app.inject({ method, url, payload: payload as never, headers: key ? { authorization: `Bearer ${key}` } : {} });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

describe('issue 23: schedules create', () => {
  const base = { name: 'Monthly', every: 'monthly', format: 'csv', email: 'books@example.com' };
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ['an unknown frequency', { ...base, every: 'hourly' }, 'every', /^every must be one of daily, weekly, monthly, quarterly/],
    [
      'a past-only time zone name',
      { ...base, timeZone: 'US/Pacific-New' },
      'time_zone',
      /^'US\/Pacific-New' is not a time zone .*its current name is America\/Los_Angeles/,
    ],
    [
      'a report type CSV does not take',
      { ...base, reportType: 'summary' },
      'report_type',
      /^report_type summary is written as PDF, not CSV; CSV exports take /,
    ],
    ['a report type PDF does not take', { ...base, format: 'pdf', reportType: 'turbotax' }, 'report_type', /^report_type turbotax is written as CSV, not PDF/],
    ['an e-mail that is not one', { ...base, email: 'books.example.com' }, 'delivery.email_recipients', /^'books\.example\.com' is not an e-mail address/],
  ];
  for (const [what, opts, field, message] of cases) {
    it(`${what}: INVALID_FIELD (${field}) naming the value, exit 1, nothing stored`, async () => {
      const { exit, error } = await refused(() => runInProcess('txa schedules create', create.run, opts as never, json()));
      expect([exit, error.code, error.field]).toEqual([1, 'INVALID_FIELD', field]);
      expect(error.message).toMatch(message);
    });
  }

  it('a webhook URL the outbound guard refuses (POST /api/v1/schedules on serve): 400 INVALID_FIELD (delivery.webhook_url), nothing stored', async () => {
    const key = createKey(engine, workspace, { name: 'admin', access: 'full' }).key;
    const body = { workspace_id: workspace, name: 'Monthly', every: 'monthly', format: 'csv' };
    for (const url of ['http://169.254.169.254/latest/meta-data', 'http://[::ffff:7f00:1]/x', 'http://2130706433/x', 'http://svc.localhost./x']) {
      const before = snapshot(db, USAGE);
      const r = await call(key, 'POST', '/api/v1/schedules', { ...body, delivery: { method: 'webhook', webhook_url: url } });
      expect([url, r.status, r.body.error.code, r.body.error.field]).toEqual([url, 400, 'INVALID_FIELD', 'delivery.webhook_url']);
      expect(r.body.error.message).toMatch(/private|loopback|local/i);
      expect(snapshot(db, USAGE)).toEqual(before);
    }
  });
});

describe('issue 23: members and invitations', () => {
  it('an unknown role: USAGE_ERROR (role) from the CLI (exit 2), INVALID_FIELD (role) from the API; nothing stored', async () => {
    const cli = await refused(() => inviting('ed@example.com', 'owner'));
    expect([cli.exit, cli.error.code, cli.error.field]).toEqual([2, 'USAGE_ERROR', 'role']);
    expect(cli.error.message).toBe("--role must be one of admin, contributor, viewer, editor, got 'owner'");
    const key = createKey(engine, workspace, { name: 'admin 2', access: 'full' }).key;
    const before = snapshot(db, USAGE);
    const api = await call(key, 'POST', `/api/v1/workspaces/${workspace}/members`, { email: 'ed@example.com', role: 'owner' });
    expect([api.status, api.body.error.code, api.body.error.field]).toEqual([400, 'INVALID_FIELD', 'role']);
    expect(snapshot(db, USAGE)).toEqual(before);
  });

  it('an e-mail that is not one: INVALID_FIELD (email) quoting it, exit 1, nothing stored', async () => {
    for (const email of ['not-an-address', 'a@b', 'a b@example.com']) {
      const { exit, error } = await refused(() => inviting(email, 'viewer'));
      expect([email, exit, error.code, error.field]).toEqual([email, 1, 'INVALID_FIELD', 'email']);
      expect(error.message).toBe(`email must be an e-mail address; got '${email}'`);
    }
  });

  it('an invitation accepted twice: the second INVITATION_NOT_PENDING, nothing changed', async () => {
    const token = JSON.parse((await inviting('ana@example.com', 'viewer')).stdout).data.token;
    expect((await accepting(token, 'ana@example.com')).exitCode).toBe(0);
    const { exit, error } = await refused(() => accepting(token, 'ana@example.com'));
    expect([exit, error.code]).toEqual([1, 'INVITATION_NOT_PENDING']);
    expect(error.message).toMatch(/accepted/);
  });

  it('an expired link (TXA_NOW past its 7 days): INVITATION_EXPIRED, nothing changed', async () => {
    const sent = JSON.parse((await inviting('bo@example.com', 'viewer')).stdout).data;
    process.env.TXA_NOW = new Date(Date.parse(sent.expires_at) + 1000).toISOString();
    const { exit, error } = await refused(() => accepting(sent.token, 'bo@example.com'));
    expect([exit, error.code]).toEqual([1, 'INVITATION_EXPIRED']);
    expect(error.message).toMatch(/expired/);
  });

  it("a removed member's key: 401 on a read and on a write, nothing changed", async () => {
    const token = JSON.parse((await inviting('cy@example.com', 'contributor')).stdout).data.token;
    const joined = JSON.parse((await accepting(token, 'cy@example.com')).stdout).data;
    const key = joined.api_key.key;
    expect((await call(key, 'GET', `/api/v1/tags?workspace_id=${workspace}`)).status).toBe(200);
    const gone = await runInProcess('txa members remove', remove.run, { id: joined.member.id, yes: true } as never, json());
    expect(gone.exitCode).toBe(0);
    const before = snapshot(db, USAGE);
    const read = await call(key, 'GET', `/api/v1/tags?workspace_id=${workspace}`);
    const write = await call(key, 'POST', '/api/v1/tags', { workspace_id: workspace, name: 'After removal', type: 'income' });
    expect([read.status, read.body.error.code, write.status, write.body.error.code]).toEqual([401, 'UNAUTHORIZED', 401, 'UNAUTHORIZED']);
    // Nor can the removed member be changed back by its id.
    const again = await refused(() => runInProcess('txa members update', update.run, { id: joined.member.id, role: 'viewer' }, json()));
    expect([again.exit, again.error.code]).toEqual([1, 'MEMBER_NOT_FOUND']);
    expect(snapshot(db, USAGE)).toEqual(before);
  });
});
