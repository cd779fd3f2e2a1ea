/**
 * `txa workspace create|update --jurisdiction` and the UK tax report on the built binary, locally
 * and against a real `txa serve`: `--period 2024` is the UK tax year 6 April 2024 – 5 April 2025
 * and the report is in GBP (the workspace's values are in GBP here, so no rates are needed). By
 * hand (HMRC's CRYPTO22251, Victoria, with ETH, and a sale before the tax year): 100 bought
 * 2024-01-01 for £1,000; 10 sold 2024-04-05 for £500 (tax year 2023: not in the report, but it
 * leaves the pool 90 at £900); 50 bought 2024-09-18 for £125,000 (another wallet, the same pool:
 * 140 at £125,900); 50 sold 2024-12-01 for £300,000: cost £125,900 × 50/140 = £44,964.29, gain
 * £255,035.71.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { sandbox } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../server/serve-process.js';
import { Engine } from '../../src/engine/engine.js';
import { addTxs, addWallets } from '../exports/seed.js';

const s = sandbox();

let srv: ServeProcess | undefined;
afterAll(() => srv?.stop());

describe('txa workspace --jurisdiction and the uk tax report', () => {
  let ws = '';

  test('create --jurisdiction uk; an unknown one is USAGE_ERROR (jurisdiction) listing the known ones', async () => {
    const bad = await s.txa(['workspace', 'create', 'Paris', '--jurisdiction', 'fr']);
    expect([bad.exitCode, bad.stderr]).toEqual([
      2,
      expect.stringContaining("error: USAGE_ERROR (jurisdiction): --jurisdiction must be one of us, uk, ca, de, au, got 'fr'"),
    ]);
    const created = await s.json(['workspace', 'create', 'London', '--currency', 'GBP']);
    ws = created.data.id;
    expect(created.data.jurisdiction).toBe('us');
    const updated = await s.json(['workspace', 'update', ws, '--jurisdiction', 'uk']);
    expect(updated.data).toMatchObject({ id: ws, base_currency: 'GBP', jurisdiction: 'uk' });
    const engine = Engine.open(s.env.TXA_DB);
    const [a, b] = [0, 1];
    addTxs(engine, ws, addWallets(engine, ws, ['Hot', 'Cold']), [
      { wallet: a, day: '2024-01-01', amount: '100', fiat: '1000.00', direction: 'inflow' },
      { wallet: a, day: '2024-04-05', amount: '10', fiat: '500.00', direction: 'outflow' },
      { wallet: b, day: '2024-09-18', amount: '50', fiat: '125000.00', direction: 'inflow' },
      { wallet: b, day: '2024-12-01', amount: '50', fiat: '300000.00', direction: 'outflow' },
    ]);
    engine.close();
  });

  const expected = [
    ['date_sold', 'asset', 'quantity', 'proceeds', 'allowable_cost', 'gain_loss', 'matched', 'note'],
    ['2024-12-01', 'ETH', '50', '300000.00', '44964.29', '255035.71', 's104', ''],
  ];

  test('--period 2024 is the tax year from 6 April 2024', async () => {
    const out = join(s.dir, 'uk.csv');
    const r = await s.txa(['export', 'create', '--format', 'csv', '--report-type', 'tax', '--period', '2024', '--no-include-summary', '--out', out], {
      env: { TXA_WORKSPACE: ws },
    });
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    expect(parse(readFileSync(out, 'utf8'))).toEqual(expected);
    const hifo = await s.txa(['export', 'create', '--format', 'csv', '--report-type', 'tax', '--cost-basis', 'hifo'], { env: { TXA_WORKSPACE: ws } });
    expect([hifo.exitCode, hifo.stderr]).toEqual([
      1,
      expect.stringContaining('error: INVALID_FIELD (cost-basis): --cost-basis hifo is not allowed under jurisdiction uk'),
    ]);
  });

  test("each format prints the UK report's own totals on stderr (not the US gains, not a table it lacks)", async () => {
    const made = async (format: string) =>
      (
        await s.txa(['export', 'create', '--format', format, '--report-type', 'tax', '--period', '2024', '--out', join(s.dir, `totals.${format}`)], {
          env: { TXA_WORKSPACE: ws },
        })
      ).stderr;
    expect(await made('csv')).toBe(
      'totals: number of disposals 1 · disposal proceeds 300000.00 · allowable costs (including purchase price) 44964.29 · gains in the year, before losses 255035.71 · losses in the year 0.00',
    );
    const keyed = 'totals: disposals 1 · disposal proceeds 300000 · allowable costs 44964.29 · gains 255035.71 · losses 0';
    expect(await made('json')).toBe(keyed);
    expect(await made('pdf')).toBe(keyed.replace('300000 ', '300000.00 ').replace(/losses 0$/, 'losses 0.00'));
  });

  test('--jurisdiction us is a what-if: the US report of calendar 2024 (in GBP by --currency: the US default is USD)', async () => {
    const out = join(s.dir, 'us.csv');
    const r = await s.txa(
      [
        'export',
        'create',
        '--format',
        'csv',
        '--report-type',
        'tax',
        '--period',
        '2024',
        '--jurisdiction',
        'us',
        '--currency',
        'GBP',
        '--basis-scope',
        'universal',
        '--out',
        out,
      ],
      {
        env: { TXA_WORKSPACE: ws },
      },
    );
    // stderr: the report's gains (docs/exports.md, "CLI").
    expect([r.exitCode, r.stderr]).toEqual([
      0,
      expect.stringMatching(/^short-term gain -?\d+\.\d\d GBP · long-term gain -?\d+\.\d\d GBP · total gain -?\d+\.\d\d GBP$/),
    ]);
    const rows = parse(readFileSync(out, 'utf8')) as string[][];
    // FIFO from the pool: 2024-04-05 takes 10 of the January lot (£1,000 × 10/100 = £100); 2024-12-01 50 of its 90 left (£900 × 50/90 = £500).
    expect(rows.slice(1, 3).map((row) => [row[2], row[4]])).toEqual([
      ['2024-04-05', '100.00'],
      ['2024-12-01', '500.00'],
    ]);
  });

  test('against txa serve: the same report', async () => {
    const key = (await s.txa(['keys', 'create', '--name', 'ci'], { env: { TXA_WORKSPACE: ws } })).stdout.trim();
    srv = await startServe(s.env.TXA_DB);
    const out = join(s.dir, 'remote.csv');
    const r = await s.txa(['export', 'create', '--format', 'csv', '--report-type', 'tax', '--period', '2024', '--no-include-summary', '--out', out], {
      env: { TXA_BASE_URL: srv.url, TXA_API_KEY: key },
    });
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    expect(parse(readFileSync(out, 'utf8'))).toEqual(expected);
  });
});
