/**
 * `txa workspace create` adopts the first workspace as the profile's default; `txa workspace
 * update` changes name, tier, base currency and rate limit on the local ledger, refusing bad values
 * with INVALID_FIELD and their field and changing nothing then.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandbox, type Sandbox } from '../helpers/cli.js';
import { Engine } from '../../src/engine/engine.js';
import { addTxs, addWallets } from '../exports/seed.js';

const profileOf = (s: Sandbox) => JSON.parse(readFileSync(join(s.env.TXA_CONFIG_DIR!, 'config.json'), 'utf8')).profiles.default;

describe('workspace create', () => {
  it("makes the new workspace the profile's default when the profile has none, and says so on stderr", async () => {
    const s = sandbox();
    const first = await s.txa(['workspace', 'create', 'Acme']);
    const id = /^(ws_\w+)\t/.exec(first.stdout)?.[1];
    expect(first.stderr).toBe(`Profile 'default' had no default workspace; it now uses ${id}.\ncreated ledger ${s.env.TXA_DB}`);
    expect(profileOf(s).workspace).toBe(id);
    expect((await s.txa(['tags', 'list'])).exitCode).toBe(0); // no -w needed now
    // A second one leaves the default alone.
    const second = (await s.json(['workspace', 'create', 'Other'])).data.id;
    expect(profileOf(s).workspace).toBe(id);
    expect((await s.txa(['workspace', 'create', 'Third'])).stderr).toMatch(/^Make it the default with: txa workspace use ws_/);
    expect(second).not.toBe(id);
  });

  it('with --json it adopts it too and keeps stderr empty', async () => {
    const s = sandbox();
    const r = await s.txa(['workspace', 'create', 'Acme', '--json']);
    expect(r.stderr).toBe('');
    expect(profileOf(s).workspace).toBe(JSON.parse(r.stdout).data.id);
  });
});

describe('workspace create refuses bad values: a value no flag takes is USAGE_ERROR (exit 2), one the tier refuses INVALID_FIELD (exit 1); nothing created', () => {
  it.each([
    [['--tier', 'gold'], 2, "USAGE_ERROR (tier): --tier must be one of free, pro, enterprise, got 'gold'"],
    [['--currency', 'EURO'], 2, "USAGE_ERROR (currency): --currency must be a three-letter currency code such as USD, got 'EURO'"],
    [['--tier', 'enterprise', '--rate-limit', '0'], 2, 'USAGE_ERROR (rate-limit)'],
    [['--tier', 'enterprise', '--rate-limit', '1e3'], 2, 'USAGE_ERROR (rate-limit)'],
    [['--rate-limit', '100'], 1, 'INVALID_FIELD (rate-limit)'], // free has its fixed limits
  ])('%j → exit %i, %s', async (args, exit, head) => {
    const s = sandbox();
    const r = await s.txa(['workspace', 'create', 'Books', ...(args as string[])]);
    expect([r.exitCode, r.stdout]).toEqual([exit, '']);
    expect(r.stderr.startsWith(`error: ${head}`), r.stderr).toBe(true);
    // The ledger this command would have created is not left behind.
    expect(existsSync(s.env.TXA_DB!)).toBe(false);
  });
});

describe('workspace update', () => {
  let s: Sandbox;
  let ws: string;
  let held: string;
  let withTx: string;

  beforeAll(async () => {
    s = sandbox();
    ws = (await s.json(['workspace', 'create', 'Books'])).data.id;
    held = (await s.json(['workspace', 'create', 'Held', '--currency', 'EUR'])).data.id;
    withTx = (await s.json(['workspace', 'create', 'With a row'])).data.id;
    const engine = Engine.open(s.env.TXA_DB!);
    addTxs(engine, withTx, addWallets(engine, withTx, ['Main']), [{ wallet: 0, day: '2025-01-02', amount: '1', fiat: '10.00', direction: 'inflow' }]);
    engine.close();
    const rates = join(s.dir, 'rates.csv');
    writeFileSync(rates, 'date,currency,rate\n2025-01-02,USD,1.03\n');
    const r = await s.txa(['-w', held, 'rates', 'import', rates]);
    expect(r.exitCode, r.stderr).toBe(0);
  });

  const workspaces = async () => (await s.json(['workspace', 'list'])).data;

  it('changes name, tier, currency and rate limit; the JSON body is the workspace; no event is logged', async () => {
    const events = (await s.json(['-w', ws, 'events', 'list'])).data;
    const body = await s.json(['workspace', 'update', ws, '--name', 'Books 2025', '--tier', 'enterprise', '--rate-limit', '5000', '--currency', 'eur']);
    expect(body).toEqual({
      success: true,
      data: expect.objectContaining({ id: ws, name: 'Books 2025', tier: 'enterprise', base_currency: 'EUR', rate_limit: 5000 }),
    });
    expect((await workspaces()).find((w: { id: string }) => w.id === ws)).toEqual(body.data);
    expect((await s.json(['-w', ws, 'events', 'list'])).data).toEqual(events);
  });

  it('leaving enterprise drops the rate limit; a table on the way', async () => {
    const r = await s.txa(['workspace', 'update', ws, '--tier', 'pro']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^${ws}\\tBooks 2025\\tpro\\tEUR\\tus\\t\\t`));
  });

  it.each([
    [['--name', '  '], 'INVALID_FIELD (name)', 1],
    [['--tier', 'gold'], 'USAGE_ERROR (tier)', 2],
    [['--currency', 'EURO'], 'USAGE_ERROR (currency)', 2],
    [['--rate-limit', '0'], 'USAGE_ERROR (rate-limit)', 2],
    [['--rate-limit', '1e3'], 'USAGE_ERROR (rate-limit)', 2],
    [['--rate-limit', '100'], 'INVALID_FIELD (rate-limit)', 1], // pro has its fixed limits
    [['--tier', 'free', '--rate-limit', '100'], 'INVALID_FIELD (rate-limit)', 1],
  ])('%j → %s, nothing changed', async (args, head, exit) => {
    const before = await workspaces();
    const r = await s.txa(['workspace', 'update', ws, ...(args as string[])]);
    expect([r.exitCode, r.stdout]).toEqual([exit, '']);
    expect(r.stderr.startsWith(`error: ${head}: `)).toBe(true);
    expect(await workspaces()).toEqual(before);
  });

  it('the base currency of a workspace holding rates or transactions stays: its values are in it', async () => {
    const before = await workspaces();
    const r = await s.txa(['workspace', 'update', held, '--currency', 'USD', '--name', 'Renamed']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `^error: INVALID_FIELD \\(currency\\): workspace ${held} holds transactions or rates in EUR; a new base currency would relabel them without converting\\n`,
      ),
    );
    expect(await workspaces()).toEqual(before);
    const tx = await s.txa(['workspace', 'update', withTx, '--currency', 'EUR']);
    expect(tx.stderr).toMatch(/^error: INVALID_FIELD \(currency\): .* holds transactions or rates in USD/);
    expect(await workspaces()).toEqual(before);
    // The same code is fine.
    expect((await s.json(['workspace', 'update', held, '--currency', 'eur'])).data.base_currency).toBe('EUR');
  });

  it('usage errors: nothing to change (exit 2), an unknown id (exit 1), a remote backend (LOCAL_ONLY)', async () => {
    const none = await s.txa(['workspace', 'update', ws]);
    expect([none.exitCode, none.stderr]).toEqual([
      2,
      'error: USAGE_ERROR (name): nothing to change: pass --name, --tier, --currency, --jurisdiction or --rate-limit',
    ]);
    const unknown = await s.txa(['workspace', 'update', 'ws_nope', '--name', 'X']);
    expect([unknown.exitCode, unknown.stderr]).toEqual([1, expect.stringMatching(/^error: WORKSPACE_NOT_FOUND: workspace ws_nope not found/)]);
    const remote = await s.txa(['--base-url', 'http://127.0.0.1:9', 'workspace', 'update', ws, '--name', 'X']);
    expect(remote.stderr).toMatch(/^error: LOCAL_ONLY: txa workspace update works on the local ledger only/);
  });
});
