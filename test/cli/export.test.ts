/** `txa export …` and `txa rates …` as a user runs them: the built binary on a throw-away ledger. */
import { describe, test, expect } from 'vitest';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'csv-parse/sync';
import { sandbox } from '../helpers/cli.js';
import { Engine } from '../../src/engine/engine.js';
import { createWorkspace } from '../../src/engine/workspaces.js';
import { addWallets, addMany } from '../exports/seed.js';

function seeded(tier: 'free' | 'pro', rows: number) {
  const s = sandbox();
  const engine = Engine.open(s.env.TXA_DB);
  const ws = createWorkspace(engine, { name: 'CLI', tier }).id;
  addMany(engine, ws, addWallets(engine, ws, ['Main', 'Cold']), rows);
  engine.close();
  s.env.TXA_WORKSPACE = ws;
  return { ...s, ws };
}

describe('txa export', () => {
  const s = seeded('pro', 50);

  test('create --format csv writes ./<export_id>.csv by default; --json prints the API body', async () => {
    const body = await s.json(['export', 'create', '--format', 'csv', '--columns', 'date,amount,fiat_value', '--direction', 'inflow']);
    expect(body.success).toBe(true);
    expect(body.data).toMatchObject({ status: 'completed', format: 'csv', transaction_count: 25 });
    // No public URL configured: no server answers a link, so the URL names the stored file.
    expect(body.data.download_url).toBe(pathToFileURL(join(`${s.env.TXA_DB}.files`, 'exports', `${body.data.id}.csv`)).href);
    const rows = parse(readFileSync(join(s.dir, `${body.data.id}.csv`), 'utf8')) as string[][];
    expect(rows[0]).toEqual(['date', 'amount', 'fiat_value']);
    expect(rows.length).toBe(1 + 25 + 5);
  });

  test('--period, --group-by and --out; status, list (newest first, paginated) and download', async () => {
    const s = seeded('pro', 50);
    await s.json(['export', 'create', '--format', 'csv']);
    const out = join(s.dir, 'jan.json');
    const r = await s.txa(['export', 'create', '--format', 'json', '--period', '2024-01', '--group-by', 'month', '--out', out]);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(readFileSync(out, 'utf8'));
    expect(doc.export.filters).toEqual({ start_date: '2024-01-01', end_date: '2024-01-31' });
    expect(doc.transactions.length).toBe(50);
    const id = doc.export.id as string;
    expect(r.stdout).toContain(id);

    const status = await s.json(['export', 'status', id]);
    expect(status.data).toMatchObject({ id, status: 'completed', format: 'json' });
    const list = await s.json(['export', 'list', '--limit', '1']);
    expect(list.data.map((e: { id: string }) => e.id)).toEqual([id]);
    expect(list.pagination).toMatchObject({ page: 1, limit: 1, total: 2, pages: 2 });
    const page2 = await s.json(['export', 'list', '--limit', '1', '--page', '2']);
    expect(page2.data[0].format).toBe('csv');

    const plain = await s.txa(['export', 'list']);
    expect(plain.stdout.trim().split('\n')[0]!.split('\t').slice(0, 3)).toEqual([id, 'completed', 'json']);

    const again = join(s.dir, 'again.json');
    const d = await s.txa(['export', 'download', id, '--out', again]);
    expect(d.exitCode).toBe(0);
    expect(d.stdout.trim()).toBe(again);
    expect(readFileSync(again).equals(readFileSync(out))).toBe(true);
  });

  test('--out into a missing directory: usage error (exit 2), no export created, no partial file', async () => {
    const before = (await s.json(['export', 'list'])).pagination.total;
    const r = await s.txa(['export', 'create', '--format', 'csv', '--out', join(s.dir, 'nope', 'x.csv')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: USAGE_ERROR \(out\): .*does not exist/m);
    expect((await s.json(['export', 'list'])).pagination.total).toBe(before);
    expect(existsSync(join(s.dir, 'nope'))).toBe(false);
    const id = (await s.json(['export', 'list'])).data[0].id;
    const d = await s.txa(['export', 'download', id, '--out', join(s.dir, 'missing', 'y.json')]);
    expect(d.exitCode).toBe(2);
    expect(readdirSync(s.dir).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  test('validation errors print the code and dotted field, exit 1; --json puts the error body on stderr', async () => {
    const r = await s.txa(['export', 'create', '--format', 'pdf']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^error: MISSING_REPORT_TYPE \(report-type\): /m);
    const d = await s.txa(['export', 'create', '--format', 'csv', '--start-date', '2024-01-02', '--end-date', '2024-01-02', '--json']);
    expect(d.exitCode).toBe(1);
    expect(d.stdout).toBe('');
    expect(JSON.parse(d.stderr)).toEqual({ success: false, error: { code: 'INVALID_DATE_RANGE', message: expect.any(String), field: 'filters.end_date' } });
    const e = await s.txa(['export', 'create', '--format', 'csv', '--delivery', 'email']);
    expect(e.stderr).toMatch(/MISSING_REQUIRED_FIELD \(delivery\.email_recipients\)/);
    // A value no flag takes is a usage error naming the flag as typed and echoing the value (docs/cli.md).
    for (const [flags, flag, value] of [
      [['--format', 'xls'], 'format', 'xls'],
      [['--format', 'csv', '--group-by', 'year'], 'group-by', 'year'],
      [['--format', 'csv', '--delivery', 'fax'], 'delivery', 'fax'],
      [['--format', 'csv', '--chain', 'solana'], 'chain', 'solana'],
      [['--format', 'csv', '--date-format', 'YYYY/MM/DD'], 'date-format', 'YYYY/MM/DD'],
    ] as const) {
      const bad = await s.txa(['export', 'create', ...flags]);
      expect([bad.exitCode, bad.stderr]).toEqual([
        2,
        expect.stringMatching(new RegExp(`^error: USAGE_ERROR \\(${flag}\\): --${flag} must be .*, got '${value}'`)),
      ]);
    }
    const dir = await s.txa(['export', 'create', '--format', 'csv', '--out', '.']);
    expect([dir.exitCode, dir.stderr]).toEqual([2, expect.stringMatching(/^error: USAGE_ERROR \(out\): --out \. is a directory/)]);
    const unknown = await s.txa(['export', 'status', 'exp_nope']);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toMatch(/EXPORT_NOT_FOUND/);
  });

  test('free tier: 1,001 rows is EXPORT_TOO_LARGE with exit 5 and both numbers in the JSON error', async () => {
    const free = seeded('free', 1001);
    const r = await free.txa(['export', 'create', '--format', 'csv', '--json']);
    expect(r.exitCode).toBe(5);
    expect(JSON.parse(r.stderr).error).toMatchObject({ code: 'EXPORT_TOO_LARGE', max_transactions: 1000, requested_transactions: 1001 });
    const human = await free.txa(['export', 'create', '--format', 'csv']);
    expect(human.exitCode).toBe(5);
    expect(human.stderr).toMatch(/^error: EXPORT_TOO_LARGE: 1001 transactions match/m);
  });

  test('webhook delivery runs in the foreground with progress lines on stderr (no TTY); a failed delivery exits 1', async () => {
    const r = await s.txa(['export', 'create', '--format', 'csv', '--delivery', 'webhook', '--webhook-url', 'http://127.0.0.1:9/hook', '--wait'], {
      timeout: 60_000,
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/export exp_\w+ \d+%/);
    // The error line carries the record's own code and the network error, not a bare "TypeError".
    expect(r.stderr).toMatch(/^error: DELIVERY_FAILED: .*127\.0\.0\.1:9\/hook failed after 4 tries; the last got connect ECONNREFUSED 127\.0\.0\.1:9$/m);
    expect(r.stdout).toMatch(/status\tfailed/);
  }, 60_000);
});

describe('txa rates', () => {
  test('import and list; a bad file lists its rows and imports nothing', async () => {
    const s = seeded('pro', 3);
    const good = join(s.dir, 'rates.csv');
    writeFileSync(good, 'date,currency,rate\r\n2024-01-01,EUR,0.91\r\n2024-01-02,EUR,0.92\r\n');
    const imported = await s.json(['rates', 'import', good]);
    expect(imported).toEqual({ success: true, data: { imported: 2 } });
    const bad = join(s.dir, 'bad.csv');
    writeFileSync(bad, 'date,currency,rate\n2024-01-03,EUR,abc\n');
    const r = await s.txa(['rates', 'import', bad]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('  line 2, rate: ');
    const list = await s.txa(['rates', 'list']);
    expect(list.stdout).toBe('2024-01-01\tEUR\t0.91\timport\n2024-01-02\tEUR\t0.92\timport');
    const eur = await s.json(['export', 'create', '--format', 'json', '--currency', 'EUR', '--period', '2024-01', '--out', join(s.dir, 'eur.json')]);
    expect(eur.data.status).toBe('completed');
    const doc = JSON.parse(readFileSync(join(s.dir, 'eur.json'), 'utf8'));
    // 1.00 × 0.91, 1.01 × 0.91 = 0.9191 → 0.92, 1.02 × 0.91 = 0.9282 → 0.93
    expect(doc.transactions.map((t: { fiat_value: number }) => t.fiat_value)).toEqual([0.91, 0.92, 0.93]);
  });
});
