/**
 * `txa import FILE --format 1099da --wallet ID` and the new report types on the built binary,
 * locally and against a real `txa serve` (the body passes through the remote backend and the
 * API's export create). By hand: Main buys 1 ETH on 2024-01-10 for 1,000.00 and sells 0.4 ETH on
 * 2025-03-05 for 1,200.00 (cost 400.00, gain 800.00, long); the broker reports that sale with a
 * basis of 450.00 to the IRS: box J, code B, (e) 450.00, (g) 450.00 − 400.00 = 50.00, (h) 800.00.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { sandbox } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../server/serve-process.js';
import { Engine } from '../../src/engine/engine.js';
import { createWorkspace } from '../../src/engine/workspaces.js';
import { addTxs } from '../exports/seed.js';
import { createWallet } from '../../src/engine/wallets.js';
import { EXCHANGE_CHAIN } from '../../src/core/chains.js';

const s = sandbox();
const engine = Engine.open(s.env.TXA_DB!);
const ws = createWorkspace(engine, { name: 'Forms', tier: 'pro' }).id;
// The broker's account is an exchange wallet: an address wallet's disposals are self-custody (boxes C/F, I/L).
const main = createWallet(engine, ws, { kind: 'exchange', exchange: 'coinbase', label: 'Main' }).id;
addTxs(
  engine,
  ws,
  [main],
  [
    { wallet: 0, day: '2024-01-10', amount: '1', fiat: '1000.00', direction: 'inflow', chain: EXCHANGE_CHAIN },
    { wallet: 0, day: '2025-03-05', amount: '0.4', fiat: '1200.00', direction: 'outflow', chain: EXCHANGE_CHAIN },
  ],
);
engine.close();
s.env.TXA_WORKSPACE = ws;

let srv: ServeProcess | undefined;
afterAll(() => srv?.stop());

const HEADER = 'date_sold,date_acquired,asset,units,proceeds,cost_basis,basis_reported';

describe('txa import --format 1099da', () => {
  test('a bad file: exit 1, the line and field named, nothing written', async () => {
    writeFileSync(join(s.dir, 'bad.csv'), `${HEADER}\n2025-03-05,,ETH,0.4,1200.00,450.00,yes\n2025-03-06,,ETH,0.1,lots,,no\n`);
    const r = await s.txa(['import', 'bad.csv', '--format', '1099da', '--wallet', main]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('line 3');
    expect(r.stderr).toContain('proceeds');
    const missing = await s.txa(['import', 'bad.csv', '--format', '1099da']);
    expect([missing.exitCode, missing.stderr]).toEqual([2, expect.stringContaining('--wallet')]);
    const noColumn = join(s.dir, 'nocol.csv');
    writeFileSync(noColumn, 'date_sold,asset,units,proceeds,cost_basis,basis_reported\n2025-03-05,ETH,0.4,1200,450,yes\n');
    const r2 = await s.txa(['import', noColumn, '--format', '1099da', '--wallet', main, '--json']);
    expect(r2.exitCode).toBe(1);
    expect(JSON.parse(r2.stdout || r2.stderr).error).toMatchObject({ code: 'IMPORT_FAILED', field: 'date_acquired' });
    const rec = await s.txa(['export', 'create', '--format', 'csv', '--report-type', 'reconciliation', '--out', join(s.dir, 'none.csv')]);
    expect(rec.exitCode).toBe(0);
    expect((parse(readFileSync(join(s.dir, 'none.csv'), 'utf8'), { columns: true }) as { status: string }[]).filter((x) => x.status === 'matched')).toEqual([]);
  });

  test('the lines are imported (--json: the counts), and form8949 boxes the matched sale J with code B', async () => {
    writeFileSync(join(s.dir, 'da.csv'), `${HEADER}\n03/05/2025,01/10/2024,ETH,0.40000000,1200.00,450.00,yes\n`);
    const r = await s.txa(['import', 'da.csv', '--format', '1099da', '--wallet', main, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).data).toEqual({ format: '1099da', wallet_id: main, imported: 1, replaced: 0, years: [2025], dry_run: false });
    const out = join(s.dir, 'f.csv');
    const e = await s.txa(['export', 'create', '--format', 'csv', '--report-type', 'form8949', '--period', '2025', '--no-include-summary', '--out', out]);
    expect(e.exitCode, e.stderr).toBe(0);
    expect((parse(readFileSync(out, 'utf8')) as string[][]).slice(1)).toEqual([
      ['II', 'J', '0.4 ETH', '01/10/2024', '03/05/2025', '1200.00', '450.00', 'B', '50.00', '800.00', 'Main', expect.any(String)],
    ]);
  });

  test('against txa serve: form8949, positions --at, rollforward and the refusals pass through as body fields', async () => {
    const key = (await s.txa(['keys', 'create', '--name', 'ci'])).stdout.trim();
    srv = await startServe(s.env.TXA_DB!);
    const remote = { env: { TXA_BASE_URL: srv.url, TXA_API_KEY: key } };
    const out = join(s.dir, 'remote.csv');
    const f = await s.txa(
      ['export', 'create', '--format', 'csv', '--report-type', 'form8949', '--period', '2025', '--no-include-summary', '--out', out],
      remote,
    );
    expect(f.exitCode, f.stderr).toBe(0);
    expect((parse(readFileSync(out, 'utf8')) as string[][])[1]!.slice(0, 10)).toEqual([
      'II',
      'J',
      '0.4 ETH',
      '01/10/2024',
      '03/05/2025',
      '1200.00',
      '450.00',
      'B',
      '50.00',
      '800.00',
    ]);
    const pos = join(s.dir, 'pos.json');
    const p = await s.txa(['export', 'create', '--format', 'json', '--report-type', 'positions', '--at', '2025-03-05', '--out', pos], remote);
    expect(p.exitCode, p.stderr).toBe(0);
    // 0.6 ETH left of the lot (cost 600.00), valued at the day's sale: 1,200.00 / 0.4 × 0.6 = 1,800.00.
    expect(JSON.parse(readFileSync(pos, 'utf8')).positions).toEqual([
      expect.objectContaining({ wallet_label: 'Main', quantity: '0.6', cost_basis: 600, market_value: 1800, unrealized_gain: 1200, term_if_sold: 'long' }),
    ]);
    const roll = join(s.dir, 'roll.csv');
    const rf = await s.txa(
      ['export', 'create', '--format', 'csv', '--report-type', 'rollforward', '--period', '2025', '--no-include-summary', '--out', roll],
      remote,
    );
    expect(rf.exitCode, rf.stderr).toBe(0);
    expect(parse(readFileSync(roll, 'utf8'), { columns: true })).toEqual([
      expect.objectContaining({
        wallet_label: 'Main',
        opening_quantity: '1',
        disposed_quantity: '0.4',
        closing_quantity: '0.6',
        balance: '0.6',
        difference: '0',
      }),
    ]);
    const bad = await s.txa(['export', 'create', '--format', 'json', '--report-type', 'turbotax'], remote);
    expect([bad.exitCode, bad.stderr]).toEqual([1, expect.stringContaining('error: INVALID_FIELD (report-type): ')]);
    const at = await s.txa(['export', 'create', '--format', 'csv', '--report-type', 'rollforward', '--at', '2025-01-01'], remote);
    expect([at.exitCode, at.stderr]).toEqual([1, expect.stringContaining('error: INVALID_FIELD (at): ')]);
  });
});
