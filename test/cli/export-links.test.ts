/**
 * The links of local exports (issue 12): without a server, `export create --email` attaches the
 * file, prints its local path and puts a file:// URL in `download_url`, never a link to a port
 * nothing listens on; with the profile's `public_url` naming a real `txa serve` on the same
 * ledger, the e-mail's link is that server's and it answers with the file. A real SMTP server
 * in-process, the built CLI, a real `txa serve`.
 */
import { describe, test, expect, beforeAll, afterAll } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sandbox } from '../helpers/cli.js';
import { startSmtp, type Mail } from '../helpers/smtp.js';
import { startServe, until, type ServeProcess } from '../server/serve-process.js';
import { Engine } from '../../src/engine/engine.js';
import { createWorkspace } from '../../src/engine/workspaces.js';
import { addWallets, addMany } from '../exports/seed.js';

let mails: Mail[] = [];
let stopSmtp: () => Promise<void>;

beforeAll(async () => {
  ({ mails, stop: stopSmtp } = await startSmtp());
});
afterAll(() => stopSmtp());

function seeded() {
  const s = sandbox();
  const engine = Engine.open(s.env.TXA_DB);
  const ws = createWorkspace(engine, { name: 'Links', tier: 'pro' }).id;
  addMany(engine, ws, addWallets(engine, ws, ['Main']), 20);
  engine.close();
  s.env.TXA_WORKSPACE = ws;
  return s;
}

const mailOf = (id: string) => mails.find((m) => m.raw.includes(id))!.raw;

describe('local export links', () => {
  test('no public URL: the mail attaches the file with no link, the CLI prints the local path, --json a file:// URL', async () => {
    const s = seeded();
    const r = await s.txa(['export', 'create', '--format', 'csv', '--email', 'cfo@example.com']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toMatch(/127\.0\.0\.1|download_url|https?:/);
    const id = /^id\t(\S+)$/m.exec(r.stdout)![1]!;
    const stored = join(`${s.env.TXA_DB}.files`, 'exports', `${id}.csv`);
    expect(r.stdout.split('\n')).toContain(`file\t${stored}`);
    expect(existsSync(stored)).toBe(true);

    const raw = mailOf(id);
    expect(raw).toMatch(/Content-Disposition: attachment; filename=.*\.csv/);
    expect(raw).toContain('The file is attached.');
    expect(raw).not.toMatch(/https?:\/\/|file:|The link expires/);

    const body = await s.json(['export', 'create', '--format', 'json', '--email', 'cfo@example.com']);
    expect(body.data.status).toBe('completed');
    expect(body.data.download_url).toBe(pathToFileURL(join(`${s.env.TXA_DB}.files`, 'exports', `${body.data.id}.json`)).href);
    expect(body.data.status_url).toBeUndefined();
  }, 60_000);

  test("the profile's public_url names a txa serve on the ledger: the mail's link is its own and downloads the file", async () => {
    const s = seeded();
    let srv: ServeProcess | undefined;
    try {
      srv = await startServe(s.env.TXA_DB);
      expect((await s.txa(['config', 'set', 'public_url', `${srv.url}/`])).exitCode).toBe(0);
      const body = await s.json(['export', 'create', '--format', 'csv', '--email', 'cfo@example.com']);
      const link = body.data.download_url as string;
      expect(link.startsWith(`${srv.url}/api/v1/exports/${body.data.id}/download?expires=`)).toBe(true);
      expect(body.data.status_url).toBe(`${srv.url}/api/v1/exports/${body.data.id}`);
      expect(mailOf(body.data.id).replace(/=\r\n/g, '')).toContain(link.replace(/=/g, '=3D'));

      const res = await fetch(link);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer())).toEqual(readFileSync(join(`${s.env.TXA_DB}.files`, 'exports', `${body.data.id}.csv`)));

      const r = await s.txa(['export', 'status', body.data.id]);
      expect(r.stdout.split('\n')).toContain(`download_url\t${link}`);
    } finally {
      await srv?.stop();
    }
  }, 60_000);

  test("txa serve takes the profile's public_url when --public-url is not given; the flag wins", async () => {
    const s = seeded();
    await s.txa(['config', 'set', 'public_url', 'https://ledger.example.com']);
    for (const [args, expected] of [
      [[], 'https://ledger.example.com'],
      [['--public-url', 'https://flag.example.com'], 'https://flag.example.com'],
    ] as const) {
      const srv = await startServe(s.env.TXA_DB, [...args], { TXA_CONFIG_DIR: s.env.TXA_CONFIG_DIR });
      try {
        // Written just after the listening line, which may arrive alone.
        await until(() => srv.stderr().includes('public URL'), 10_000, 'the public URL line');
        expect(srv.stderr()).toContain(`public URL ${expected}\n`);
      } finally {
        await srv.stop();
      }
    }
  }, 60_000);

  test("TXA_PUBLIC_URL names the server over the profile's public_url, for local links and txa serve; a value that is no http(s) URL is a usage error", async () => {
    const s = seeded();
    await s.txa(['config', 'set', 'public_url', 'https://profile.example.com']);
    const env = { TXA_PUBLIC_URL: 'https://env.example.com/' };
    const body = await s.json(['export', 'create', '--format', 'csv'], { env });
    expect(body.data.download_url).toMatch(new RegExp(`^https://env\\.example\\.com/api/v1/exports/${body.data.id}/download\\?expires=`));
    const srv = await startServe(s.env.TXA_DB, [], { TXA_CONFIG_DIR: s.env.TXA_CONFIG_DIR, ...env });
    try {
      await until(() => srv.stderr().includes('public URL'), 10_000, 'the public URL line');
      expect(srv.stderr()).toContain('public URL https://env.example.com\n');
    } finally {
      await srv.stop();
    }
    const bad = await s.txa(['export', 'list'], { env: { TXA_PUBLIC_URL: 'env.example.com' } });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('USAGE_ERROR (public_url)');
    expect(bad.stderr).toContain("TXA_PUBLIC_URL must be an http(s) URL, got 'env.example.com'");
  }, 60_000);

  test('config set public_url takes only an http(s) URL', async () => {
    const s = sandbox();
    const r = await s.txa(['config', 'set', 'public_url', 'txa.example.com']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('USAGE_ERROR (value)');
    expect((await s.txa(['config', 'get', 'public_url'])).exitCode).toBe(1);
  });
});
