/**
 * `txa export create --delivery webhook --wait` on a real terminal (tmux): the ora spinner with its
 * bar while the job runs, the final ✔ line, and the signed `export.completed` POST it delivered,
 * verified with the secret `txa webhooks add` printed for the URL. Then a long local download's
 * progress, on a terminal and in a pipe.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { sandbox, BIN, type Sandbox } from '../helpers/cli.js';
import { inTerminal } from '../helpers/terminal.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Engine } from '../../src/engine/engine.js';
import { createWorkspace } from '../../src/engine/workspaces.js';
import { addWallets, addMany } from '../exports/seed.js';

/** The receiver holds each answer this long, so the spinner is on screen long enough to sample. */
const HOLD_MS = 1500;
const SPINNER = /^([⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]) export (exp_\w+) \[[#-]{20}\] (\d+)%/m;

const calls: Array<{ body: string; headers: IncomingHttpHeaders }> = [];
let server: Server;
let url: string;
let secret: string;
let sb: Sandbox;

beforeAll(async () => {
  sb = sandbox();
  const demo = await sb.txa(['demo', '--dir', 'reports']);
  expect(demo.exitCode).toBe(0);
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      calls.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      setTimeout(() => res.end(), HOLD_MS);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/export`;
  secret = (await sb.json(['webhooks', 'add', '--url', url, '--events', 'export.completed'])).data.secret;
}, 60_000);

afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('txa export create on a terminal', () => {
  it('shows the animated progress bar while running, then ✔ completed; exits 0; the receiver gets the signed event', async () => {
    const run = await inTerminal(`${BIN} export create --format pdf --report-type detailed --delivery webhook --webhook-url ${url} --wait`, {
      env: sb.env,
      cwd: sb.dir,
      until: /exit=\d/,
      timeoutMs: 30_000,
    });
    expect(run.screen).toMatch(/exit=0/);

    // While running: the spinner line with its bar, before any final line.
    const running = run.frames.filter((f) => SPINNER.test(f) && !/✔|✖/.test(f));
    expect(running.length).toBeGreaterThan(2);
    const glyphs = new Set(running.map((f) => SPINNER.exec(f)![1]));
    expect(glyphs.size).toBeGreaterThan(1); // it animates
    const id = SPINNER.exec(running[0]!)![2]!;
    const percents = running.map((f) => Number(SPINNER.exec(f)![3]));
    expect(percents.at(-1)).toBe(100); // the bar is full while the receiver holds its answer
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(running.at(-1)).toContain('[####################] 100% (2400/2400 rows)');

    // At the end: ora replaced the spinner with the completed line.
    expect(run.screen).toMatch(new RegExp(`^✔ export ${id} completed$`, 'm'));
    expect(run.screen).not.toMatch(SPINNER);
    expect(run.screen).not.toMatch(/hint:/); // the URL has a subscription

    expect(calls).toHaveLength(1);
    const event = new Webhook(secret).verify(calls[0]!.body, calls[0]!.headers as Record<string, string>);
    expect(event).toMatchObject({ event: 'export.completed', workspace_id: 'ws_demo_acme', export_id: id, format: 'pdf', transaction_count: 2400 });
    expect(calls[0]!.headers['webhook-id']).toBe((event as { event_id: string }).event_id);
  }, 60_000);
});

/**
 * A local download runs inside `export create`: past a second it shows the same spinner on a
 * terminal (an audit PDF of 10,000 rows takes several seconds), and nothing in a pipe or with --json.
 */
describe('a long local download', () => {
  const DOWNLOAD = /^([⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]) export pdf \[[#-]{20}\] (\d+)% \((\d+)\/10000 rows\)/m;
  let s: Sandbox;

  beforeAll(() => {
    s = sandbox();
    const engine = Engine.open(s.env.TXA_DB);
    const ws = createWorkspace(engine, { name: 'Audit', tier: 'enterprise' }).id;
    addMany(engine, ws, addWallets(engine, ws, ['Main', 'Cold']), 10_000);
    engine.close();
    s.env.TXA_WORKSPACE = ws;
  });

  it('shows progress on a terminal, then ✔ completed, and the file', async () => {
    const run = await inTerminal(`${BIN} export create --format pdf --report-type audit --out audit.pdf`, {
      env: s.env,
      cwd: s.dir,
      until: /exit=\d/,
      timeoutMs: 120_000,
    });
    expect(run.screen).toMatch(/exit=0/);
    const running = run.frames.filter((f) => DOWNLOAD.test(f) && !/✔|✖/.test(f));
    expect(running.length).toBeGreaterThan(1);
    const percents = running.map((f) => Number(DOWNLOAD.exec(f)![2]));
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(run.screen).toMatch(/^✔ export exp_\w+ completed$/m);
    expect(run.screen).not.toMatch(DOWNLOAD);
    expect(run.screen).toMatch(/^file\s+\S+\/audit\.pdf$/m);
    expect(existsSync(join(s.dir, 'audit.pdf'))).toBe(true);
  }, 180_000);

  it('in a pipe and with --json: nothing on stderr, the result alone on stdout', async () => {
    const piped = await s.txa(['export', 'create', '--format', 'pdf', '--report-type', 'audit', '--out', 'piped.pdf']);
    expect(piped.exitCode).toBe(0);
    expect(piped.stderr).toBe('');
    expect(piped.stdout).toMatch(/^id\texp_\w+\n/);
    const json = await s.txa(['export', 'create', '--format', 'pdf', '--report-type', 'audit', '--out', 'json.pdf', '--json']);
    expect(json.exitCode).toBe(0);
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout).data).toMatchObject({ status: 'completed', transaction_count: 10_000 });
  }, 180_000);
});
