/** `txa import` run in process (test/helpers/in-process.ts): a txa NDJSON file into a wallet. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addWallet } from '../../../src/engine/wallets.js';
import { run } from '../../../src/cli/commands/import/import.js';
import { runInProcess } from '../../helpers/in-process.js';
import { tempLedger, type TempLedger } from '../../helpers/in-process-ledger.js';

let l: TempLedger;
let wallet: string;
let globals: { db: string; workspace: string };

const row = (n: number) => ({
  tx_hash: `0x${n.toString(16).padStart(64, '0')}`,
  timestamp: '2025-03-01T10:00:00Z',
  amount: '1.5',
  token: { symbol: 'ETH', address: null, decimals: 18 },
  direction: 'inflow',
  from_address: `0x${'2'.repeat(40)}`,
  to_address: `0x${'1'.repeat(40)}`,
});

beforeAll(() => {
  l = tempLedger((engine, ws) => {
    wallet = addWallet(engine, ws, { address: `0x${'1'.repeat(40)}`, chain: 'ethereum', label: 'Main' }).id;
  });
  globals = { db: l.db, workspace: l.workspace };
  writeFileSync(join(l.dir, 'one.ndjson'), `${JSON.stringify(row(1))}\n`);
  writeFileSync(join(l.dir, 'two.ndjson'), `${JSON.stringify(row(2))}\n`);
  writeFileSync(join(l.dir, 'bad.ndjson'), `${JSON.stringify({ ...row(3), amount: 'lots' })}\n`);
});
afterAll(() => {
  delete process.env.TXA_CONFIG_DIR;
});

describe('txa import, in process', () => {
  it('--json: the summary of the import', async () => {
    const r = await runInProcess('txa import', run, { file: join(l.dir, 'one.ndjson'), wallet, format: 'auto' }, { ...globals, json: true });
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout)).toMatchObject({ success: true, data: { format: 'ndjson', imported: 1, duplicates: 0, dry_run: false } });
  });

  it('in a pipe: one key<TAB>value line per count; a dry run says so on stderr', async () => {
    const r = await runInProcess('txa import', run, { file: join(l.dir, 'two.ndjson'), wallet, format: 'auto', dryRun: true }, globals);
    expect(r.stdout).toMatch(/^format\tndjson\nimported\t1\nduplicates skipped\t0\n/);
    expect(r.stdout).toMatch(new RegExp(`^wallet ${wallet}\\tMain: 1 imported$`, 'm'));
    expect(r.stderr).toBe('dry run: nothing was written\n');
  });

  it('a bad row: IMPORT_FAILED, then the row on stderr, exit 1', async () => {
    const r = await runInProcess('txa import', run, { file: join(l.dir, 'bad.ndjson'), wallet, format: 'auto' }, globals);
    expect([r.exitCode, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe("error: IMPORT_FAILED: 1 row is invalid; nothing was imported\n  line 1, amount: not a number: 'lots'\n");
  });
});
