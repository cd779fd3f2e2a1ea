/**
 * The tax and income CSVs make their lines with csvRowWriter, which skips csvCell for cells that
 * are safe by construction and escapes repeated text once: its lines must be csvLine's, for rows
 * of hostile text and of every value the report's producers make.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { csvRowWriter, INCOME_COLUMNS, TAX_COLUMNS, type Row } from '../../src/exporters/tax-report.js';
import { csvLine } from '../../src/exporters/csv-text.js';
import { centsToString } from '../../src/core/money.js';
import { quantityText } from '../../src/accounting/quantity.js';

const hostile = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('=SUM(A1)', '-1.5', '+x', '@y', '\tz', 'a,b', 'q"uote', 'l\r\nf', '＝X', '日本', ''));
const cents = fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n });
const day = fc.integer({ min: 0, max: 4_102_444_800 }).map((s) => new Date(s * 1000).toISOString().slice(0, 10));
const quantity = fc.record({ units: fc.bigInt({ min: 0n, max: 10n ** 40n }), scale: fc.integer({ min: 0, max: 24 }) }).map(quantityText);
const cell = (arb: fc.Arbitrary<string | bigint>) => fc.option(arb, { nil: null });

const taxRow = fc.record({
  description: hostile,
  date_acquired: cell(day),
  date_sold: day,
  proceeds: cell(cents),
  cost_basis: cell(cents),
  gain_loss: cell(cents),
  term: cell(fc.constantFrom('short', 'long')),
  wallet_label: hostile,
  chain: hostile,
  token: hostile,
  quantity,
  acquired_transaction_id: cell(hostile),
  disposed_transaction_id: hostile,
  note: cell(fc.constantFrom('missing cost basis', 'no fiat value')),
});
const incomeRow = fc.record({
  date: day,
  wallet_label: hostile,
  chain: hostile,
  token: hostile,
  quantity,
  fair_value: cell(cents),
  tag: hostile,
  transaction_id: hostile,
});

/** csvLine of the row's cells, money as 2-decimal text: the reference. */
const reference = (columns: readonly string[], row: Row) =>
  csvLine(
    columns.map((c) => {
      const v = row[c] ?? null;
      return v === null ? '' : typeof v === 'bigint' ? centsToString(v) : v;
    }),
  );

describe('csvRowWriter', () => {
  for (const [name, columns, rows] of [
    ['tax', TAX_COLUMNS, taxRow],
    ['income', INCOME_COLUMNS, incomeRow],
  ] as const) {
    test(`${name} lines equal csvLine's, a writer reused over many rows`, () => {
      fc.assert(
        fc.property(fc.array(rows as fc.Arbitrary<Row>, { minLength: 1, maxLength: 30 }), (list) => {
          const write = csvRowWriter(columns);
          for (const row of list) expect(write(row)).toBe(reference(columns, row));
        }),
        { numRuns: 2_000 },
      );
    });
  }
});
