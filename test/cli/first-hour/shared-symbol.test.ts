/**
 * Issue 24, item 2: two assets that share a symbol are told apart in reports. BSC's Binance-Peg
 * USDT is not the pooled USDT of the asset table (Ethereum, Arbitrum, …): its lines say
 * `USDT (bsc)`, in the tax CSV and the tax PDF (read back with pdftotext).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { AssetTable } from '../../../src/accounting/assets.js';
import { addWallet } from '../../../src/engine/wallets.js';
import { importFile } from '../../../src/engine/imports.js';
import { run as create } from '../../../src/cli/commands/export/create.js';
import { runInProcess } from '../../helpers/in-process.js';
import { tempLedger, type TempLedger } from '../../helpers/in-process-ledger.js';

const ETH_USDT = '0xdac17f958d2ee523a2206206994597c13d831ec7';
const BSC_USDT = '0x55d398326f99059ff775485246999027b3197955';
let l: TempLedger;

beforeAll(() => {
  l = tempLedger((engine, ws, dir) => {
    for (const [chain, address, token] of [
      ['ethereum', `0x${'1'.repeat(40)}`, ETH_USDT],
      ['bsc', `0x${'3'.repeat(40)}`, BSC_USDT],
    ] as const) {
      const wallet = addWallet(engine, ws, { address, chain }).id;
      const row = (n: number, direction: string, day: string, fiat: number) => ({
        tx_hash: `0x${String(n).repeat(64)}`,
        timestamp: `${day}T10:00:00Z`,
        amount: '100',
        token: { symbol: 'USDT', address: token, decimals: 18 },
        direction,
        from_address: direction === 'inflow' ? `0x${'2'.repeat(40)}` : address,
        to_address: direction === 'inflow' ? address : `0x${'2'.repeat(40)}`,
        fiat_value: fiat,
      });
      const file = join(dir, `${chain}.ndjson`);
      writeFileSync(
        file,
        [row(chain === 'bsc' ? 5 : 6, 'inflow', '2025-02-01', 100), row(chain === 'bsc' ? 7 : 8, 'outflow', '2025-03-01', 101)]
          .map((r) => JSON.stringify(r))
          .join('\n') + '\n',
      );
      importFile(engine, ws, file, { walletId: wallet });
    }
  });
});
afterAll(() => {
  delete process.env.TXA_CONFIG_DIR;
});

describe('assets sharing a symbol', () => {
  it('the asset table labels a token outside it whose symbol is a table asset: USDT (bsc)', () => {
    const t = new AssetTable();
    expect(t.assetOf('bsc', { symbol: 'USDT', address: BSC_USDT })).toEqual({ key: `bsc:${BSC_USDT}`, symbol: 'USDT', label: 'USDT (bsc)' });
    expect(t.assetOf('ethereum', { symbol: 'USDT', address: ETH_USDT })).toEqual({ key: 'asset:USDT', symbol: 'USDT' });
    expect(t.assetOf('bsc', { symbol: 'CAKE', address: `0x${'c'.repeat(40)}` })).toEqual({ key: `bsc:0x${'c'.repeat(40)}`, symbol: 'CAKE' });
  });

  it('the tax CSV and the tax PDF name each one unambiguously', async () => {
    const globals = { db: l.db, workspace: l.workspace };
    const csv = join(l.dir, 'tax.csv');
    const made = await runInProcess('txa export create', create, { format: 'csv', reportType: 'tax', period: '2025', out: csv }, globals);
    expect(made.exitCode).toBe(0);
    // Item 10: the gains in the terminal (two disposals of 100 USDT, bought at 100, sold at 101: 1.00 each, short-term).
    expect(made.stderr).toContain('short-term gain 2.00 · long-term gain 0.00 · total gain 2.00\n');
    const rows = parse(readFileSync(csv, 'utf8'), { columns: true }) as { description: string }[];
    expect(
      rows
        .map((r) => r.description)
        .filter((d) => d.includes('USDT'))
        .sort(),
    ).toEqual(['100 USDT', '100 USDT (bsc)']);
    const pdf = join(l.dir, 'tax.pdf');
    const madePdf = await runInProcess('txa export create', create, { format: 'pdf', reportType: 'tax', period: '2025', out: pdf }, globals);
    expect(madePdf.exitCode).toBe(0);
    // Item 10 for a PDF too: the same gains in the terminal as the CSV's (read from the file's information dictionary).
    expect(madePdf.stderr).toContain('short-term gain 2.00 · long-term gain 0.00 · total gain 2.00\n');
    expect(madePdf.stderr).not.toContain('gains: see');
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    expect(text).toMatch(/USDT \(bsc\)/);
    expect(text).toMatch(/Short-term gain +202\.00 +200\.00 +2\.00\n/);
  });
});
