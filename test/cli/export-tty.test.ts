/**
 * `txa export create --delivery webhook --wait` on a real terminal (tmux): the ora spinner with its
 * bar while the job runs, the final ✔ line, and the signed `export.completed` POST it delivered,
 * verified with the secret `txa webhooks add` printed for the URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { sandbox, BIN, type Sandbox } from '../helpers/cli.js';
import { inTerminal } from '../helpers/terminal.js';

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
