/**
 * `txa lots import|openings|remove-openings` as a user runs them (the built binary) against a
 * real `txa serve` on 127.0.0.1 and on the local ledger (docs/lots.md "Opening lots"): the same
 * lots and answers (ids and times aside), the same refusals with the same code, field and exit.
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
  const copy = join(l.dir, 'local.db');
  copyFileSync(l.path, copy);
  srv = await startServe(l.path);
  remote = sandbox({ TXA_BASE_URL: srv.url, TXA_API_KEY: l.key('write'), TXA_WORKSPACE: l.ws });
  local = sandbox({ TXA_DB: copy, TXA_WORKSPACE: l.ws });
}, 30_000);
afterAll(async () => {
  await srv?.stop();
});

const both = async (args: string[]) => Promise.all([remote.txa(args), local.txa(args)]);
const file = (name: string, text: string) => {
  for (const s of [remote, local]) writeFileSync(join(s.dir, name), text);
};
/** An answer without what differs between two ledgers: ids, times, actors. */
const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v), (k, x) => (['id', 'import_id', 'created_at', 'created_by', 'lot'].includes(k) ? '…' : x));

describe('txa lots import, remote and local', () => {
  it('adds the same lots, lists them, adds nothing again, and removes them', async () => {
    file('open.csv', 'wallet,asset,quantity,date_acquired,cost_basis,note\nAlpha,ETH,0.25,2022-11-01,300.00,carried\nGamma,ETH,2,2024-01-05,4000,\n');
    const [r, o] = await both(['lots', 'import', 'open.csv', '--json']);
    expect([r.exitCode, o.exitCode]).toEqual([0, 0]);
    const [rd, od] = [JSON.parse(r.stdout).data, JSON.parse(o.stdout).data];
    expect(plain(rd)).toEqual(plain(od));
    expect(rd.added.map((x: { wallet_label: string; quantity: string }) => [x.wallet_label, x.quantity])).toEqual([
      ['Alpha', '0.25'],
      ['Gamma', '2'],
    ]);
    expect(rd.source).toMatchObject({ format: 'opening-lots', file_name: 'open.csv' });
    const [ra, oa] = await both(['lots', 'import', 'open.csv', '--json']);
    expect([JSON.parse(ra.stdout).data.added, JSON.parse(oa.stdout).data.added]).toEqual([[], []]);
    const [rl, ol] = await both(['lots', 'openings', '--json']);
    expect(plain(JSON.parse(rl.stdout))).toEqual(plain(JSON.parse(ol.stdout)));
    const rr = await remote.txa(['lots', 'remove-openings', rd.import_id, '--json']);
    const or = await local.txa(['lots', 'remove-openings', od.import_id, '--json']);
    expect([JSON.parse(rr.stdout).data.removed, JSON.parse(or.stdout).data.removed]).toEqual([2, 2]);
  });

  it('refuses the same bad file with the same code, field and exit code', async () => {
    file('late.csv', 'wallet,asset,quantity,date_acquired,cost_basis,note\nAlpha,ETH,1,2023-05-01,10,\n');
    file('nocost.csv', 'wallet,asset,quantity,date_acquired\nAlpha,ETH,1,2022-05-01\n');
    for (const [args, code, field, exit] of [
      [['lots', 'import', 'late.csv'], 'INVALID_FIELD', 'line 2', 1],
      [['lots', 'import', 'nocost.csv'], 'INVALID_FIELD', 'line 1', 1],
      [['lots', 'import', 'none.csv'], 'IO_ERROR', 'file', 1],
      [['lots', 'remove-openings', 'opn_nope'], 'NOT_FOUND', 'import_id', 1],
    ] as [string[], string, string, number][]) {
      const [r, o] = await both([...args, '--json']);
      expect([r.exitCode, o.exitCode], args.join(' ')).toEqual([exit, exit]);
      const err = JSON.parse(r.stderr).error;
      expect([err.code, err.field], args.join(' ')).toEqual([code, field]);
      expect(JSON.parse(o.stderr).error, args.join(' ')).toEqual(err);
    }
    const [r, o] = await both(['lots', 'import', 'late.csv', '--allow-late', '--json']);
    expect([r.exitCode, o.exitCode]).toEqual([0, 0]);
  });
});
