/**
 * Usage errors of docs/architecture.md "Output and exit codes" found before any request, each `error: USAGE_ERROR (field): …`
 * (or the JSON error body with --json) and exit 2: commander's own parse errors, `--db` against a
 * remote selection, an unparsable TXA_NOW, a profile that is not in the config file, and the
 * delivery flags of `export create`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { sandbox, type Sandbox } from '../helpers/cli.js';

const usage = (field: string, message: string | RegExp) => ({
  exitCode: 2,
  stderr: expect.stringMatching(
    new RegExp(`^error: USAGE_ERROR \\(${field}\\): ${typeof message === 'string' ? message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : message.source}`),
  ),
});
const failed = (r: { exitCode: number; stderr: string }) => ({ exitCode: r.exitCode, stderr: r.stderr });

describe("commander's parse errors", () => {
  const s = sandbox();

  it('unknown option, unknown command, missing option value, too many arguments, missing argument', async () => {
    expect(failed(await s.txa(['tags', 'list', '--bogus']))).toEqual(usage('bogus', "unknown option '--bogus'"));
    expect(failed(await s.txa(['--bogus', 'tags', 'list']))).toEqual(usage('bogus', "unknown option '--bogus'"));
    const missing = await s.txa(['tags', 'list', '-w']);
    expect(failed(missing)).toEqual(usage('workspace', "option '-w, --workspace <id>' argument missing"));
    expect(failed(await s.txa(['export', 'create']))).toEqual(usage('format', "required option '--format <format>' not specified"));
    expect(failed(await s.txa(['tx', 'get']))).toEqual(usage('id', "missing required argument 'id'"));

    const unknown = await s.txa(['frobnicate']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(/^error: USAGE_ERROR: unknown command 'frobnicate'\nSee `txa --help`\.$/);
    const extra = await s.txa(['-w', 'ws_x', 'tags', 'list', 'extra']);
    expect(extra.exitCode).toBe(2);
    expect(extra.stderr).toBe("error: USAGE_ERROR: too many arguments for 'list'. Expected 0 arguments but got 1.\nSee `txa tags list --help`.");
    // A near miss keeps commander's suggestion, on the hint line.
    expect((await s.txa(['tags', 'list', '--jsn'])).stderr).toBe(
      "error: USAGE_ERROR (jsn): unknown option '--jsn'\nDid you mean --json? See `txa tags list --help`.",
    );
  });

  it('with --json the error body goes to stderr, nothing to stdout', async () => {
    for (const args of [
      ['--json', 'tags', 'list', '--bogus'],
      ['tags', 'list', '--json', '--bogus'],
    ]) {
      const r = await s.txa(args);
      expect([r.exitCode, r.stdout]).toEqual([2, '']);
      expect(JSON.parse(r.stderr)).toEqual({ success: false, error: { code: 'USAGE_ERROR', message: "unknown option '--bogus'", field: 'bogus' } });
    }
    const r = await s.txa(['--json', 'nope']);
    expect(JSON.parse(r.stderr)).toEqual({ success: false, error: { code: 'USAGE_ERROR', message: "unknown command 'nope'" } });
  });

  it('--help and --version still answer on stdout with exit 0', async () => {
    for (const args of [['--help'], ['tags', '--help'], ['tags', 'list', '--help'], ['help', 'tags']]) {
      const r = await s.txa(args);
      expect([r.exitCode, r.stderr], args.join(' ')).toEqual([0, '']);
      expect(r.stdout).toMatch(/^Usage: txa/);
    }
    const v = await s.txa(['tags', '--version']);
    expect([v.exitCode, v.stdout.trim()]).toEqual([0, expect.stringMatching(/^\d+\.\d+\.\d+/)]);
  });
});

describe('--db selects the local backend (flag > environment > profile)', () => {
  const s = sandbox();
  const db = join(s.dir, 'flag.db');

  it('beats TXA_BASE_URL and a profile base_url; with --remote or --base-url it is a usage error', async () => {
    const viaEnv = await s.txa(['--db', db, '-w', 'ws_x', 'tags', 'list'], { env: { TXA_BASE_URL: 'http://127.0.0.1:9', TXA_API_KEY: 'x' } });
    // A read creates no ledger: the local one was chosen, and its file is not there (LEDGER_NOT_FOUND).
    expect([viaEnv.exitCode, viaEnv.stderr]).toEqual([1, expect.stringMatching(/^error: LEDGER_NOT_FOUND \(db\): no ledger at /)]);
    await s.txa(['config', 'set', 'base_url', 'http://127.0.0.1:9']);
    const created = await s.txa(['--db', db, 'workspace', 'create', 'Flag', '--json']);
    const viaProfile = await s.txa(['--db', db, 'workspace', 'list', '--json']);
    expect([viaProfile.exitCode, JSON.parse(viaProfile.stdout).data]).toEqual([0, [JSON.parse(created.stdout).data]]);

    const both = 'selects the local ledger; it cannot be combined with --remote or --base-url';
    expect(failed(await s.txa(['--db', db, '--remote', 'tags', 'list']))).toEqual(usage('db', `--db ${both}`));
    expect(failed(await s.txa(['--base-url', 'http://127.0.0.1:9', '--db', db, 'workspace', 'list']))).toEqual(usage('db', `--db ${both}`));
  });

  it('LOCAL_ONLY says --db helps only when the base URL is not from a flag', async () => {
    const env = await s.txa(['workspace', 'list'], { env: { TXA_BASE_URL: 'http://127.0.0.1:9' } });
    expect([env.exitCode, env.stderr.split('\n')[1]]).toEqual([2, 'TXA_BASE_URL selects the remote API: pass --db PATH to use a local ledger.']);
    const profile = await s.txa(['workspace', 'list']); // the profile's base_url set above
    expect(profile.stderr.split('\n')[1]).toBe("The base_url of profile 'default' selects the remote API: pass --db PATH to use a local ledger.");
    const flag = await s.txa(['--base-url', 'http://127.0.0.1:9', 'workspace', 'list']);
    expect([flag.exitCode, flag.stderr.split('\n')[1]]).toEqual([
      2,
      "Run it without --remote/--base-url, and with --db PATH (the base_url of profile 'default' selects the remote API too).",
    ]);
    await s.txa(['config', 'unset', 'base_url']);
    const only = await s.txa(['--remote', 'workspace', 'list']);
    expect([only.exitCode, only.stderr.split('\n')[1]]).toEqual([2, 'Run it without --remote/--base-url.']);
  });
});

describe('TXA_NOW', () => {
  const s = sandbox();

  it('an unparsable value is a usage error naming it; a day or a time with its offset works', async () => {
    for (const bad of ['garbage', '2026-02-30', '2026-01-02T10:00:00', '1']) {
      expect(failed(await s.txa(['workspace', 'list'], { env: { TXA_NOW: bad } })), bad).toEqual(usage('TXA_NOW', `TXA_NOW must be an ISO 8601 time`));
    }
    const json = await s.txa(['workspace', 'list', '--json'], { env: { TXA_NOW: 'garbage' } });
    expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'USAGE_ERROR', field: 'TXA_NOW' });
    const good = [
      ['2026-01-02', '2026-01-02T00:00:00Z'],
      ['2026-01-02T10:00:00Z', '2026-01-02T10:00:00Z'],
      ['2026-01-02T10:00:00.5+02:00', '2026-01-02T08:00:00Z'],
    ];
    for (const [now, createdAt] of good) {
      const created = await s.json(['workspace', 'create', `at ${now}`], { env: { ...s.env, TXA_NOW: now! } });
      expect(created.data.created_at).toBe(createdAt);
    }
  });

  it('txa serve refuses to start with it', async () => {
    const r = await s.txa(['serve', '--port', '0'], { env: { TXA_NOW: 'garbage' }, timeout: 15_000 });
    expect(failed(r)).toEqual(usage('TXA_NOW', 'TXA_NOW must be'));
  });
});

describe('--profile / TXA_PROFILE', () => {
  const s = sandbox();

  it('a profile not in the config file is a usage error listing the existing ones', async () => {
    await s.txa(['--profile', 'work', 'config', 'set', 'workspace', 'ws_work']); // config set creates it
    await s.txa(['config', 'set', 'workspace', 'ws_default']);
    const flag = await s.txa(['--profile', 'wrok', 'tags', 'list']);
    expect(failed(flag)).toEqual(usage('profile', "profile 'wrok' (from --profile) is not in the config file"));
    expect(flag.stderr.split('\n')[1]).toMatch(/^Profiles in it: work, default\. Create it with `txa --profile wrok config set KEY VALUE`/);
    const env = await s.txa(['config', 'list'], { env: { TXA_PROFILE: 'wrok' } });
    expect(failed(env)).toEqual(usage('TXA_PROFILE', "profile 'wrok' (from TXA_PROFILE) is not in the config file"));

    // Existing ones work, and `default` is always there.
    expect((await s.json(['--profile', 'work', 'config', 'list'])).data).toEqual({ profile: 'work', values: { workspace: 'ws_work' } });
    expect((await s.json(['config', 'list'], { env: { ...s.env, TXA_PROFILE: 'default' } })).data.profile).toBe('default');
    expect((await sandbox().txa(['--profile', 'default', 'config', 'list'])).exitCode).toBe(0);
  });

  it('txa login creates it: it gets past the profile check to the server', async () => {
    const r = await s.txa(['--profile', 'new', '--base-url', 'http://127.0.0.1:9', '-w', 'ws_x', 'login', '--with-token'], {
      input: 'txa_live_x',
      stdin: 'pipe',
    });
    expect([r.exitCode, r.stderr]).toEqual([1, expect.stringMatching(/^error: CONNECTION_ERROR: cannot reach the txa API/)]);
  });
});

describe('export create: --email and --webhook-url imply the delivery', () => {
  let s: Sandbox;
  let server: Server;
  let url: string;
  const posts: string[] = [];

  beforeAll(async () => {
    s = sandbox();
    const ws = (await s.json(['workspace', 'create', 'Acme', '--tier', 'pro'])).data.id;
    await s.txa(['config', 'set', 'workspace', ws]);
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        posts.push(body);
        res.end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });

  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('--webhook-url alone delivers by webhook', async () => {
    const r = await s.txa(['export', 'create', '--format', 'csv', '--webhook-url', url, '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).data).toMatchObject({ status: 'completed', delivery: { method: 'webhook', webhook_url: url } });
    expect(posts).toHaveLength(1);
  });

  it('--email alone asks for e-mail delivery (here refused: no SMTP server is configured)', async () => {
    const r = await s.txa(['export', 'create', '--format', 'csv', '--email', 'ops@example.com', '--json'], { env: { TXA_SMTP_URL: '' } });
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stderr).error).toMatchObject({ code: 'INVALID_FIELD', field: 'delivery.method' });
  });

  it('--delivery download with either, or both without --delivery, is a usage error', async () => {
    const base = ['export', 'create', '--format', 'csv'];
    expect(failed(await s.txa([...base, '--delivery', 'download', '--email', 'ops@example.com']))).toEqual(
      usage('delivery', '--delivery download cannot be combined with --email'),
    );
    expect(failed(await s.txa([...base, '--delivery', 'download', '--webhook-url', url]))).toEqual(
      usage('delivery', '--delivery download cannot be combined with --webhook-url'),
    );
    expect(failed(await s.txa([...base, '--email', 'ops@example.com', '--webhook-url', url]))).toEqual(
      usage('delivery', '--email with --webhook-url needs --delivery email or --delivery webhook'),
    );
    expect(posts).toHaveLength(1);
  });

  it('the help says so', async () => {
    const help = (await s.txa(['export', 'create', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('--email <a,b> recipients; implies --delivery email');
    expect(help).toContain('implies --delivery webhook');
  });
});

describe('wallet add --exchange and import --wallet-id', () => {
  const s = sandbox();

  it('--exchange with --chain or --address, an unknown exchange, neither form, and two different wallets', async () => {
    const w = ['-w', 'ws_x'];
    expect(failed(await s.txa([...w, 'wallet', 'add', '--exchange', 'coinbase', '--chain', 'ethereum']))).toEqual(
      usage('chain', '--exchange takes no --chain: an exchange account has no address or chain'),
    );
    expect(failed(await s.txa([...w, 'wallet', 'add', '--exchange', 'ftx']))).toEqual(
      usage('exchange', "--exchange must be one of coinbase, kraken, binance, gemini, other, got 'ftx'"),
    );
    expect(failed(await s.txa([...w, 'wallet', 'add', '--label', 'X']))).toEqual(
      usage('address', '--address is required (or --xpub KEY on bitcoin, or --exchange NAME for an exchange account)'),
    );
    expect(failed(await s.txa([...w, 'import', 'f.csv', '--wallet', 'wal_a', '--wallet-id', 'wal_b']))).toEqual(
      usage('wallet-id', "--wallet and --wallet-id name different wallets ('wal_a', 'wal_b'); give one"),
    );
  });
});
