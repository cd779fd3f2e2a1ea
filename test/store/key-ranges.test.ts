/**
 * Key ranges (store/key-ranges.ts) cut the matching rows into consecutive ranges of a fixed
 * size for the two export readers: every row in exactly one range, in export order, ties of
 * timestamps split anywhere.
 */
import { describe, test, expect, afterAll } from 'vitest';
import { rmSync } from 'node:fs';
import { addTxs, addWallets, tempLedger, tag } from '../exports/seed.js';
import { keyRanges, rangeParams, rangeQuery, readsInIndexOrder } from '../../src/store/key-ranges.js';
import { whereOf } from '../../src/store/transactions.js';
import type { TxFilter } from '../../src/core/filters.js';

const { engine, ws, dir } = tempLedger();
afterAll(() => {
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});
const wallets = addWallets(engine, ws, ['a', 'b']);
// 103 rows, eleven to a timestamp, so ranges of 10 split ties.
const ids = addTxs(
  engine,
  ws,
  wallets,
  Array.from({ length: 103 }, (_, i) => ({
    wallet: i % 2,
    day: `2024-01-${String(1 + Math.floor(i / 11)).padStart(2, '0')}`,
    amount: `${i}`,
    fiat: null,
    direction: i % 3 ? ('inflow' as const) : ('outflow' as const),
  })),
);
const fee = tag(engine, ws, 'fee');
engine.write(() =>
  ids.filter((_, i) => i % 4 === 0).forEach((id) => engine.db.prepare('INSERT INTO transaction_tags (transaction_id, tag_id) VALUES (?, ?)').run(id, fee)),
);

const inOrder = (f: TxFilter) => {
  const w = whereOf(ws, f);
  return engine.db
    .prepare(`SELECT t.id FROM transactions t WHERE ${w.sql} ORDER BY t.ts, t.id`)
    .pluck()
    .all(...w.params) as string[];
};

const day = (d: string) => Date.parse(`${d}T00:00:00Z`) / 1000;
const PERIOD: TxFilter = { startTs: day('2024-01-03'), endTs: day('2024-01-08') };

describe('key ranges', () => {
  for (const [name, filter] of [
    ['all rows', {}],
    ['a direction', { direction: 'outflow' }],
    ['a tag', { tagIds: [fee] }],
    ['one wallet', { walletIds: [wallets[1]!] }],
    ['nothing', { chain: 'bsc' }],
    ['a period', PERIOD],
  ] as [string, TxFilter][]) {
    test(`${name}: ranges of 10 hold every row once, in order`, () => {
      const where = whereOf(ws, filter, 'walk', 'scan');
      const { bounds, total } = keyRanges(engine.db, where, 10);
      const query = rangeQuery('t.id', where);
      expect(readsInIndexOrder(engine.db, query)).toBe(true);
      const stmt = engine.db.prepare(query.sql).pluck();
      const ranges = Array.from({ length: bounds.length - 1 }, (_, i) => stmt.all(...query.params, ...rangeParams(bounds, i)) as string[]);
      const expected = inOrder(filter);
      expect(ranges.flat()).toEqual(expected);
      expect(total).toBe(expected.length);
      expect(ranges.slice(0, -1).every((r) => r.length === 10)).toBe(true);
      expect(ranges.length).toBe(Math.ceil(expected.length / 10));
    });
  }

  test("a period's bounds leave the index to the range's own (ts, id) bounds", () => {
    // Each range is sought by its bounds, not walked from the period's start (quadratic: a
    // 1M-row quarter took minutes); the index form of the filter shows what it prevents.
    const plan = (time: 'index' | 'scan') => {
      const q = rangeQuery('t.id', whereOf(ws, PERIOD, 'walk', time));
      const rows = engine.db.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.params, 0, '', 0, '') as { detail: string }[];
      return rows.map((r) => r.detail).join(' ');
    };
    expect(plan('scan')).toContain('(ts,id)>(?,?) AND (ts,id)<(?,?)');
    expect(plan('index')).not.toContain('(ts,id)>(?,?)');
  });

  test('a query that would sort each range is refused', () => {
    const where = whereOf(ws, {});
    const sorting = { ...rangeQuery('t.id', where), sql: rangeQuery('t.id', where).sql.replace('ORDER BY t.ts ASC, t.id ASC', 'ORDER BY t.amount') };
    expect(readsInIndexOrder(engine.db, sorting)).toBe(false);
  });
});
