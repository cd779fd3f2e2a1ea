/**
 * A close's report digests from one run of the tax ledger (exporters/period-reports.ts) are the
 * digests each report's own export makes (engine/periods.ts reportDigestsOneByOne), byte for byte:
 * closes recorded before the shared run must still pass `txa check`. The ledger has what changes
 * the three reports' lines: three wallets on two chains, own transfers between them (pooled and
 * per wallet), gas on a sale and on a swap (fee treatment `adjust`), staking income, a sale past
 * the lots (missing cost basis), the 2025 split of the pool between the wallets, and an opening
 * lot carried into a wallet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempEngine } from '../helpers/engine.js';
import type { Engine } from '../../src/engine/engine.js';
import { insertNewWallet } from '../../src/engine/wallets.js';
import { importRecords } from '../../src/engine/imports.js';
import { createTag } from '../../src/engine/tags.js';
import { matchTransfer } from '../../src/engine/transfers.js';
import { tagTransaction } from '../../src/engine/transaction-edits.js';
import { importOpeningLots } from '../../src/engine/opening-lots.js';
import { closePeriod, reportDigests, reportDigestsOneByOne } from '../../src/engine/periods.js';
import { periodReportDigests } from '../../src/engine/export-jobs.js';
import { runAllChecks } from '../../src/checks/index.js';
import { transactionId } from '../../src/core/ids.js';
import type { ImportRecord } from '../../src/importers/types.js';

const ADDR = { a: `0x${'a'.repeat(40)}`, b: `0x${'b'.repeat(40)}`, c: `0x${'c'.repeat(40)}` } as const;
type W = keyof typeof ADDR;
const SHOP = `0x${'9'.repeat(40)}`;
const ETH = { symbol: 'ETH', address: null, decimals: 18 };
const USDC = { symbol: 'USDC', address: `0x${'1'.repeat(40)}`, decimals: 6 };

let engine: Engine;
let ws: string;
let wallets: Record<W, string>;
let n = 0;
const byWallet: Record<W, ImportRecord[]> = { a: [], b: [], c: [] };
const ids: Record<string, string> = {};

/** A row of wallet `w` (its own line of its file, its own hash unless given); answers its hash. */
function row(w: W, iso: string, over: Partial<ImportRecord> & Pick<ImportRecord, 'direction' | 'amount'>): string {
  n++;
  const r: ImportRecord = {
    line: n,
    tx_hash: `0x${n.toString(16).padStart(64, '0')}`,
    from_address: over.direction === 'inflow' ? SHOP : ADDR[w],
    to_address: over.direction === 'inflow' ? ADDR[w] : SHOP,
    token: ETH,
    fiat_value: null,
    type: 'transfer',
    timestamp: Date.parse(iso) / 1000,
    notes: null,
    ...over,
  };
  byWallet[w].push(r);
  return r.tx_hash;
}

/** An own transfer: the sending row in `from`, the receiving one in `to`, one hash (matched on import). */
function transfer(from: W, to: W, iso: string, sent: string, received: string, value: string): void {
  const hash = row(from, iso, { direction: 'outflow', amount: sent, fiat_value: value, from_address: ADDR[from], to_address: ADDR[to] });
  n++;
  byWallet[to].push({
    line: n,
    tx_hash: hash,
    from_address: ADDR[from],
    to_address: ADDR[to],
    token: ETH,
    amount: received,
    fiat_value: value,
    direction: 'inflow',
    type: 'transfer',
    timestamp: Date.parse(iso) / 1000,
    notes: null,
  });
}

/** A fee of the transaction `hash` (the same second), paid from `w`. */
function fee(w: W, hash: string, iso: string, amount: string, value: string): void {
  n++;
  byWallet[w].push({
    line: n,
    tx_hash: hash,
    from_address: ADDR[w],
    to_address: '',
    token: ETH,
    amount,
    fiat_value: value,
    direction: 'outflow',
    type: 'fee',
    timestamp: Date.parse(iso) / 1000,
    notes: null,
  });
}

beforeAll(() => {
  ({ engine, ws } = tempEngine('pro'));
  wallets = engine.write(() => ({
    a: insertNewWallet(engine, ws, { address: ADDR.a, chain: 'ethereum', label: 'A' }).id,
    b: insertNewWallet(engine, ws, { address: ADDR.b, chain: 'ethereum', label: 'B' }).id,
    c: insertNewWallet(engine, ws, { address: ADDR.c, chain: 'arbitrum', label: 'C' }).id,
  }));
  // 2023–2024, pooled: buys in A and B, a sale with gas, an own transfer A → B, staking in B.
  row('a', '2023-02-01T10:00:00Z', { direction: 'inflow', amount: '2', fiat_value: '3200' });
  row('b', '2023-09-15T10:00:00Z', { direction: 'inflow', amount: '1.5', fiat_value: '2400' });
  row('a', '2024-01-10T10:00:00Z', { direction: 'inflow', amount: '1', fiat_value: '2500' });
  const sale = row('a', '2024-03-05T12:00:00Z', { direction: 'outflow', amount: '0.8', fiat_value: '2960' });
  fee('a', sale, '2024-03-05T12:00:00Z', '0.002', '7.40');
  transfer('a', 'b', '2024-05-01T08:00:00Z', '0.5', '0.5', '1500');
  ids.staking = row('b', '2024-07-01T00:00:00Z', { direction: 'inflow', amount: '0.05', fiat_value: '170' });
  row('b', '2024-11-20T15:30:00Z', { direction: 'outflow', amount: '0.3', fiat_value: '930' });
  // 2025, per wallet: a bridge-like own transfer A → C with a shortfall and its gas, a swap with gas
  // (ETH out, USDC in), a sale in C beyond what C holds, more staking.
  transfer('a', 'c', '2025-02-01T09:00:00Z', '0.6', '0.599', '1800');
  const bridge = byWallet.a.at(-1)!.tx_hash;
  fee('a', bridge, '2025-02-01T09:00:00Z', '0.001', '3');
  const swap = row('b', '2025-03-10T11:00:00Z', { direction: 'outflow', amount: '0.4', fiat_value: '1200' });
  row('b', '2025-03-10T11:00:00Z', { direction: 'inflow', amount: '1200', fiat_value: '1200', token: USDC, tx_hash: swap });
  fee('b', swap, '2025-03-10T11:00:00Z', '0.003', '9');
  row('c', '2025-05-05T05:05:05Z', { direction: 'outflow', amount: '1.5', fiat_value: '4500' });
  ids.staking2 = row('b', '2025-08-01T00:00:00Z', { direction: 'inflow', amount: '0.02', fiat_value: '60' });
  transfer('b', 'a', '2025-09-09T09:09:09Z', '0.3', '0.3', '900');
  row('a', '2025-11-11T11:11:11Z', { direction: 'outflow', amount: '0.5', fiat_value: '1600' });
  row('b', '2025-12-01T10:00:00Z', { direction: 'outflow', amount: '500', fiat_value: '500', token: USDC });
  for (const w of ['a', 'b', 'c'] as const) importRecords(engine, ws, byWallet[w], { walletId: wallets[w], format: 'json' });
  // The two chains' legs are matched by hand, as a bridge is.
  const leg = (w: W, direction: string) => transactionId(wallets[w], bridge, `t:ETH:${direction}:0`);
  matchTransfer(engine, ws, { transaction_id: leg('a', 'outflow'), counterpart_id: leg('c', 'inflow') });
  const income = createTag(engine, ws, { name: 'Staking', type: 'income' });
  for (const hash of [ids.staking!, ids.staking2!]) {
    const r = byWallet.b.find((x) => x.tx_hash === hash)!;
    tagTransaction(engine, ws, transactionId(wallets.b, hash, `t:${r.token.address ?? r.token.symbol}:inflow:0`), { tag_ids: [income.id] });
  }
  // An opening lot carried into C (no row of its purchase), sold from in 2025.
  importOpeningLots(engine, ws, { csv: 'wallet,asset,quantity,date_acquired,cost_basis,note\nC,ETH,0.7,2022-06-01,700.00,carried in\n' });
});
afterAll(() => engine.close());

describe("a close's report digests from one ledger run", () => {
  it('the ledger has what the test is about: own transfers, fees, income, an opening lot', () => {
    const count = (sql: string) => engine.db.prepare(sql).pluck().get() as number;
    expect(count('SELECT count(*) FROM transfers')).toBe(3);
    expect(count("SELECT count(*) FROM transactions WHERE type = 'fee'")).toBe(3);
    expect(count('SELECT count(*) FROM transaction_tags')).toBe(2);
    expect(count('SELECT count(*) FROM opening_lots')).toBe(1);
  });

  for (const [through, from] of [
    ['2024-12-31', null],
    ['2025-06-30', '2025-01-01'],
    ['2025-12-31', '2025-07-01'],
    ['2025-12-31', null],
    ['2024-06-30', null],
  ] as const) {
    it(`are each report's own export's digests: ${from ?? 'the first row'} through ${through}`, async () => {
      const shared = await periodReportDigests(engine, ws, {
        tax: { format: 'csv', report_type: 'tax', filters: { ...(from && { start_date: from }), end_date: through } },
        form8949: { format: 'csv', report_type: 'form8949', filters: { ...(from && { start_date: from }), end_date: through } },
        rollforward: { format: 'csv', report_type: 'rollforward', filters: { ...(from && { start_date: from }), end_date: through } },
      });
      // The shared run ran (no fallback), and it is what reportDigests answers.
      expect(shared).not.toBeNull();
      const oneByOne = await reportDigestsOneByOne(engine, ws, through, from);
      expect(shared).toEqual(oneByOne);
      expect(await reportDigests(engine, ws, through, from)).toEqual(oneByOne);
      expect(Object.keys(oneByOne)).toEqual(['tax', 'form8949', 'rollforward']);
    });
  }

  it('requests that differ beyond the report type are not shared', async () => {
    const filters = { end_date: '2024-12-31' };
    const bodies = {
      tax: { format: 'csv', report_type: 'tax', filters },
      form8949: { format: 'csv', report_type: 'form8949', filters, options: { fee_treatment: 'separate' } },
      rollforward: { format: 'csv', report_type: 'rollforward', filters },
    };
    expect(await periodReportDigests(engine, ws, bodies)).toBeNull();
  });

  it('closes of 2024 and of 2025 record the one-by-one digests, and check finds them unchanged', async () => {
    const y2024 = await closePeriod(engine, ws, { through: '2024-12-31' });
    expect(y2024.digests!.reports).toEqual(await reportDigestsOneByOne(engine, ws, '2024-12-31', null));
    const y2025 = await closePeriod(engine, ws, { through: '2025-12-31' });
    expect(y2025.digests!.reports).toEqual(await reportDigestsOneByOne(engine, ws, '2025-12-31', '2025-01-01'));
    const report = await runAllChecks(engine, ws, {}, []);
    expect(report.findings.find((f) => f.kind === 'closed_period_changed')).toBeUndefined();
  });
});
