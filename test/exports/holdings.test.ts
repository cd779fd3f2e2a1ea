/**
 * Positions and the roll-forward, from a real ledger file through the export pipeline, read back
 * with csv-parse; the roll-forward's balances against hledger's on the journal export of the same
 * ledger. Worked example of docs/accounting.md "Form 8949, 1099-DA and the roll-forward", by hand
 * (ETH, FIFO, lots per wallet: `basis_scope: 'wallet'`, which `download` and `pdfText` pass; by year,
 * 2024's lots would be pooled):
 *  - 2024-01-10 Main buys 2 ETH for 4,000.00 (lot L1, 2,000.00 per ETH).
 *  - 2024-03-01 Main receives 1 ETH with no fiat value: no lot (its balance runs 1 ETH ahead of its lots).
 *  - 2024-05-01 Main sends 0.5 ETH to Cold (an own transfer): 0.5 of L1, cost 1,000.00, moves.
 *  - 2025-02-01 Main sells 1 ETH for 3,000.00: L1, cost 2,000.00.
 *  - 2025-03-01 Cold receives 0.2 ETH of staking income worth 600.00: lot L2.
 *  - 2025-06-30 Cold sells 0.1 ETH for 350.00: L1's piece, cost 200.00 (3,500.00 per ETH that day).
 * Roll-forward 2025: Main opens 1.5 ETH / 3,000.00, disposes 1 / 2,000.00, closes 0.5 / 1,000.00;
 * balance 2 + 1 − 0.5 − 1 = 1.5, difference 1. Cold opens 0.5 / 1,000.00, income 0.2 / 600.00,
 * disposes 0.1 / 200.00, closes 0.6 / 1,400.00; balance 0.6, difference 0.
 * Roll-forward 2024: Main acquires 2 / 4,000.00, sends 0.5 / 1,000.00, closes 1.5 / 3,000.00,
 * balance 2.5, difference 1; Cold receives 0.5 / 1,000.00, closes 0.5 / 1,000.00.
 * Positions at 2025-06-30 (3,500.00 per ETH): Cold L1 0.4 ETH cost 800.00 value 1,400.00 gain
 * 600.00 long; Cold L2 0.2 cost 600.00 value 700.00 gain 100.00 short; Main L1 0.5 cost 1,000.00
 * value 1,750.00 gain 750.00 long.
 */
import { describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { addTxs, addWallets, ADDR, tempLedger } from './seed.js';
import { createExport, downloadExport } from '../../src/engine/exports.js';
import { createTag } from '../../src/engine/tags.js';
import { tagTransaction } from '../../src/engine/transaction-edits.js';
import { matchTransfer } from '../../src/engine/transfers.js';
import { putPrices } from '../../src/store/prices.js';

const { dir, engine, ws } = tempLedger('enterprise');
const [main, cold] = addWallets(engine, ws, ['Main', 'Cold']);
const ids = addTxs(
  engine,
  ws,
  [main!, cold!],
  [
    { wallet: 0, day: '2024-01-10', amount: '2', fiat: '4000.00', direction: 'inflow' },
    { wallet: 0, day: '2024-03-01', amount: '1', fiat: null, direction: 'inflow' },
    { wallet: 0, day: '2024-05-01', amount: '0.5', fiat: '1200.00', direction: 'outflow', hash: `0x${'e'.repeat(64)}`, to: ADDR(1) },
    { wallet: 1, day: '2024-05-01', amount: '0.5', fiat: '1200.00', direction: 'inflow', hash: `0x${'e'.repeat(64)}`, from: ADDR(0) },
    { wallet: 0, day: '2025-02-01', amount: '1', fiat: '3000.00', direction: 'outflow' },
    { wallet: 1, day: '2025-03-01', amount: '0.2', fiat: '600.00', direction: 'inflow' },
    { wallet: 1, day: '2025-06-30', amount: '0.1', fiat: '350.00', direction: 'outflow' },
  ],
);
const [l1, , sendLeg, receiveLeg, , l2] = ids;
const staking = createTag(engine, ws, { name: 'Staking', type: 'income' }).id;
tagTransaction(engine, ws, l2!, { tag_ids: [staking] });
if (!(engine.db.prepare('SELECT transfer_id FROM transactions WHERE id = ?').pluck().get(sendLeg) as string | null)) {
  matchTransfer(engine, ws, { transaction_id: sendLeg, counterpart_id: receiveLeg });
}

/** The worked example's scope on the reports of lots (the journal has no such option). */
const perWallet = (body: Record<string, unknown>) =>
  body.format === 'ledger' ? body : { ...body, options: { basis_scope: 'wallet', ...(body.options as Record<string, unknown> | undefined) } };

async function download(body: Record<string, unknown>): Promise<string> {
  const rec = await createExport(engine, ws, perWallet(body));
  expect(rec.status).toBe('completed');
  return readFileSync(downloadExport(engine, ws, rec.id, join(dir, `${rec.id}.${body.format === 'ledger' ? 'journal' : body.format}`)).path, 'utf8');
}

const Y2024 = { start_date: '2024-01-01', end_date: '2024-12-31' };
const Y2025 = { start_date: '2025-01-01', end_date: '2025-12-31' };
const FLOWS = ['opening', 'acquired', 'income', 'disposed', 'transfer_in', 'transfer_out', 'closing'];

function flowsOf(r: Record<string, string>): string[][] {
  return FLOWS.map((f) => [r[`${f}_quantity`]!, r[f === 'income' ? 'income_value' : `${f}_cost`]!]);
}

describe('rollforward', () => {
  test('2025: per wallet and asset, opening + flows = closing, the balance beside it and the difference', async () => {
    const rows = parse(await download({ format: 'csv', report_type: 'rollforward', filters: Y2025 }), { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual([
      'wallet_label',
      'asset',
      'opening_quantity',
      'opening_cost',
      'acquired_quantity',
      'acquired_cost',
      'income_quantity',
      'income_value',
      'disposed_quantity',
      'disposed_cost',
      'transfer_in_quantity',
      'transfer_in_cost',
      'transfer_out_quantity',
      'transfer_out_cost',
      'closing_quantity',
      'closing_cost',
      'balance',
      'difference',
    ]);
    const [coldRow, mainRow] = rows;
    expect([coldRow!.wallet_label, coldRow!.asset, ...flowsOf(coldRow!).flat(), coldRow!.balance, coldRow!.difference]).toEqual(
      [
        'Cold',
        'ETH',
        ['0.5', '1000.00'],
        ['0', '0.00'],
        ['0.2', '600.00'],
        ['0.1', '200.00'],
        ['0', '0.00'],
        ['0', '0.00'],
        ['0.6', '1400.00'],
        '0.6',
        '0',
      ].flat(),
    );
    expect([mainRow!.wallet_label, ...flowsOf(mainRow!).flat(), mainRow!.balance, mainRow!.difference]).toEqual(
      ['Main', ['1.5', '3000.00'], ['0', '0.00'], ['0', '0.00'], ['1', '2000.00'], ['0', '0.00'], ['0', '0.00'], ['0.5', '1000.00'], '1.5', '1'].flat(),
    );
    expect(rows.slice(2).map((r) => [r.wallet_label, r.difference])).toEqual([
      ['', ''],
      ['Rows with a difference', '1'],
      [expect.stringMatching(/^Note: 1 wallet and asset row/), ''],
    ]);
  });

  test("a wallet filter: that wallet's rows only, with the same figures", async () => {
    const rows = parse(
      await download({ format: 'csv', report_type: 'rollforward', filters: { ...Y2025, wallet_ids: [cold] }, options: { include_summary: false } }),
      {
        columns: true,
      },
    ) as Record<string, string>[];
    expect(rows.map((r) => [r.wallet_label, r.closing_quantity, r.closing_cost, r.difference])).toEqual([['Cold', '0.6', '1400.00', '0']]);
  });

  test('2024: an own transfer moves the lots out of one wallet and into the other at their cost', async () => {
    const body = JSON.parse(await download({ format: 'json', report_type: 'rollforward', filters: Y2024 }));
    const byWallet = Object.fromEntries(body.rows.map((r: any) => [r.wallet_label, r]));
    expect(byWallet.Main).toMatchObject({
      acquired_quantity: '2',
      acquired_cost: 4000,
      transfer_out_quantity: '0.5',
      transfer_out_cost: 1000,
      closing_quantity: '1.5',
      closing_cost: 3000,
      balance: '2.5',
      difference: '1',
    });
    expect(byWallet.Cold).toMatchObject({
      transfer_in_quantity: '0.5',
      transfer_in_cost: 1000,
      closing_quantity: '0.5',
      closing_cost: 1000,
      balance: '0.5',
      difference: '0',
    });
    expect(body.notes).toHaveLength(1);
  });

  test("the balances are hledger's on the journal of the same ledger; closing + difference too", async () => {
    const hasHledger = (await execa('hledger', ['--version'], { reject: false }).catch(() => ({ exitCode: 1 }))).exitCode === 0;
    if (!hasHledger) return console.warn('hledger is not installed: skipping');
    for (const period of [Y2024, Y2025]) {
      const journalText = await download({ format: 'ledger', filters: { end_date: period.end_date } });
      const journal = join(dir, `ledger-${period.end_date}.journal`);
      (await import('node:fs')).writeFileSync(journal, journalText);
      const { stdout } = await execa('hledger', ['-f', journal, 'balance', '--flat', '--no-total', '-O', 'csv', '^Assets:']);
      const hledger = new Map((parse(stdout, { columns: true }) as { account: string; balance: string }[]).map((r) => [r.account, r.balance]));
      const rows = parse(await download({ format: 'csv', report_type: 'rollforward', filters: period, options: { include_summary: false } }), {
        columns: true,
      }) as Record<string, string>[];
      expect(rows.length).toBe(2);
      for (const r of rows) {
        const account = [...hledger.keys()].find((a) => a.startsWith(`Assets:${r.wallet_label}:`) && a.endsWith(r.asset))!;
        const held = hledger.get(account)!.replace(/[^\d.-]/g, '');
        expect(r.balance).toBe(held);
        expect((Number(r.closing_quantity) + Number(r.difference)).toString()).toBe(held);
        if (r.difference === '0') expect(r.closing_quantity).toBe(held);
      }
    }
  });
});

describe('rollforward by year (the default scope)', () => {
  // docs/accounting.md F3, by year: 2024 pooled (L1 2 / 4,000.00; the transfer moves nothing);
  // at 2025-01-01 the FIFO allocation gives Main (first added, balance 2.5) all of L1 and 0.5
  // missing, Cold (0.5) nothing; 2025: Main sells 1 of L1 (2,000.00), Cold's 0.1 comes from L2
  // (600.00 × 0.5 = 300.00).
  const rowsOf = async (filters: Record<string, string>) => {
    const rec = await createExport(engine, ws, { format: 'csv', report_type: 'rollforward', filters, options: { include_summary: false } });
    expect(rec.status).toBe('completed');
    const text = readFileSync(downloadExport(engine, ws, rec.id, join(dir, `${rec.id}.csv`)).path, 'utf8');
    return (parse(text, { columns: true }) as Record<string, string>[]).map((r) => [r.wallet_label, ...flowsOf(r).flat(), r.balance, r.difference]);
  };
  const Z = ['0', '0.00'];

  test('2024: one pool, its balance all wallets’; 2025: per wallet from the allocation', async () => {
    expect(await rowsOf(Y2024)).toEqual([['All wallets', ...Z, '2', '4000.00', ...Z, ...Z, ...Z, ...Z, '2', '4000.00', '3', '1']]);
    expect(await rowsOf(Y2025)).toEqual([
      ['Cold', ...Z, ...Z, '0.2', '600.00', '0.1', '300.00', ...Z, ...Z, '0.1', '300.00', '0.6', '0.5'],
      ['Main', '2', '4000.00', ...Z, ...Z, '1', '2000.00', ...Z, ...Z, '1', '2000.00', '1.5', '0.5'],
    ]);
  });

  test('a period across the transition: the pool’s lots move out of All wallets and into the wallets', async () => {
    expect(await rowsOf({ start_date: '2024-01-01', end_date: '2025-12-31' })).toEqual([
      ['All wallets', ...Z, '2', '4000.00', ...Z, ...Z, ...Z, '2', '4000.00', ...Z, '0', '0'],
      ['Cold', ...Z, ...Z, '0.2', '600.00', '0.1', '300.00', ...Z, ...Z, '0.1', '300.00', '0.6', '0.5'],
      ['Main', ...Z, ...Z, ...Z, '1', '2000.00', '2', '4000.00', ...Z, '1', '2000.00', '1.5', '0.5'],
    ]);
  });
});

describe('positions', () => {
  test('every open lot at the day, valued at that day’s price, with the term a sale that day would have', async () => {
    const rows = parse(await download({ format: 'csv', report_type: 'positions', filters: Y2025, options: { at: '2025-06-30' } })) as string[][];
    expect(rows[0]).toEqual(['wallet_label', 'asset', 'lot', 'quantity', 'date_acquired', 'cost_basis', 'market_value', 'unrealized_gain', 'term_if_sold']);
    expect(rows.slice(1, 4)).toEqual([
      ['Cold', 'ETH', l1, '0.4', '2024-01-10', '800.00', '1400.00', '600.00', 'long'],
      ['Cold', 'ETH', l2, '0.2', '2025-03-01', '600.00', '700.00', '100.00', 'short'],
      ['Main', 'ETH', l1, '0.5', '2024-01-10', '1000.00', '1750.00', '750.00', 'long'],
    ]);
    expect(rows.slice(5).map((r) => [r[0], r[6]])).toEqual([
      ['Total cost basis', '2400.00'],
      ['Total market value', '3850.00'],
      ['Open lots', '3'],
    ]);
  });

  test('a day without a price: empty values and a note; an imported price of that day fills them', async () => {
    const before = JSON.parse(await download({ format: 'json', report_type: 'positions', filters: Y2024 }));
    expect(before.positions.map((p: any) => [p.wallet_label, p.quantity, p.cost_basis, p.market_value, p.unrealized_gain])).toEqual([
      ['Cold', '0.5', 1000, null, null],
      ['Main', '1.5', 3000, null, null],
    ]);
    expect(before.notes).toEqual(['no price on 2024-12-31 for ETH: market value and unrealized gain left empty']);
    engine.write(() =>
      putPrices(engine.db, [
        { source: 'import', token: 'ETH', day: '2024-12-31', price: '3400', currency: 'USD', price_ts: null, fetched_at: '2025-01-01T00:00:00Z' },
      ]),
    );
    const after = JSON.parse(await download({ format: 'json', report_type: 'positions', filters: Y2024 }));
    expect(after.positions.map((p: any) => [p.wallet_label, p.market_value, p.unrealized_gain, p.term_if_sold])).toEqual([
      ['Cold', 1700, 700, 'short'],
      ['Main', 5100, 2100, 'short'],
    ]);
    expect(after.notes).toEqual([]);
  });
});

describe('positions and rollforward PDFs', () => {
  const pdfText = async (body: Record<string, unknown>) => {
    const rec = await createExport(engine, ws, perWallet({ format: 'pdf', ...body }));
    expect(rec.status).toBe('completed');
    return execFileSync('pdftotext', ['-layout', downloadExport(engine, ws, rec.id, join(dir, `${rec.id}.pdf`)).path, '-'], { encoding: 'utf8' });
  };

  test('positions: every open lot with its value and the totals', async () => {
    const text = await pdfText({ report_type: 'positions', filters: Y2025, options: { at: '2025-06-30' } });
    expect(text).toContain('Open lots at the end of 2025-06-30');
    expect(text).toMatch(new RegExp(`Cold\\s+ETH\\s+${l2}\\s+0\\.2\\s+2025-03-01\\s+600\\.00\\s+700\\.00\\s+100\\.00\\s+short`));
    expect(text).toMatch(/Total\s+3 lot\(s\)\s+2,400\.00\s+3,850\.00\s+1,450\.00/);
  });

  test('rollforward: quantities and costs per wallet and asset, the difference noted', async () => {
    const text = await pdfText({ report_type: 'rollforward', filters: Y2025 });
    expect(text).toMatch(/Main\s+ETH\s+1\.5\s+0\s+0\s+1\s+0\s+0\s+0\.5\s+1\.5\s+1/);
    expect(text).toMatch(/Cold\s+ETH\s+1,000\.00\s+0\.00\s+600\.00\s+200\.00\s+0\.00\s+0\.00\s+1,400\.00/);
    expect(text).toContain('1 row(s) whose balance differs');
  });
});
