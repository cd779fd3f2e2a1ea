/** `txa import` as a user runs it: the built binary on a throw-away ledger. */
import { beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sandbox, type Sandbox } from '../helpers/cli.js';

const SAMPLES = resolve(import.meta.dirname, '../../../shared/samples/explorer-csv');
const FIXTURES = resolve(import.meta.dirname, '../../fixtures/import');

let sb: Sandbox;
let wallet: string;

beforeAll(async () => {
  sb = sandbox();
  const ws = (await sb.json(['workspace', 'create', 'Imports'])).data.id as string;
  sb.env.TXA_WORKSPACE = ws;
  wallet = (await sb.json(['wallet', 'add', '--address', '0xaa098e5c9b002f815d7c9756bcfce0fc18b3f362', '--chain', 'arbitrum'])).data.id;
});

describe('txa import', () => {
  it('imports an explorer sample into --wallet and prints the counts as a record', async () => {
    const r = await sb.txa(['import', join(SAMPLES, 'arbiscan_normal_txns_raw.csv'), '--wallet', wallet]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n').slice(0, 4)).toEqual(['format\tetherscan', 'imported\t9', 'duplicates skipped\t0', 'rows skipped\t0']);
    const list = await sb.json(['tx', 'list', '--wallet-id', wallet]);
    expect(list.pagination.total).toBe(9);
  });

  it('--json prints the ImportSummary; a second run only finds duplicates', async () => {
    const body = await sb.json(['import', join(SAMPLES, 'arbiscan_normal_txns_raw.csv'), '--wallet', wallet]);
    expect(body).toEqual({
      success: true,
      data: { format: 'etherscan', imported: 0, duplicates: 9, skipped: 0, dry_run: false, wallets: [{ id: wallet, label: expect.any(String), imported: 0 }] },
    });
  });

  it('--dry-run counts without writing', async () => {
    const file = join(sb.dir, 'one.json');
    writeFileSync(file, JSON.stringify([{ tx_hash: '0xdry', chain: 'arbitrum', token: { symbol: 'ETH', address: null, decimals: 18 }, amount: '1', direction: 'inflow', timestamp: '2024-01-01T00:00:00Z' }]));
    const body = await sb.json(['import', file, '--wallet', wallet, '--dry-run']);
    expect(body.data).toMatchObject({ format: 'json', imported: 1, dry_run: true });
    expect((await sb.json(['tx', 'list', '--wallet-id', wallet])).pagination.total).toBe(9);
  });

  it('a bad file: the error line, one stderr line per bad row, exit 1, nothing imported', async () => {
    const r = await sb.txa(['import', join(FIXTURES, 'bad-rows.ndjson')]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toEqual([
      'error: IMPORT_FAILED: 2 rows are invalid; nothing was imported',
      "  line 3, amount: not a number: 'two'",
      "  line 4, direction: must be one of inflow, outflow, got 'sideways'",
    ]);
    const wallets = await sb.json(['wallet', 'list']);
    expect(wallets.data).toHaveLength(1);
  });

  it('lists the first 20 bad rows then how many more', async () => {
    const file = join(sb.dir, 'many-bad.ndjson');
    writeFileSync(file, Array.from({ length: 25 }, (_, i) => JSON.stringify({ tx_hash: `0x${i}`, amount: 'x' })).join('\n'));
    const r = await sb.txa(['import', file, '--wallet', wallet]);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1 + 20 + 1);
    expect(lines[21]).toBe('  … and 5 more');
  });

  it('with --json, a failure is the API error body with every bad row', async () => {
    const r = await sb.txa(['import', join(FIXTURES, 'bad-rows.ndjson'), '--json']);
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stderr)).toEqual({
      success: false,
      error: {
        code: 'IMPORT_FAILED',
        message: '2 rows are invalid; nothing was imported',
        errors: [
          { line: 3, field: 'amount', reason: "not a number: 'two'" },
          { line: 4, field: 'direction', reason: "must be one of inflow, outflow, got 'sideways'" },
        ],
      },
    });
  });

  it('refuses a file missing columns with the column list as the field', async () => {
    const r = await sb.txa(['import', join(SAMPLES, 'polygonscan_normal_txns_column_subset.csv'), '--wallet', wallet]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('error: IMPORT_FAILED (Txhash,From,To): the file lacks columns a transaction needs: Txhash, From, To');
  });

  it('an explorer file without --wallet is a usage error (exit 2)', async () => {
    const r = await sb.txa(['import', join(SAMPLES, 'etherscan_normal_txns.csv')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('error: USAGE_ERROR (wallet): etherscan files name no wallet: pass --wallet ID');
  });

  it('an unknown --format is a usage error (exit 2)', async () => {
    const r = await sb.txa(['import', join(SAMPLES, 'etherscan_normal_txns.csv'), '--format', 'xls']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--format must be one of auto, json, ndjson, csv, etherscan, koinly, rotki');
  });

  it('prints why rows were skipped on stderr', async () => {
    const w = (await sb.json(['wallet', 'add', '--address', '0x1133ea7af70876e64665ecd07c0a0476d09465a1', '--chain', 'arbitrum'])).data.id;
    const r = await sb.txa(['import', join(SAMPLES, 'arbiscan_normal_txns_excel_resaved.csv'), '--wallet', w]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('rows skipped\t3');
    expect(r.stderr).toContain('3 rows were skipped:\n  line 75: failed transaction');
  });
});
