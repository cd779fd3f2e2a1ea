/**
 * Opening lots (docs/lots.md "Opening lots"; docs/accounting.md example 22), on the local backend
 * and the CLI's command. Figures by hand: 1 ETH bought 2023-03-01 for 1,600.00, carried into
 * wallet A (no row of that purchase); A sells 0.4 ETH on 2024-06-01 for 1,400.00. The sale takes
 * 0.4 of the lot: cost 0.4 × 1,600.00 = 640.00, gain 1,400.00 − 640.00 = 760.00; held from
 * 2023-03-01 to 2024-06-01, more than a year: long term. Left: 0.6 ETH costing 960.00.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.js';
import { LocalBackend } from '../../src/engine/local-backend.js';
import { createWorkspace } from '../../src/engine/workspaces.js';
import { addWallet } from '../../src/engine/wallets.js';
import { importFile } from '../../src/engine/imports.js';
import { createExport, downloadExport } from '../../src/engine/exports.js';
import { closePeriod } from '../../src/engine/periods.js';
import { negativeBalances } from '../../src/checks/kinds.js';
import { isOpeningRow, openingLotsFor } from '../../src/engine/opening-rows.js';
import { rowsBefore } from '../../src/engine/lot-ledger.js';
import * as importCmd from '../../src/cli/commands/lots/import.js';
import * as openingsCmd from '../../src/cli/commands/lots/openings.js';
import { txaRejectionOf } from '../helpers/errors.js';
import { runInProcess } from '../helpers/in-process.js';

const WS = 'ws_open';
const HEADER = 'wallet,asset,quantity,date_acquired,cost_basis,note';
const LOT = 'A,ETH,1,2023-03-01,1600.00,bought on an exchange';
let dir: string;
let path: string;
let wallet: string;
let b: LocalBackend;

/** Wallet A with one row: 0.4 ETH out on 2024-06-01 for 1,400.00 (and a second wallet B with no rows). */
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'txa-open-'));
  path = join(dir, 'ledger.db');
  const engine = Engine.open(path);
  createWorkspace(engine, { id: WS, name: 'Open', tier: 'pro' });
  const address = `0x${'a'.repeat(40)}`;
  wallet = addWallet(engine, WS, { address, chain: 'ethereum', label: 'A' }).id;
  addWallet(engine, WS, { address: `0x${'b'.repeat(40)}`, chain: 'ethereum', label: 'B' });
  const row = {
    tx_hash: `0x${'1'.padStart(64, '0')}`,
    timestamp: '2024-06-01T12:00:00Z',
    amount: '0.4',
    token: { symbol: 'ETH', address: null, decimals: 18 },
    direction: 'outflow',
    from_address: address,
    to_address: `0x${'9'.repeat(40)}`,
    fiat_value: 1400,
  };
  writeFileSync(join(dir, 'sale.ndjson'), `${JSON.stringify(row)}\n`);
  importFile(engine, WS, join(dir, 'sale.ndjson'), { walletId: wallet });
  engine.close();
  b = LocalBackend.open(path);
});
afterEach(async () => {
  await b.close();
});

const csv = (...lines: string[]) => `${[HEADER, ...lines].join('\n')}\n`;

async function taxLines(year: string) {
  const rec = await createExport(b.engine, WS, { format: 'json', report_type: 'tax', filters: { start_date: `${year}-01-01`, end_date: `${year}-12-31` } });
  const doc = JSON.parse(readFileSync(downloadExport(b.engine, WS, rec.id, join(dir, `${rec.id}.json`)).path, 'utf8'));
  return doc.lots as Record<string, unknown>[];
}

describe('opening lots: example 22', () => {
  it('22. A carried-in lot is the cost of a later sale: gain 760.00, long term', async () => {
    const res = await b.importOpeningLots(WS, { csv: csv(LOT), file_name: 'closing.csv' });
    expect(res.added).toHaveLength(1);
    const lot = res.added[0]!;
    expect(lot).toMatchObject({ wallet_id: wallet, wallet_label: 'A', asset: 'ETH', quantity: '1', date_acquired: '2023-03-01', cost_basis: 1600, line: 2 });
    expect(lot.id).toMatch(/^lot_/);
    const lines = await taxLines('2024');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      date_acquired: '2023-03-01',
      date_sold: '2024-06-01',
      quantity: '0.4',
      proceeds: 1400,
      cost_basis: 640,
      gain_loss: 760,
      term: 'long',
      acquired_transaction_id: lot.id,
    });
    // What is left, pooled at the end of 2024: 0.6 ETH costing 960.00.
    const held = await b.listLots(WS, { at: '2024-12-31' });
    expect(held.lots.map((l) => [l.lot, l.quantity, l.cost_basis, l.date_acquired])).toEqual([[lot.id, '0.6', 960, '2023-03-01']]);
  });

  it('is no transaction: lists and summaries hold the one chain row', async () => {
    await b.importOpeningLots(WS, { csv: csv(LOT) });
    const page = await b.listTransactions(WS, {});
    expect(page.data.map((t) => t.amount)).toEqual(['0.4']);
    expect((await b.listOpeningLots(WS)).map((l) => l.quantity)).toEqual(['1']);
  });

  it('its history: lots.imported with the source and the actor', async () => {
    const text = csv(LOT);
    const res = await b.importOpeningLots(WS, { csv: text, file_name: 'closing.csv' });
    const { createHash } = await import('node:crypto');
    const sha256 = createHash('sha256').update(text).digest('hex');
    expect(res.source).toEqual({ format: 'opening-lots', file_name: 'closing.csv', sha256 });
    const events = (await b.listEvents(WS, { type: 'lots.imported' })).data;
    expect(events).toHaveLength(1);
    expect(events[0]!.payload).toMatchObject({
      actor: 'cli',
      import_id: res.import_id,
      source: { format: 'opening-lots', file_name: 'closing.csv', sha256 },
      lots: [res.added[0]!.id],
    });
  });

  it('re-importing the same file adds nothing; two equal lines are two lots', async () => {
    const first = await b.importOpeningLots(WS, { csv: csv(LOT, 'B,ETH,2,2023-01-01,10,x', 'B,ETH,2,2023-01-01,10,x') });
    expect(first.added).toHaveLength(3);
    const again = await b.importOpeningLots(WS, { csv: csv(LOT, 'B,ETH,2,2023-01-01,10,x', 'B,ETH,2,2023-01-01,10,x') });
    expect(again.added).toEqual([]);
    expect(again.skipped.map((s) => s.lot)).toEqual(first.added.map((l) => l.id));
    expect(await b.listOpeningLots(WS)).toHaveLength(3);
    expect((await b.listEvents(WS, { type: 'lots.imported' })).data).toHaveLength(1);
  });

  it('a wallet whose first row is an outflow its opening lot covers has no negative balance; without the lot it has', async () => {
    expect(negativeBalances(b.engine.db, WS, {}).count).toBe(1);
    const late = await b.importOpeningLots(WS, { csv: csv('A,ETH,0.4,2024-06-02,100,'), allow_late: true });
    // Dated after the outflow, it does not cover it.
    expect(negativeBalances(b.engine.db, WS, {}).count).toBe(1);
    await b.removeOpeningLots(WS, late.import_id);
    await b.importOpeningLots(WS, { csv: csv('A,ETH,0.4,2024-05-31,100,') });
    expect(negativeBalances(b.engine.db, WS, {}).count).toBe(0);
  });

  it('is a synthetic inflow in the ledger’s stream, before the rows of later days', async () => {
    const res = await b.importOpeningLots(WS, { csv: csv(LOT) });
    const rows = [...rowsBefore(b.engine, WS, Date.parse('2025-01-01T00:00:00Z') / 1000)].map((r) => r.tx);
    expect(rows.map((r) => [r.id, r.timestamp, r.direction, r.amount, r.fiat_cents, isOpeningRow(r)])).toEqual([
      [res.added[0]!.id, '2023-03-01T00:00:00Z', 'inflow', '1', 160000n, true],
      [rows[1]!.id, '2024-06-01T12:00:00Z', 'outflow', '0.4', 140000n, false],
    ]);
    // Before its day it is not there.
    expect([...rowsBefore(b.engine, WS, Date.parse('2023-03-01T00:00:00Z') / 1000)]).toEqual([]);
  });

  it('goes with its wallet', async () => {
    await b.importOpeningLots(WS, { csv: csv(LOT, 'B,ETH,2,2023-01-01,10,x') });
    const other = (await b.listOpeningLots(WS)).find((o) => o.wallet_label === 'B')!.wallet_id;
    await b.deleteWallet(WS, other);
    expect((await b.listOpeningLots(WS)).map((o) => o.wallet_label)).toEqual(['A']);
    expect((await taxLines('2024'))[0]).toMatchObject({ cost_basis: 640 });
  });

  it('removes one import’s lots', async () => {
    const res = await b.importOpeningLots(WS, { csv: csv(LOT) });
    expect(await b.removeOpeningLots(WS, res.import_id)).toEqual({ import_id: res.import_id, removed: 1 });
    expect(await b.listOpeningLots(WS)).toEqual([]);
    expect((await taxLines('2024'))[0]).toMatchObject({ cost_basis: null, acquired_transaction_id: null });
    expect(await txaRejectionOf(b.removeOpeningLots(WS, res.import_id))).toMatchObject({ code: 'NOT_FOUND', field: 'import_id' });
  });
});

describe('opening lots: refusals (nothing written)', () => {
  const cases: [string, string, string][] = [
    ['wallet,asset,quantity,date_acquired\nA,ETH,1,2023-03-01\n', 'line 1', 'cost_basis'],
    [csv(LOT, 'A,ETH,-1,2023-03-01,1,'), 'line 3', 'quantity'],
    [csv(LOT, 'A,ETH,0,2023-03-01,1,'), 'line 3', 'quantity'],
    [csv(LOT, 'A,ETH,1e3,2023-03-01,1,'), 'line 3', 'quantity'],
    [csv('A,ETH,1,2023-03-01,12.345,'), 'line 2', 'cost_basis'],
    [csv('A,ETH,1,2023-03-01,-5,'), 'line 2', 'cost_basis'],
    [csv('Z,ETH,1,2023-03-01,5,'), 'line 2', 'wallet'],
    [csv('A,DOGE,1,2023-03-01,5,'), 'line 2', 'asset'],
    [csv('A,ETH,1,2023-02-30,5,'), 'line 2', 'date_acquired'],
    [csv('A,ETH,1,03/01/2023,5,'), 'line 2', 'date_acquired'],
  ];
  it.each(cases)('%j → INVALID_FIELD %s (%s)', async (text, field, column) => {
    const err = await txaRejectionOf(b.importOpeningLots(WS, { csv: text }));
    expect(err).toMatchObject({ code: 'INVALID_FIELD', field });
    expect(err.message).toContain(column);
    expect(await b.listOpeningLots(WS)).toEqual([]);
  });

  it('a lot dated after its wallet’s first row, unless --allow-late', async () => {
    const late = csv(LOT, 'A,ETH,1,2024-06-02,3000,');
    const err = await txaRejectionOf(b.importOpeningLots(WS, { csv: late }));
    expect(err).toMatchObject({ code: 'INVALID_FIELD', field: 'line 3' });
    expect(err.message).toContain('date_acquired');
    expect(await b.listOpeningLots(WS)).toEqual([]);
    // The same day as the first row is no later: the lot opens at 00:00.
    expect((await b.importOpeningLots(WS, { csv: csv('A,ETH,1,2024-06-01,3000,'), dry_run: true })).added).toHaveLength(1);
    expect(await b.listOpeningLots(WS)).toEqual([]);
    const res = await b.importOpeningLots(WS, { csv: late, allow_late: true });
    expect(res.added).toHaveLength(2);
    // Dated after every row, it is still a lot (merged at the end of the stream).
    expect((await b.listLots(WS, { at: '2024-12-31' })).lots.map((l) => [l.quantity, l.cost_basis])).toEqual([
      ['0.6', 960],
      ['1', 3000],
    ]);
  });

  it('a wallet whose opening lot is in a closed period stays', async () => {
    const res = await b.importOpeningLots(WS, { csv: csv('B,ETH,2,2023-01-01,10,x') });
    await closePeriod(b.engine, WS, { through: '2023-12-31' });
    const other = res.added[0]!.wallet_id;
    expect(await txaRejectionOf(b.deleteWallet(WS, other))).toMatchObject({ code: 'PERIOD_CLOSED', field: 'wallet_id' });
    expect(await txaRejectionOf(b.removeOpeningLots(WS, res.import_id))).toMatchObject({ code: 'PERIOD_CLOSED', field: 'import_id' });
    expect(await b.listOpeningLots(WS)).toHaveLength(1);
  });

  it('a lot dated in a closed period is PERIOD_CLOSED', async () => {
    await closePeriod(b.engine, WS, { through: '2023-12-31' });
    expect(await txaRejectionOf(b.importOpeningLots(WS, { csv: csv(LOT) }))).toMatchObject({ code: 'PERIOD_CLOSED', field: 'line 2' });
    expect(await b.listOpeningLots(WS)).toEqual([]);
  });
});

describe('txa lots import', () => {
  it('reads the file, names it in the source, and prints the lots', async () => {
    const file = join(dir, 'closing.csv');
    writeFileSync(file, csv(LOT));
    const ran = await runInProcess('lots import', importCmd.run, { file }, { db: path, workspace: WS, json: true });
    expect(ran.exitCode).toBe(0);
    const data = JSON.parse(ran.stdout).data;
    expect(data.source.file_name).toBe('closing.csv');
    expect(data.added).toHaveLength(1);
    expect(openingLotsFor(b.engine, WS).map((o) => [o.walletLabel, o.quantity, o.costCents, o.day])).toEqual([['A', '1', 160000n, '2023-03-01']]);
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, csv('A,ETH,x,2023-03-01,5,'));
    const refused = await runInProcess('lots import', importCmd.run, { file: bad }, { db: path, workspace: WS });
    expect(refused.exitCode).not.toBe(0);
    expect(refused.stderr).toContain('line 2: quantity');
    const table = await runInProcess('lots openings', openingsCmd.run, {}, { db: path, workspace: WS });
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toContain('2023-03-01');
    expect(table.stdout).toContain('1600.00');
    expect(table.stdout).toContain('bought on an exchange');
  });
});
