/**
 * `txa lots` in process on the worked example (test/lots/seed.ts, docs/lots.md): the rows in a
 * pipe, `--json` bodies, the allocation file (`--specific`) and its refusals naming the line,
 * exit codes, and nothing written on a refusal.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import * as list from '../../../src/cli/commands/lots/list.js';
import * as allocate from '../../../src/cli/commands/lots/allocate.js';
import * as allocation from '../../../src/cli/commands/lots/allocation.js';
import * as pick from '../../../src/cli/commands/lots/pick.js';
import * as picks from '../../../src/cli/commands/lots/picks.js';
import * as unpick from '../../../src/cli/commands/lots/unpick.js';
import { runInProcess } from '../../helpers/in-process.js';
import { lotsLedger, type LotsLedger } from '../../lots/seed.js';

let l: LotsLedger;
let g: { db: string; workspace: string };
beforeEach(() => {
  l = lotsLedger();
  g = { db: l.path, workspace: l.ws };
  process.env.TXA_CONFIG_DIR = join(l.dir, 'config');
});

const file = (name: string, text: string) => {
  const path = join(l.dir, name);
  writeFileSync(path, text);
  return path;
};
const recorded = async () => (await runInProcess('txa lots allocation', allocation.run, {}, { ...g, json: true })).exitCode === 0;

describe('txa lots list', () => {
  it('in a pipe: a tab-separated row per lot (wallet, asset, lot, quantity, acquired, cost), the scope on stderr', async () => {
    const r = await runInProcess('txa lots list', list.run, { at: '2024-12-31' }, g);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      `(pool)\tETH\t${l.ids.l1}\t0.5\t2023-01-10\t500.00`,
      `(pool)\tETH\t${l.ids.l2}\t2\t2023-06-10\t3000.00`,
      `(pool)\tETH\t${l.ids.l3}\t1\t2024-03-10\t2500.00`,
      '',
    ]);
    expect(r.stderr).toBe('open lots at the end of 2024-12-31: pooled (one pool per asset, before 2025)\n');
    const w = await runInProcess('txa lots list', list.run, { at: '2025-01-31', wallet: l.wallets.beta }, g);
    expect(w.stdout).toBe(`Beta\tETH\t${l.ids.l2}\t2\t2023-06-10\t3000.00\n`);
    expect(w.stderr).toContain("per wallet, from the fifo order's allocation (none recorded)");
  });

  it('--json is the API body; a --at that is not a day is INVALID_PARAMETERS (at), exit 1', async () => {
    const r = await runInProcess('txa lots list', list.run, { at: '2025-01-31', asset: 'ETH' }, { ...g, json: true });
    expect(JSON.parse(r.stdout)).toMatchObject({ success: true, data: { at: '2025-01-31', scope: 'wallet', allocation: 'computed' } });
    const bad = await runInProcess('txa lots list', list.run, { at: '2024-12-32' }, g);
    expect([bad.exitCode, bad.stdout]).toEqual([1, '']);
    expect(bad.stderr).toBe("error: INVALID_PARAMETERS (at): at must be a valid date in the format YYYY-MM-DD, got '2024-12-32'\n");
  });
});

describe('txa lots allocate', () => {
  it('--dry-run records nothing; then records; again is ALLOCATION_EXISTS, exit 1; --replace records the other order', async () => {
    const dry = await runInProcess('txa lots allocate', allocate.run, { dryRun: true }, g);
    expect(dry.exitCode).toBe(0);
    expect(dry.stderr).toBe('allocation at 2025-01-01 (fifo order; pooled years filed fifo): dry run, not recorded\n');
    expect(dry.stdout.split('\n')).toEqual([
      `Alpha\tETH\t${l.ids.l1}\t0.5\t2023-01-10\t500.00`,
      `Beta\tETH\t${l.ids.l2}\t2\t2023-06-10\t3000.00`,
      `Gamma\tETH\t${l.ids.l3}\t1\t2024-03-10\t2500.00`,
      'Gamma\tETH\tmissing cost basis\t1\t\t',
      '',
    ]);
    expect(await recorded()).toBe(false);
    expect((await runInProcess('txa lots allocate', allocate.run, {}, g)).exitCode).toBe(0);
    const shown = await runInProcess('txa lots allocation', allocation.run, {}, g);
    expect(shown.stdout).toBe(dry.stdout);
    expect(shown.stderr).toMatch(/^allocation at 2025-01-01 \(fifo order; pooled years filed fifo\): recorded \S+ by cli\n$/);
    const again = await runInProcess('txa lots allocate', allocate.run, { order: 'hifo' }, g);
    expect(again.exitCode).toBe(1);
    expect(again.stderr.split('\n')[0]).toBe(`error: ALLOCATION_EXISTS (replace): workspace ${l.ws} already has a recorded allocation`);
    const replaced = await runInProcess('txa lots allocate', allocate.run, { order: 'hifo', replace: true }, { ...g, json: true });
    expect(JSON.parse(replaced.stdout).data).toMatchObject({ order: 'hifo', recorded: true, lines: expect.any(Array) });
  });

  it('--specific FILE records a hand-made allocation, wallets by label or id', async () => {
    const path = file(
      'alloc.csv',
      `Wallet,Lot,Quantity\nAlpha,${l.ids.l3},0.5\n${l.wallets.beta},${l.ids.l2},2\nGamma,${l.ids.l1},0.5\nGamma,${l.ids.l3},0.50\n`,
    );
    const r = await runInProcess('txa lots allocate', allocate.run, { specific: path }, { ...g, json: true });
    expect(r.exitCode).toBe(0);
    const data = JSON.parse(r.stdout).data;
    expect(data.order).toBe('specific');
    expect(data.lines.map((x: any) => [x.wallet_label, x.lot, x.quantity, x.cost_basis])).toEqual([
      ['Alpha', l.ids.l3, '0.5', 1250],
      ['Beta', l.ids.l2, '2', 3000],
      ['Gamma', l.ids.l1, '0.5', 500],
      ['Gamma', l.ids.l3, '0.5', 1250],
      ['Gamma', null, '1', null],
    ]);
  });

  it('a bad file: the line named, exit 1, nothing recorded', async () => {
    const cases: [string, string, string][] = [
      ['wallet,lot\nAlpha,x\n', 'line 1', 'line 1: the header lacks quantity; it must name the columns wallet,lot,quantity'],
      [`wallet,lot,quantity\nAlpha,${l.ids.l3},0.5\nBeta,${l.ids.l2},two\n`, 'line 3', "line 3: quantity must be a positive number, got 'two'"],
      [`wallet,lot,quantity\nAlpha,${l.ids.l3},\n`, 'line 2', 'line 2: quantity is empty'],
      [`wallet,lot,quantity\nDelta,${l.ids.l3},0.5\n`, 'line 2', "line 2: no wallet of the workspace has the id or label 'Delta'"],
      [
        `wallet,lot,quantity\nAlpha,${l.ids.l3},0.5\nBeta,${l.ids.l2},1.5\nGamma,${l.ids.l1},0.5\nGamma,${l.ids.l3},0.5\n`,
        'line 3',
        'line 3: wallet Beta holds 2 ETH at 2025-01-01; its lines assign 1.5, and the pool still has 0.5 to give',
      ],
      ['wallet,lot,quantity\n', 'specific', 'has no lines after its header'],
    ];
    for (const [text, field, message] of cases) {
      const r = await runInProcess('txa lots allocate', allocate.run, { specific: file('bad.csv', text) }, g);
      expect([r.exitCode, r.stdout], text).toEqual([1, '']);
      expect(r.stderr, text).toContain(`error: INVALID_ALLOCATION (${field}): `);
      expect(r.stderr, text).toContain(message);
      expect(await recorded()).toBe(false);
    }
    const json = await runInProcess('txa lots allocate', allocate.run, { specific: file('bad.csv', cases[1]![0]) }, { ...g, json: true });
    expect(JSON.parse(json.stderr)).toEqual({ success: false, error: { code: 'INVALID_ALLOCATION', field: 'line 3', message: cases[1]![2] } });
  });

  it('a file that cannot be read is IO_ERROR, exit 1; --order with --specific a usage error, exit 2', async () => {
    const missing = await runInProcess('txa lots allocate', allocate.run, { specific: join(l.dir, 'nope.csv') }, g);
    expect([missing.exitCode, missing.stderr]).toEqual([1, `error: IO_ERROR (specific): cannot read ${join(l.dir, 'nope.csv')}: no such file\n`]);
    const both = await runInProcess('txa lots allocate', allocate.run, { specific: 'x.csv', order: 'fifo' }, g);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toMatch(/^error: USAGE_ERROR \(order\): --order and --specific exclude each other/);
  });
});

describe('txa lots pick, picks, unpick', () => {
  it('records picks, lists them, removes them; refuses another wallet’s lot naming it', async () => {
    expect((await runInProcess('txa lots allocate', allocate.run, {}, g)).exitCode).toBe(0);
    const r = await runInProcess('txa lots pick', pick.run, { disposalId: l.ids.s25, lots: [`${l.ids.l3}:0.25`] }, g);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^${l.ids.s25}\\t${l.ids.l3}\\t0\\.25\\t\\S+\\tidentified after the sale\\n$`));
    const wrong = await runInProcess('txa lots pick', pick.run, { disposalId: l.ids.s25, lots: [l.ids.l2] }, g);
    expect([wrong.exitCode, wrong.stderr]).toEqual([
      1,
      `error: INVALID_PICK (${l.ids.l2}): lot ${l.ids.l2} is not open in wallet Gamma's ETH at the disposal ${l.ids.s25}\n`,
    ]);
    const more = await runInProcess('txa lots pick', pick.run, { disposalId: l.ids.s24, lots: [`${l.ids.l1}:1.5`] }, g);
    expect(more.exitCode).toBe(1);
    expect(more.stderr).toContain(`error: INVALID_PICK (${l.ids.l1}): lot ${l.ids.l1} holds 1 ETH in the pool of ETH at the disposal; the pick takes 1.5`);
    const listed = await runInProcess('txa lots picks', picks.run, {}, { ...g, json: true });
    expect(JSON.parse(listed.stdout).data).toHaveLength(1);
    const removed = await runInProcess('txa lots unpick', unpick.run, { disposalId: l.ids.s25 }, g);
    expect(removed.stdout).toBe(`1 pick of ${l.ids.s25} removed\n`);
    const none = await runInProcess('txa lots picks', picks.run, { disposalId: l.ids.s25 }, g);
    expect([none.stdout, none.stderr]).toEqual(['', 'no picks recorded\n']);
    const unknown = await runInProcess('txa lots picks', picks.run, { disposalId: 'tx_nope' }, g);
    expect([unknown.exitCode, unknown.stderr]).toEqual([1, 'error: TRANSACTION_NOT_FOUND (disposal_id): transaction tx_nope not found\n']);
  });
});
