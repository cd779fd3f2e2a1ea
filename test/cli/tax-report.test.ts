/**
 * `txa export create --report-type tax` on the built binary, locally and against a real
 * `txa serve`: the flags reach the report as the API's body fields. By hand: Main buys 1 ETH on
 * 2024-01-10 for 1,000.00 and 1 ETH on 2024-02-10 for 3,000.00; Cold buys 1 ETH on 2024-03-01 for
 * 2,000.00 and sells it on 2025-03-05 for 2,500.00. Per wallet: Cold's own lot, +500.00 long-term.
 * One pool, FIFO: Main's January lot, +1,500.00 long; HIFO: the February lot, −500.00 long.
 * By year (the default): the pool's lots at 2025-01-01 go to Main (balance 2: January, February)
 * then Cold (balance 1: March), so Cold's 2025 sale meets its March lot, +500.00 as per wallet.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { sandbox } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../server/serve-process.js';
import { Engine } from '../../src/engine/engine.js';
import { createWorkspace } from '../../src/engine/workspaces.js';
import { addTxs, addWallets } from '../exports/seed.js';

const s = sandbox();
const engine = Engine.open(s.env.TXA_DB!);
const ws = createWorkspace(engine, { name: 'Tax', tier: 'pro' }).id;
const [main, cold] = [0, 1];
addTxs(engine, ws, addWallets(engine, ws, ['Main', 'Cold']), [
  { wallet: main, day: '2024-01-10', amount: '1', fiat: '1000.00', direction: 'inflow' },
  { wallet: main, day: '2024-02-10', amount: '1', fiat: '3000.00', direction: 'inflow' },
  { wallet: cold, day: '2024-03-01', amount: '1', fiat: '2000.00', direction: 'inflow' },
  { wallet: cold, day: '2025-03-05', amount: '1', fiat: '2500.00', direction: 'outflow' },
]);
engine.close();
s.env.TXA_WORKSPACE = ws;

let srv: ServeProcess | undefined;
afterAll(() => srv?.stop());

async function taxRows(args: string[], name: string): Promise<string[][]> {
  const out = join(s.dir, name);
  const r = await s.txa(['export', 'create', '--format', 'csv', '--report-type', 'tax', '--period', '2025', '--no-include-summary', '--out', out, ...args]);
  expect(r.stderr).toBe('');
  expect(r.exitCode).toBe(0);
  return (parse(readFileSync(out, 'utf8')) as string[][]).slice(1);
}

const cells = (rows: string[][]) => rows.map((r) => [r[1], r[5], r[6], r[7]]);

describe('txa export create --report-type tax', () => {
  test('--basis-scope and --cost-basis choose the lots; by default by year, FIFO', async () => {
    expect(cells(await taxRows([], 'by-year.csv'))).toEqual([['2024-03-01', '500.00', 'long', 'Cold']]);
    expect(cells(await taxRows(['--basis-scope', 'wallet'], 'wallet.csv'))).toEqual([['2024-03-01', '500.00', 'long', 'Cold']]);
    expect(cells(await taxRows(['--basis-scope', 'universal'], 'pool.csv'))).toEqual([['2024-01-10', '1500.00', 'long', 'Cold']]);
    expect(cells(await taxRows(['--basis-scope', 'universal', '--cost-basis', 'hifo'], 'hifo.csv'))).toEqual([['2024-02-10', '-500.00', 'long', 'Cold']]);
  });

  test('an unknown scope or method is USAGE_ERROR naming the flag and the value, exit 2 (docs/cli.md)', async () => {
    const scope = await s.txa(['export', 'create', '--format', 'json', '--report-type', 'tax', '--basis-scope', 'pool']);
    expect([scope.exitCode, scope.stderr]).toEqual([2, "error: USAGE_ERROR (basis-scope): --basis-scope must be one of wallet, universal, got 'pool'"]);
    const method = await s.txa(['export', 'create', '--format', 'csv', '--report-type', 'tax', '--cost-basis', 'average']);
    expect([method.exitCode, method.stderr]).toEqual([
      2,
      expect.stringContaining("error: USAGE_ERROR (cost-basis): --cost-basis must be one of fifo, lifo, hifo, specific, got 'average'"),
    ]);
  });

  test('against txa serve the flags pass through as body fields, with the same result', async () => {
    const key = (await s.txa(['keys', 'create', '--name', 'ci'])).stdout.trim();
    srv = await startServe(s.env.TXA_DB!);
    const remote = { env: { TXA_BASE_URL: srv.url, TXA_API_KEY: key } };
    const out = join(s.dir, 'remote.csv');
    const r = await s.txa(
      ['export', 'create', '--format', 'csv', '--report-type', 'tax', '--period', '2025', '--basis-scope', 'universal', '--out', out],
      remote,
    );
    expect(r.exitCode).toBe(0);
    const rows = parse(readFileSync(out, 'utf8')) as string[][];
    expect(cells(rows.slice(1, 2))).toEqual([['2024-01-10', '1500.00', 'long', 'Cold']]);
    expect(rows.find((row) => row[0] === 'Long-term gain')?.[5]).toBe('1500.00');
    // Refused before any request, remote as local.
    const bad = await s.txa(['export', 'create', '--format', 'csv', '--report-type', 'tax', '--basis-scope', 'pool'], remote);
    expect([bad.exitCode, bad.stderr]).toEqual([2, expect.stringContaining('error: USAGE_ERROR (basis-scope): ')]);
  });
});
