/**
 * Exchange files larger than one batch (docs/import.md "Large files"): they are read and written
 * BATCH_ROWS lines at a time in one transaction, so a bad line late in the file still writes
 * nothing, and what belongs together (a Kraken trade's two legs, a Binance trade's rows of one
 * second) stays together across a batch's edge.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { importLedger } from '../helpers/import-ledger.js';
import { txaErrorOf } from '../helpers/errors.js';
import { createWallet } from '../../src/engine/wallets.js';
import { BATCH_ROWS } from '../../src/importers/csv.js';
import { Occurrences } from '../../src/importers/occurrences.js';

const ctx = importLedger();
const exchange = (name: string) => createWallet(ctx.engine, ctx.ws, { kind: 'exchange', exchange: name, label: name }).id;
const file = (name: string, lines: string[]) => {
  const path = join(ctx.dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
};
const time = (i: number) => new Date(Date.UTC(2023, 0, 1) + i * 60_000).toISOString().replace('T', ' ').slice(0, 19);
const stored = () => (ctx.engine.db.prepare('SELECT count(*) FROM transactions').pluck().get() as number) + 0;
const events = () => ctx.engine.db.prepare("SELECT count(*) FROM events WHERE type IN ('transaction.created', 'wallet.synced')").pluck().get() as number;

// Data row i of a file is on line i + 2 (the header is line 1); the first batch ends after row BATCH_ROWS − 1.
const EDGE = BATCH_ROWS - 1;
const N = BATCH_ROWS + 50;

const KRAKEN_HEADER = '"txid","refid","time","type","subtype","aclass","asset","amount","fee","balance"';
const krakenDeposit = (i: number, amount = '0.25') => `"L${i}","D${i}","${time(i)}","deposit","","currency","XETH",${amount},0,1`;
/** A Kraken ledger of N deposits, with the rows `at` replaced. */
const kraken = (at: Record<number, string>) => [KRAKEN_HEADER, ...Array.from({ length: N }, (_, i) => at[i] ?? krakenDeposit(i))];
const tradeLegs = (i: number, refid: string) => ({
  [i]: `"L${i}-A","${refid}","${time(i)}","trade","","currency","ZUSD",-1500.0000,3.9000,0`,
  [i + 1]: `"L${i}-B","${refid}","${time(i)}","trade","","currency","XETH",1.0000000000,0,1`,
});

describe('kraken, more than one batch', () => {
  it("a trade whose two legs fall on both sides of a batch's edge is one trade", () => {
    const w = exchange('kraken');
    const summary = ctx.importFile(file('edge.csv', kraken(tradeLegs(EDGE, 'TEDGE'))), { walletId: w });
    // N rows: N − 2 deposits and one trade, whose USD leg is the ETH's value (1,500.00 + 3.90 fee).
    expect(summary).toMatchObject({ format: 'kraken', imported: N - 1, duplicates: 0, skipped: 0 });
    expect(ctx.rows(w, "tx_hash = 'TEDGE'").map((r) => [r.type, r.direction, r.token_symbol, r.amount, r.fiat_cents])).toEqual([
      ['swap', 'inflow', 'ETH', '1', 150390],
    ]);
    // One wallet.synced for the whole file, with its total.
    const synced = ctx.engine.db.prepare("SELECT payload FROM events WHERE type = 'wallet.synced'").pluck().all() as string[];
    expect(synced.map((p) => JSON.parse(p).imported)).toEqual([N - 1]);
  });

  it('a bad line near the end of the file writes nothing, and the error names its line', () => {
    const w = exchange('kraken');
    const before = { rows: stored(), events: events() };
    const bad = N - 10;
    const err = txaErrorOf(() => ctx.importFile(file('bad.csv', kraken({ [bad]: krakenDeposit(bad, 'x') })), { walletId: w }));
    expect(err.code).toBe('IMPORT_FAILED');
    expect(err.message).toBe('1 row is invalid; nothing was imported');
    expect(err.extra).toMatchObject({ errors: [{ line: bad + 2, field: 'amount', reason: "not a number: 'x'" }], error_count: 1 });
    expect({ rows: stored(), events: events() }).toEqual(before);
    expect(ctx.engine.db.prepare('SELECT last_synced FROM wallets WHERE id = ?').pluck().get(w)).toBeNull();
  });

  it('a third row of a trade written in an earlier batch is a bad row naming its line', () => {
    const w = exchange('kraken');
    const late = BATCH_ROWS + 20;
    const rows = kraken({ ...tradeLegs(10, 'T10'), [late]: `"L${late}-C","T10","${time(late)}","trade","","currency","XETH",1,0,1` });
    const err = txaErrorOf(() => ctx.importFile(file('third.csv', rows), { walletId: w }));
    expect(err.extra).toMatchObject({ errors: [{ line: late + 2, field: 'refid', reason: expect.stringContaining('trade T10 has more than two rows') }] });
    expect(stored()).toBe(0);
  });
});

describe('kraken, a file longer than the ledger (indexes built at its end)', () => {
  it('every new row reaches onInserted once, after the last batch, and a dry run keeps nothing', () => {
    const w = exchange('kraken');
    const indexes = () => ctx.engine.db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'index' ORDER BY name").all();
    const before = indexes();
    expect(before.length).toBeGreaterThan(5);
    const lines = [KRAKEN_HEADER, ...Array.from({ length: 10_050 }, (_, i) => krakenDeposit(i))];
    const path = file('long.csv', lines);
    expect(ctx.importFile(path, { walletId: w, dryRun: true })).toMatchObject({ imported: 10_050, dry_run: true });
    expect(stored()).toBe(0);
    const seen: string[] = [];
    expect(ctx.importFile(path, { walletId: w, onInserted: (ids) => seen.push(...ids) })).toMatchObject({ imported: 10_050 });
    expect(new Set(seen).size).toBe(10_050);
    expect(stored()).toBe(10_050);
    // The indexes dropped for the import are back.
    expect(indexes()).toEqual(before);
  });
});

describe('binance, more than one batch', () => {
  const HEADER = 'User_ID,UTC_Time,Account,Operation,Coin,Change,Remark';
  const deposit = (i: number) => `1,${time(i)},Spot,Deposit,ETH,0.25,`;

  it("a trade's rows of one second on both sides of a batch's edge are one trade", () => {
    const w = exchange('binance');
    const second = time(EDGE - 1);
    const trade: Record<number, string> = {
      [EDGE - 1]: `1,${second},Spot,Transaction Buy,ETH,1,`,
      [EDGE]: `1,${second},Spot,Transaction Spend,USD,-1500,`,
      [EDGE + 1]: `1,${second},Spot,Transaction Fee,ETH,-0.001,`,
    };
    const lines = [HEADER, ...Array.from({ length: N }, (_, i) => trade[i] ?? deposit(i))];
    expect(ctx.importFile(file('binance.csv', lines), { walletId: w })).toMatchObject({ format: 'binance', imported: N - 3 + 2, skipped: 0 });
    // Bought 1 ETH for 1,500 USD (no fiat fee): one inflow at 1,500.00 and the ETH fee as its own row.
    const at = Date.parse(`${second}Z`.replace(' ', 'T')) / 1000;
    expect(ctx.rows(w, 'ts = ?', at).map((r) => [r.type, r.direction, r.token_symbol, r.amount, r.fiat_cents])).toEqual([
      ['fee', 'outflow', 'ETH', '0.001', null],
      ['swap', 'inflow', 'ETH', '1', 150000],
    ]);
  });
});

describe('coinbase, more than one batch', () => {
  it('the preamble above the header is skipped and every row of a long file imported', () => {
    const w = exchange('coinbase');
    const preamble = ['', 'Transactions', 'User,someone@example.com,0000'];
    const header =
      'ID,Timestamp,Transaction Type,Asset,Quantity Transacted,Price Currency,Price at Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes';
    const row = (i: number) => `id${i},${time(i).replace(' ', 'T')}Z,Receive,ETH,0.25,USD,$2000.00,,,,Received 0.25 ETH`;
    const lines = [...preamble, header, ...Array.from({ length: N }, (_, i) => row(i))];
    expect(ctx.importFile(file('coinbase.csv', lines), { walletId: w })).toMatchObject({ format: 'coinbase', imported: N, skipped: 0 });
  });
});

describe('Occurrences', () => {
  it('counts earlier sightings of each key, over more keys than its first table holds', () => {
    const seen = new Occurrences();
    const keys = Array.from({ length: 50_000 }, (_, i) => `wal\0hash${i}\0t:ETH:inflow`);
    expect(keys.map((k) => seen.next(k)).every((n) => n === 0)).toBe(true);
    expect([seen.next(keys[7]!), seen.next(keys[7]!), seen.next(keys[49_999]!)]).toEqual([1, 2, 1]);
    expect([seen.seen('new'), seen.seen('new')]).toEqual([false, true]);
  });
});
