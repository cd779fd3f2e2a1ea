/**
 * `txa lots` as a user runs it (the built binary) against a real `txa serve` on 127.0.0.1 and on
 * the local ledger: the same `--json` bodies, the same refusals with the same exit codes, and a
 * hand-made allocation file sent as the request's lines (docs/lots.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandbox, type Sandbox } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../server/serve-process.js';
import { lotsLedger, type LotsLedger } from '../lots/seed.js';

let l: LotsLedger;
let srv: ServeProcess;
let remote: Sandbox;
let local: Sandbox;

beforeAll(async () => {
  l = lotsLedger();
  const key = l.key('write');
  // The local run gets its own copy of the same ledger, so the two never see each other's writes.
  const copy = join(l.dir, 'local.db');
  copyFileSync(l.path, copy);
  srv = await startServe(l.path);
  remote = sandbox({ TXA_BASE_URL: srv.url, TXA_API_KEY: key, TXA_WORKSPACE: l.ws });
  local = sandbox({ TXA_DB: copy, TXA_WORKSPACE: l.ws });
}, 30_000);
afterAll(async () => {
  await srv?.stop();
});

const both = async (args: string[]) => Promise.all([remote.txa(args), local.txa(args)]);

describe('txa lots, remote and local', () => {
  it('lists the same open lots and computes the same allocation', async () => {
    for (const args of [
      ['lots', '--at', '2024-12-31', '--json'],
      ['lots', 'list', '--at', '2025-01-31', '--asset', 'ETH', '--json'],
      ['lots', 'allocate', '--order', 'hifo', '--dry-run', '--json'],
    ]) {
      const [r, o] = await both(args);
      expect([r.exitCode, o.exitCode], args.join(' ')).toEqual([0, 0]);
      expect(JSON.parse(r.stdout), args.join(' ')).toEqual(JSON.parse(o.stdout));
    }
    const [r] = await both(['lots', '--at', '2024-12-31']);
    expect(r.stdout.split('\n')[0]).toBe(`(pool)\tETH\t${l.ids.l1}\t0.5\t2023-01-10\t500.00`);
  });

  it('refuses the same bad input with the same code, field and exit code, and records nothing', async () => {
    const bad = join(remote.dir, 'bad.csv');
    writeFileSync(bad, `wallet,lot,quantity\nAlpha,${l.ids.l3},0.5\nBeta,${l.ids.l2},1.5\nGamma,${l.ids.l1},0.5\nGamma,${l.ids.l3},0.5\n`);
    copyFileSync(bad, join(local.dir, 'bad.csv'));
    for (const [args, code, field, exit] of [
      [['lots', 'allocate', '--specific', 'bad.csv'], 'INVALID_ALLOCATION', 'line 3', 1],
      // Not a day: refused by the CLI before any request, on both backends alike (docs/cli.md).
      [['lots', 'list', '--at', '2025-02-30'], 'USAGE_ERROR', 'at', 2],
      [['lots', 'allocate', '--at', 'tomorrow'], 'USAGE_ERROR', 'at', 2],
      [['lots', 'pick', l.ids.s25, l.ids.l2], 'INVALID_PICK', l.ids.l2, 1],
      [['lots', 'pick', 'tx_nope', l.ids.l2], 'TRANSACTION_NOT_FOUND', 'disposal_id', 1],
      [['lots', 'allocation'], 'NOT_FOUND', undefined, 1],
      [['lots', 'allocate', '--specific', 'none.csv'], 'IO_ERROR', 'specific', 1],
    ] as [string[], string, string | undefined, number][]) {
      const [r, o] = await both([...args, '--json']);
      expect([r.exitCode, o.exitCode], args.join(' ')).toEqual([exit, exit]);
      const err = JSON.parse(r.stderr).error;
      expect([err.code, err.field], args.join(' ')).toEqual([code, field]);
      expect(JSON.parse(o.stderr).error, args.join(' ')).toEqual(err);
    }
  });

  it('records an allocation and picks through the server; a second allocate is ALLOCATION_EXISTS', async () => {
    const file = join(remote.dir, 'alloc.csv');
    writeFileSync(file, `wallet,lot,quantity\nAlpha,${l.ids.l3},0.5\nBeta,${l.ids.l2},2\nGamma,${l.ids.l1},0.5\nGamma,${l.ids.l3},0.5\n`);
    const made = await remote.json(['lots', 'allocate', '--specific', 'alloc.csv']);
    expect(made.data).toMatchObject({ order: 'specific', recorded: true, recorded_by: expect.stringMatching(/^mem_/) });
    expect((await remote.json(['lots', 'allocation'])).data).toEqual(made.data);
    const again = await remote.txa(['lots', 'allocate']);
    expect([again.exitCode, again.stderr.split('\n')[0]]).toEqual([
      1,
      `error: ALLOCATION_EXISTS (replace): workspace ${l.ws} already has a recorded allocation`,
    ]);
    const picked = await remote.json(['lots', 'pick', l.ids.s25, `${l.ids.l1}:0.5`]);
    expect(picked.data.map((p: any) => [p.lot, p.quantity])).toEqual([[l.ids.l1, '0.5']]);
    expect((await remote.json(['lots', 'picks', l.ids.s25])).data).toEqual(picked.data);
    expect((await remote.json(['lots', 'unpick', l.ids.s25])).data).toEqual({ disposal_id: l.ids.s25, deleted: 1 });
  });
});
