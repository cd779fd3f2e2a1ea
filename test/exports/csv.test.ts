/** CSV exports read back with csv-parse: quoting, injection, column order, summary rows, dates, groups. */
import { describe, test, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { tempLedger, addWallets, addTxs, tag } from './seed.js';
import { createExport, downloadExport } from '../../src/engine/exports.js';
import { tagTransaction } from '../../src/engine/transaction-edits.js';
import { csvCell } from '../../src/exporters/csv-text.js';
import type { Engine } from '../../src/engine/engine.js';

async function exportCsv(engine: Engine, ws: string, dir: string, body: Record<string, unknown> = {}): Promise<{ text: string; rows: string[][] }> {
  const rec = await createExport(engine, ws, { format: 'csv', ...body });
  const { path } = downloadExport(engine, ws, rec.id, join(dir, `${rec.id}.csv`));
  const text = readFileSync(path, 'utf8');
  return { text, rows: parse(text, { relax_column_count: false }) as string[][] };
}

const TRICKY = [
  'plain',
  'comma, inside',
  'quote " inside',
  '"fully quoted"',
  'line\nbreak',
  'carriage\r\nreturn',
  '=SUM(A1:A9)',
  '+1+2',
  '-cmd|calc',
  '@import',
  '\tTabbed',
  '\rCR first',
  '-12.5',
  '-7',
  'Ünïcödé ✓ 日本 ₿',
  '',
];

describe('CSV cells', () => {
  test('formula-like cells get a leading quote, plain numbers stay numbers', () => {
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('@x')).toBe("'@x");
    expect(csvCell('-cmd')).toBe("'-cmd");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('-12.50')).toBe('-12.50');
    expect(csvCell('-3')).toBe('-3');
    expect(csvCell('-1e5')).toBe("'-1e5");
    expect(csvCell('\rx')).toBe('"\'\rx"');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
  });

  test('any text round-trips through csv-parse (after the injection prefix)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { minLength: 2, maxLength: 5 }), (cells) => {
        const line = `${cells.map(csvCell).join(',')}\r\n`;
        const [back] = parse(line) as string[][];
        const expected = cells.map((c) => (/^[=+\-@\t\r＝＋－＠]/.test(c) && !/^-?\d+(\.\d+)?$/.test(c) ? `'${c}` : c));
        expect(back).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe('CSV exports', () => {
  const { engine, ws, dir } = tempLedger('pro');
  const wallets = addWallets(engine, ws, ['Main, "hot"', 'Cold']);
  const ids = addTxs(engine, ws, wallets, [
    ...TRICKY.map((notes, i) => ({
      wallet: i % 2,
      day: `2024-0${1 + (i % 3)}-1${i % 10}`,
      time: `0${i % 10}:0${i % 6}:0${i % 7}`,
      amount: `${i + 1}.25`,
      fiat: `${i}.${i}5`,
      direction: (i % 2 ? 'outflow' : 'inflow') as 'inflow' | 'outflow',
      notes: notes === '' ? null : notes,
      symbol: i % 3 ? 'USDC' : 'ETH',
    })),
  ]);
  const income = tag(engine, ws, 'Income', 'income');
  const fees = tag(engine, ws, '=Fees', 'expense');
  tagTransaction(engine, ws, ids[0]!, { tag_ids: [income, fees] });
  tagTransaction(engine, ws, ids[1]!, { tag_ids: [fees] });

  test('RFC 4180 with CRLF, a header of all columns, constant column count, tricky notes intact', async () => {
    const { text, rows } = await exportCsv(engine, ws, dir);
    expect(text.endsWith('\r\n')).toBe(true);
    const outsideQuotes = text.replace(/"(?:[^"]|"")*"/g, '');
    expect(outsideQuotes).not.toMatch(/[^\r]\n/);
    expect(outsideQuotes.split('\r\n').length).toBe(rows.length + 1);
    expect(rows[0]).toEqual([
      'date',
      'tx_hash',
      'from_address',
      'to_address',
      'wallet_label',
      'chain',
      'token',
      'amount',
      'fiat_value',
      'direction',
      'type',
      'tags',
      'notes',
      'attachments',
    ]);
    expect(new Set(rows.map((r) => r.length))).toEqual(new Set([14]));
    const body = rows.slice(1, 1 + TRICKY.length);
    const notes = new Map(body.map((r) => [r[7], r[12]]));
    TRICKY.forEach((n, i) => {
      const expected = /^[=+\-@\t\r]/.test(n) && !/^-?\d+(\.\d+)?$/.test(n) ? `'${n}` : n;
      expect(notes.get(`${i + 1}.25`)).toBe(expected);
    });
    expect(body.find((r) => r[7] === '1.25')![11]).toBe("'=Fees; Income");
    expect(body.map((r) => r[4])).toContain('Main, "hot"');
    // timestamp order
    const dates = body.map((r) => r[0]!);
    expect([...dates].sort()).toEqual(dates);
  });

  test('summary: an empty row, then four label rows with the value in the fiat_value column', async () => {
    const { rows } = await exportCsv(engine, ws, dir, { columns: ['tx_hash', 'direction', 'fiat_value', 'amount'] });
    const tail = rows.slice(-5);
    expect(tail[0]).toEqual(['', '', '', '']);
    const inflow = TRICKY.map((_, i) => i)
      .filter((i) => i % 2 === 0)
      .reduce((s, i) => s + i * 100 + i * 10 + 5, 0);
    const outflow = TRICKY.map((_, i) => i)
      .filter((i) => i % 2 === 1)
      .reduce((s, i) => s + i * 100 + i * 10 + 5, 0);
    const money = (c: number) => `${c < 0 ? '-' : ''}${Math.floor(Math.abs(c) / 100)}.${String(Math.abs(c) % 100).padStart(2, '0')}`;
    expect(tail.slice(1)).toEqual([
      ['Total inflow', '', money(inflow), ''],
      ['Total outflow', '', money(outflow), ''],
      ['Net flow', '', money(inflow - outflow), ''],
      ['Transaction count', '', String(TRICKY.length), ''],
    ]);
    expect(rows[0]).toEqual(['tx_hash', 'direction', 'fiat_value', 'amount']);
    expect(rows.length).toBe(1 + TRICKY.length + 5);
  });

  test('without fiat_value the value goes in the second column; --no-include-summary gives a bare table', async () => {
    const { rows } = await exportCsv(engine, ws, dir, { columns: ['amount', 'date'] });
    expect(rows.at(-1)).toEqual(['Transaction count', String(TRICKY.length)]);
    const bare = await exportCsv(engine, ws, dir, { columns: ['amount', 'date'], options: { include_summary: false } });
    expect(bare.rows.length).toBe(1 + TRICKY.length);
  });

  test.each([
    ['YYYY-MM-DD', /^\d{4}-\d{2}-\d{2}$/, '2024-01-10'],
    ['MM/DD/YYYY', /^\d{2}\/\d{2}\/\d{4}$/, '01/10/2024'],
    ['DD/MM/YYYY HH:mm:ss', /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/, '10/01/2024 00:00:00'],
    ['YYYY-MM-DD HH:mm', /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/, '2024-01-10 00:00'],
  ])('date_format %s', async (format, shape, first) => {
    const { rows } = await exportCsv(engine, ws, dir, { columns: ['date', 'amount'], options: { date_format: format, include_summary: false } });
    for (const r of rows.slice(1)) expect(r[0]).toMatch(shape);
    expect(rows[1]).toEqual([first, '1.25']);
  });

  test('group_by tag: leading group column, ordered by tag name, a row under each of its tags, untagged last', async () => {
    const { rows } = await exportCsv(engine, ws, dir, { columns: ['amount'], options: { group_by: 'tag', include_summary: false } });
    expect(rows[0]).toEqual(['group', 'amount']);
    const groups = rows.slice(1).map((r) => r[0]);
    expect(groups.slice(0, 3)).toEqual(["'=Fees", "'=Fees", 'Income']);
    expect(rows.slice(1, 4).map((r) => r[1])).toEqual(['1.25', '2.25', '1.25']);
    expect(groups.slice(3).every((g) => g === '(untagged)')).toBe(true);
    expect(rows.length).toBe(1 + TRICKY.length + 1);
  });

  test('group_by month / wallet / token order the rows by the group key', async () => {
    for (const [by, expected] of [
      ['month', ['2024-01', '2024-02', '2024-03']],
      ['wallet', ['Cold', 'Main, "hot"']],
      ['token', ['ETH', 'USDC']],
    ] as const) {
      const { rows } = await exportCsv(engine, ws, dir, { columns: ['date', 'wallet_label', 'token'], options: { group_by: by, include_summary: false } });
      const keys = rows.slice(1).map((r) => r[0]!);
      expect([...new Set(keys)]).toEqual(expected);
      expect(keys.length).toBe(TRICKY.length);
      const column = by === 'month' ? 1 : by === 'wallet' ? 2 : 3;
      for (const r of rows.slice(1)) expect(by === 'month' ? r[column]!.slice(0, 7) : r[column]).toBe(r[0]);
    }
  });

  test('filters apply: only outflows of one wallet', async () => {
    const { rows } = await exportCsv(engine, ws, dir, {
      columns: ['wallet_label', 'direction'],
      filters: { wallet_ids: [wallets[1]], direction: 'outflow' },
      options: { include_summary: false },
    });
    expect(rows.slice(1).length).toBe(TRICKY.length / 2);
    for (const r of rows.slice(1)) expect(r).toEqual(['Cold', 'outflow']);
  });
});
