/**
 * `txa export create --delivery webhook` from the shell: the stderr hint when no subscription can
 * verify the call, and the order of completion and call: the record is `completed` (with its one
 * `export.completed` event) when the receiver gets the call, so a job killed (SIGKILL) during the
 * call leaves nothing to redo.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execa } from 'execa';
import { Webhook } from 'standardwebhooks';
import { sandbox, BIN, type Sandbox } from '../helpers/cli.js';
import { tempLedger, addWallets, addMany } from '../exports/seed.js';
import { recoverInterruptedJobs } from '../../src/engine/export-jobs.js';
import { getExport } from '../../src/engine/exports.js';
import { Engine } from '../../src/engine/engine.js';

interface Call {
  body: string;
  headers: IncomingHttpHeaders;
  res: ServerResponse;
}

/** Answers 200 at once, except while `hold` is set: then the answer waits (for a job to be killed). */
const receiver = { calls: [] as Call[], hold: false, server: undefined as unknown as Server, base: '' };
let sb: Sandbox;
let ledger: string;
let ws: string;

beforeAll(async () => {
  const seeded = tempLedger('pro');
  addMany(seeded.engine, seeded.ws, addWallets(seeded.engine, seeded.ws, ['Main']), 30);
  seeded.engine.close();
  ledger = seeded.path;
  ws = seeded.ws;
  sb = sandbox({ TXA_DB: ledger, TXA_WORKSPACE: ws });
  receiver.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.calls.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers, res });
      if (!receiver.hold) res.end();
    });
  });
  await new Promise<void>((r) => receiver.server.listen(0, '127.0.0.1', r));
  receiver.base = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
});

afterAll(() => {
  receiver.server.closeAllConnections();
  return new Promise<void>((r) => receiver.server.close(() => r()));
});

const create = (url: string, ...extra: string[]) => sb.txa(['export', 'create', '--format', 'csv', '--delivery', 'webhook', '--webhook-url', url, ...extra]);

describe('export create --delivery webhook', () => {
  it('hints on stderr how to get a secret while no subscription receives export.completed at the URL; not with --json', async () => {
    const url = `${receiver.base}/hint?a=1&b=2`;
    const plain = await create(url);
    expect(plain.exitCode).toBe(0);
    const hints = plain.stderr.split('\n').filter((l) => l.startsWith('hint:'));
    expect(hints).toEqual([
      `hint: to verify this export's signed call, subscribe its URL first (the secret is printed once): txa webhooks add --url '${url}' --events export.completed`,
    ]);
    const json = await create(url, '--json');
    expect(json.exitCode).toBe(0);
    expect(json.stderr).not.toMatch(/hint:/);

    // A subscription to other events does not count; one to export.completed does, and its secret verifies.
    await sb.json(['webhooks', 'add', '--url', url, '--events', 'tag.created']);
    expect((await create(url)).stderr).toMatch(/^hint:/m);
    const { secret } = (await sb.json(['webhooks', 'add', '--url', url, '--events', 'export.completed'])).data;
    const before = receiver.calls.length;
    const verified = await create(url);
    expect(verified.exitCode).toBe(0);
    expect(verified.stderr).not.toMatch(/hint:/);
    const call = receiver.calls[before]!;
    expect(new Webhook(secret).verify(call.body, call.headers as Record<string, string>)).toMatchObject({ event: 'export.completed', workspace_id: ws });
  }, 60_000);

  it('the export is completed, with its one event, before the call goes out: a job killed during the call leaves nothing to redo', async () => {
    const url = `${receiver.base}/crash`;
    receiver.hold = true;
    const before = receiver.calls.length;
    const child = execa(BIN, ['export', 'create', '--format', 'csv', '--delivery', 'webhook', '--webhook-url', url, '--json'], {
      env: sb.env,
      cwd: sb.dir,
      reject: false,
    });
    const deadline = Date.now() + 30_000;
    while (receiver.calls.length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const first = receiver.calls[before]!;
    const id = JSON.parse(first.body).export_id as string;
    // What a receiver reading the export on receipt sees (the CLI still waits for the answer).
    const status = await sb.json(['export', 'status', id]);
    expect(status.data).toMatchObject({ id, status: 'completed', download_url: expect.any(String) });
    child.kill('SIGKILL');
    await child;
    receiver.hold = false;
    first.res.end();

    const engine = Engine.open(ledger);
    try {
      expect(recoverInterruptedJobs(engine)).toEqual([]);
      expect(getExport(engine, ws, id).status).toBe('completed');
      const events = engine.db.prepare("SELECT id FROM events WHERE type = 'export.completed' AND subject_id = ?").pluck().all(id);
      expect(events).toEqual([first.headers['webhook-id']]);
      expect(receiver.calls).toHaveLength(before + 1);
    } finally {
      engine.close();
    }
  }, 60_000);

  it('on a terminal that reports no width (script(1)), the job ends with plain progress lines instead of spinning', async () => {
    const before = receiver.calls.length;
    const command = [BIN, 'export', 'create', '--format', 'csv', '--webhook-url', `${receiver.base}/pty`].map((a) => `'${a}'`).join(' ');
    // script gives the command a pty without a window size; -e passes its exit code on.
    const r = await execa('script', ['-qec', command, '/dev/null'], { env: { ...sb.env }, reject: false, timeout: 30_000, stdin: 'ignore' });
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toMatch(/100%/);
    expect(receiver.calls.length).toBe(before + 1);
  }, 40_000);
});
