/**
 * The CSV written from SQL-read cells (store/csv-rows.ts) against the JS writer: for random ledgers full of
 * hostile text, random column subsets/orders, every date format and filter, the two files must
 * be byte-identical.
 */
import { describe, test, expect, afterAll } from 'vitest';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { tempLedger, addWallets } from './seed.js';
import { insertTransactions, type NewTransaction } from '../../src/store/transactions.js';
import { streamTransactions, summaryOf } from '../../src/engine/transactions.js';
import { csvRawRows } from '../../src/store/csv-rows.js';
import { writeCsv } from '../../src/exporters/csv.js';
import { CSV_COLUMNS, DATE_FORMATS, type CsvColumn, type ExportJob } from '../../src/exporters/types.js';
import { amountKey } from '../../src/core/money.js';
import type { TxFilter } from '../../src/core/filters.js';
import type { Engine } from '../../src/engine/engine.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const PIECES = ['"', ',', '\r', '\n', '\r\n', '=', '+', '-', '@', '\t', '＝', '＋', '－', '＠', "'", ';', ' ', '.', '1', '42', '-7', '-1.5', '0.', 'e5', 'a', 'Z', 'é', 'Ünï', '日本', '😀', '₿', '\uE000', '\uFFFD', '\x1f'];
/** Text built from the pieces that trip CSV writers, number-looking text, or any string now and then. */
const text = fc.oneof(
  { weight: 4, arbitrary: fc.array(fc.constantFrom(...PIECES), { maxLength: 6 }).map((p) => p.join('')) },
  { weight: 1, arbitrary: fc.stringMatching(/^[-+]?[0-9.]{0,5}$/) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme' }) },
);
/** Canonical amounts (non-negative, no trailing zeros) with up to 18 decimals. */
const amount = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.stringMatching(/^\d{0,18}$/))
  .map(([whole, frac]) => `${whole}${frac.replace(/0+$/, '') ? `.${frac.replace(/0+$/, '')}` : ''}`);
const txArb = fc.record({
  wallet: fc.nat(2),
  ts: fc.integer({ min: 0, max: 4_102_444_800 }),
  amount,
  fiatCents: fc.option(fc.integer({ min: -1e12, max: 1e12 }), { nil: null }),
  direction: fc.constantFrom('inflow' as const, 'outflow' as const),
  symbol: text,
  notes: fc.option(text, { nil: null }),
  hash: text,
  from: text,
  type: fc.constantFrom('transfer', 'swap', '=cmd', 'a,b'),
  tags: fc.uniqueArray(fc.nat(4), { maxLength: 3 }),
  attachments: fc.array(text, { maxLength: 2 }),
});
const ledgerArb = fc.record({
  labels: fc.tuple(text, text, text),
  tagNames: fc.uniqueArray(text, { minLength: 5, maxLength: 5 }),
  txs: fc.array(txArb, { minLength: 0, maxLength: 25 }),
});
const DATE_PATTERNS = DATE_FORMATS.flatMap((d) => [d, `${d} HH:mm:ss`, `${d} HH:mm`]);
const FILTERS: TxFilter[] = [{}, { direction: 'inflow' }, { hasTags: true }, { hasNotes: false }];

type Ledger = typeof ledgerArb extends fc.Arbitrary<infer T> ? T : never;

/** Writes the random ledger straight through the store, tags and attachments by SQL so any text goes in. */
function seed(l: Ledger): { engine: Engine; ws: string; dir: string } {
  const { engine, ws, dir } = tempLedger();
  dirs.push(dir);
  const wallets = addWallets(engine, ws, ['a', 'b', 'c']);
  engine.write(() => {
    wallets.forEach((id, i) => engine.db.prepare('UPDATE wallets SET label = ? WHERE id = ?').run(l.labels[i], id));
    const tagIds = l.tagNames.map((name, i) => {
      engine.db.prepare(`INSERT INTO tags (id, workspace_id, name, name_key, type, color, created_by, created_at) VALUES (?, ?, ?, ?, 'neutral', '#000000', 'test', '2024-01-01T00:00:00Z')`).run(`tag_${i}`, ws, name, `k${i}`);
      return `tag_${i}`;
    });
    const rows: NewTransaction[] = l.txs.map((t, i) => ({
      id: `tx_${String(i).padStart(3, '0')}`, workspace_id: ws, wallet_id: wallets[t.wallet]!, chain: 'ethereum', tx_hash: t.hash, transfer_key: String(i),
      from_address: t.from, to_address: `0x${i}`, token_symbol: t.symbol, token_address: null, token_decimals: 18, amount: t.amount, amount_key: amountKey(t.amount),
      fiat_cents: t.fiatCents, direction: t.direction, type: t.type, ts: t.ts, notes: t.notes,
    }));
    insertTransactions(engine.db, rows, 0);
    l.txs.forEach((t, i) => {
      for (const k of t.tags) engine.db.prepare('INSERT INTO transaction_tags (transaction_id, tag_id) VALUES (?, ?)').run(rows[i]!.id, tagIds[k]);
      t.attachments.forEach((name, j) =>
        engine.db
          .prepare(`INSERT INTO attachments (id, transaction_id, file_name, content_type, file_size, sha256, stored_name, uploaded_at) VALUES (?, ?, ?, 'text/plain', 1, '', 'x', ?)`)
          .run(`att_${i}_${j}`, rows[i]!.id, name, `2024-01-0${1 + (j % 2)}T00:00:00Z`),
      );
    });
  });
  return { engine, ws, dir };
}

function jobOf(engine: Engine, ws: string, filter: TxFilter, columns: CsvColumn[], dateFormat: string, includeSummary: boolean, fast: boolean): ExportJob {
  const summary = summaryOf(engine, ws, filter);
  const job = {
    exportId: 'exp_test', createdAt: '2024-01-01T00:00:00Z', format: 'csv', filters: {}, columns, summary, transactionCount: summary.transaction_count,
    options: { currency: 'USD', date_format: dateFormat, include_summary: includeSummary, include_logo: false, cost_basis: 'fifo' },
    rows: () => streamTransactions(engine, ws, filter, 'timestamp_asc'),
    onProgress: () => {},
  } as unknown as ExportJob;
  if (fast) job.unconverted = { db: engine.db, workspaceId: ws, filter };
  return job;
}

function takesSqlPath(engine: Engine, ws: string, filter: TxFilter, columns: CsvColumn[], dateFormat: string): boolean {
  return csvRawRows(engine.db, ws, filter, columns, dateFormat) !== null;
}

async function bothFiles(engine: Engine, ws: string, dir: string, filter: TxFilter, columns: CsvColumn[], dateFormat: string, summary: boolean) {
  await writeCsv(jobOf(engine, ws, filter, columns, dateFormat, summary, true), join(dir, 'fast.csv'));
  await writeCsv(jobOf(engine, ws, filter, columns, dateFormat, summary, false), join(dir, 'js.csv'));
  return { fast: readFileSync(join(dir, 'fast.csv')), js: readFileSync(join(dir, 'js.csv')) };
}

describe('CSV fast path (cells read by SQL)', () => {
  test('is byte-identical to the JS writer for random ledgers, columns, date formats and filters', async () => {
    let sqlRuns = 0;
    await fc.assert(
      fc.asyncProperty(
        ledgerArb,
        fc.shuffledSubarray([...CSV_COLUMNS], { minLength: 1 }),
        fc.constantFrom(...DATE_PATTERNS),
        fc.constantFrom(...FILTERS),
        fc.boolean(),
        async (ledger, columns, dateFormat, filter, summary) => {
          const { engine, ws, dir } = seed(ledger);
          try {
            if (takesSqlPath(engine, ws, filter, columns, dateFormat)) sqlRuns++;
            const { fast, js } = await bothFiles(engine, ws, dir, filter, columns, dateFormat, summary);
            expect(fast.toString('utf8')).toBe(js.toString('utf8'));
            expect(fast.equals(js)).toBe(true);
          } finally {
            engine.close();
          }
        },
      ),
      { numRuns: 200 },
    );
    // The comparison means nothing if the SQL path never ran.
    expect(sqlRuns).toBeGreaterThan(100);
  });

  test('takes the SQL path for hostile text, and keeps JS when SQLite would order tags differently', async () => {
    const ledger: Ledger = {
      labels: ['=wallet', 'a,b', '"q"'],
      tagNames: ['b', 'A', '-1.5', '=x', 'é'],
      txs: [
        { wallet: 0, ts: 1_700_000_000, amount: '0.000000000000000001', fiatCents: -5, direction: 'outflow', symbol: '@T', notes: 'l1\r\nl2\x1fsep', hash: '-12', from: '+1', type: 'transfer', tags: [0, 1, 2, 3, 4], attachments: ['x"y.pdf', '=a.png'] },
        // Text that is almost a plain number: only -?digits(.digits)? escapes the formula prefix.
        ...['-1.2.3', '-1..2', '-.5', '-5.', '-', '-12', '-0.50', '--1', '-1e5', '-١٢'].map((notes, i) => ({
          wallet: 1, ts: 1_700_000_100 + i, amount: '1', fiatCents: null, direction: 'inflow' as const, symbol: notes, notes, hash: `h${i}`, from: 'f', type: 'transfer', tags: [], attachments: [],
        })),
      ],
    };
    const { engine, ws, dir } = seed(ledger);
    expect(takesSqlPath(engine, ws, {}, [...CSV_COLUMNS], 'YYYY-MM-DD')).toBe(true);
    const { fast, js } = await bothFiles(engine, ws, dir, {}, [...CSV_COLUMNS], 'DD/MM/YYYY HH:mm', true);
    expect(fast.equals(js)).toBe(true);
    expect(js.toString()).toContain(",'=wallet,");
    // U+E000 sorts before U+1F600 in UTF-8 but after it in UTF-16: SQL cannot order these as JS does.
    engine.db.prepare('UPDATE tags SET name = ? WHERE id = ?').run('\uE000', 'tag_0');
    engine.db.prepare('UPDATE tags SET name = ? WHERE id = ?').run('😀', 'tag_1');
    expect(takesSqlPath(engine, ws, {}, [...CSV_COLUMNS], 'YYYY-MM-DD')).toBe(false);
    expect(takesSqlPath(engine, ws, {}, ['date', 'notes'], 'YYYY-MM-DD')).toBe(true);
    engine.close();
  });
});
