/**
 * `txa prices import|list|fill|forget` run in process (test/helpers/in-process.ts), on a ledger
 * with one EUR-priced ETH inflow: imported prices fill it without any request to a price API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run as fill } from '../../../src/cli/commands/prices/fill.js';
import { run as forget } from '../../../src/cli/commands/prices/forget.js';
import { run as importPrices } from '../../../src/cli/commands/prices/import.js';
import { run as list } from '../../../src/cli/commands/prices/list.js';
import { runInProcess } from '../../helpers/in-process.js';
import { importOneRow, tempLedger, type TempLedger } from '../../helpers/in-process-ledger.js';

let l: TempLedger;
let globals: { db: string; workspace: string };

beforeAll(() => {
  l = tempLedger((engine, ws, dir) => {
    importOneRow(engine, ws, dir, { timestamp: '2024-03-01T10:00:00Z', amount: '0.5' });
  });
  globals = { db: l.db, workspace: l.workspace };
  writeFileSync(join(l.dir, 'prices.csv'), 'date,token,price,currency\n2024-03-01,eth,3000,USD\n');
});
afterAll(() => {
  delete process.env.TXA_CONFIG_DIR;
});

describe('txa prices, in process', () => {
  it('import --json counts the prices; list in a pipe shows the entry; fill --json prices the row from the cache', async () => {
    const imported = await runInProcess('txa prices import', importPrices, { file: join(l.dir, 'prices.csv') }, { ...globals, json: true });
    expect([imported.exitCode, JSON.parse(imported.stdout)]).toEqual([0, { success: true, data: { imported: 1 } }]);
    const listed = await runInProcess('txa prices list', list, {}, globals);
    expect(listed.stdout).toBe('2024-03-01\tETH\timport\t3000\tUSD\n');
    const filled = await runInProcess('txa prices fill', fill, {}, { ...globals, json: true });
    expect(JSON.parse(filled.stdout)).toEqual({ success: true, data: { priced: 1, unpriced: 0, requests: 0, cached: 1 } });
  });

  it('fill in a pipe: the summary line, naming the API', async () => {
    const r = await runInProcess('txa prices fill', fill, {}, globals);
    expect([r.exitCode, r.stdout]).toEqual([0, 'priced 0 rows, 0 left without a value (0 requests to DefiLlama, 0 token-days from the cache)\n']);
  });

  it('forget --dry-run in a pipe counts by source; without a selector it is USAGE_ERROR, exit 2', async () => {
    const counted = await runInProcess('txa prices forget', forget, { source: 'import', all: true, dryRun: true }, globals);
    expect(counted.stdout).toBe('would forget 1 cached price (import 1)\n');
    const r = await runInProcess('txa prices forget', forget, {}, globals);
    expect([r.exitCode, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(/^error: USAGE_ERROR: prices forget needs --token, --period, --start-date, --end-date, --invalid or --all\n/);
  });

  it('an unknown --source is USAGE_ERROR (source), exit 2', async () => {
    const r = await runInProcess('txa prices fill', fill, { source: 'binance' }, globals);
    expect(r.stderr).toBe("error: USAGE_ERROR (source): --source must be one of defillama, coingecko, got 'binance'\n");
    expect(r.exitCode).toBe(2);
  });
});
