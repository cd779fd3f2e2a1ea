/**
 * The tag rollups (migration 16) on a real ledger file: after every kind of write that touches
 * tag links or a tagged row's value (tag add/remove/replace, tag delete, import with tags, rules,
 * own-transfer matching, spam flips, fiat edits, wallet removal) they equal a recount from the
 * rows; summaries of tag filters through them equal the plain aggregate over the rows; pages read
 * by driving from the links equal pages read by walking the rows; migration 16 fills them as the
 * triggers would have. Each tag's usage_count (a counter since migration 16) follows its links.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { tempEngine } from '../helpers/engine.js';
import { undoMigrationsAfter } from '../helpers/schema.js';
import { Engine } from '../../src/engine/engine.js';
import { insertNewWallet, removeWallet } from '../../src/engine/wallets.js';
import { deleteTag } from '../../src/engine/tags.js';
import { importRecords } from '../../src/engine/imports.js';
import { tagTransaction, untagTransaction, updateTransaction } from '../../src/engine/transaction-edits.js';
import { getTransaction } from '../../src/engine/transactions.js';
import { applyRules } from '../../src/rules/apply.js';
import { parseRulesText } from '../../src/rules/file.js';
import type { ImportRecord } from '../../src/importers/types.js';
import { totals, totalsFromRows, type Totals } from '../../src/store/rollups.js';
import { selectPage, whereOf } from '../../src/store/transactions.js';
import { tagAccessOfPage } from '../../src/store/tag-pages.js';
import { openDb, SCHEMA_VERSION } from '../../src/store/db.js';
import type { Db } from '../../src/store/db.js';
import { buildFilter, type FilterInput, type TxFilter } from '../../src/core/filters.js';
import { transactionId } from '../../src/core/ids.js';
import { DAY_SECONDS, epochDay } from '../../src/core/dates.js';
import { SORTS } from '../../src/core/types.js';

const A = '0x' + 'a'.repeat(40);
const B = '0x' + 'b'.repeat(40);
const C = '0x' + 'c'.repeat(40);
const SHOP = '0x' + 'd'.repeat(40);
// 2024-01-20 12:00 UTC: rows every 3 days and 7 hours cross month ends and the leap day.
const T0 = Date.UTC(2024, 0, 20, 12) / 1000;
const ETH = { symbol: 'ETH', address: null, decimals: 18 };
const USDC = { symbol: 'USDC', address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', decimals: 6 };
const TAGS = ['Salary', 'Rent', 'Gas', 'Gifts', 'Review'];

type Wallet = 'a' | 'b' | 'c';
let engine: Engine;
let ws: string;
let dir: string;
let wallets: Record<Wallet, string>;

beforeEach(() => {
  ({ engine, ws, dir } = tempEngine('enterprise'));
  wallets = engine.write(() => ({
    a: insertNewWallet(engine, ws, { address: A, chain: 'ethereum', label: 'A' }).id,
    b: insertNewWallet(engine, ws, { address: B, chain: 'ethereum', label: 'B' }).id,
    c: insertNewWallet(engine, ws, { address: C, chain: 'arbitrum', label: 'C' }).id,
  }));
});
afterEach(() => engine.close());

const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

/** Row `n` of wallet `w`: its tags, value and direction vary with n; n % 7 == 0 sends to wallet b (an own transfer). */
function record(w: Wallet, n: number, tags: string[] = TAGS.filter((_, i) => (n >> i) % 3 === 0).slice(0, 3)): ImportRecord & { id: string } {
  const direction = n % 2 ? 'inflow' : 'outflow';
  const token = n % 3 ? ETH : USDC;
  const own = w === 'a' && direction === 'outflow' && n % 7 === 0;
  const r: ImportRecord = {
    line: n,
    tx_hash: hash(n),
    from_address: direction === 'outflow' ? { a: A, b: B, c: C }[w] : SHOP,
    to_address: direction === 'inflow' ? { a: A, b: B, c: C }[w] : own ? B : SHOP,
    token,
    amount: `${1 + (n % 5)}.5`,
    fiat_value: n % 11 === 0 ? null : `${n * 37 + 0.25}`,
    direction,
    type: 'transfer',
    timestamp: T0 + n * (3 * DAY_SECONDS + 7 * 3600),
    notes: null,
    tags: tags.map((name) => ({ name })),
  };
  return { ...r, id: transactionId(wallets[w], r.tx_hash, `t:${token.address ?? token.symbol}:${direction}:0`) };
}

function load(w: Wallet, records: ImportRecord[]) {
  return importRecords(engine, ws, records, { walletId: wallets[w], format: 'json' });
}

const tagId = (name: string) => engine.db.prepare('SELECT id FROM tags WHERE workspace_id = ? AND name = ?').pluck().get(ws, name) as string;

/** Every non-zero cell of the tag rollups, recounted from the rows and links in JavaScript. */
function recount(db: Db): Record<string, [number, number]> {
  const rows = db.prepare('SELECT id, workspace_id, wallet_id, chain, token_symbol, direction, ts, fiat_cents, spam FROM transactions').all() as {
    id: string;
    workspace_id: string;
    wallet_id: string;
    chain: string;
    token_symbol: string;
    direction: string;
    ts: number;
    fiat_cents: number | null;
    spam: number;
  }[];
  const links = new Map<string, string[]>();
  for (const l of db.prepare('SELECT transaction_id, tag_id FROM transaction_tags').all() as { transaction_id: string; tag_id: string }[]) {
    links.set(l.transaction_id, [...(links.get(l.transaction_id) ?? []), l.tag_id]);
  }
  const out: Record<string, [number, number]> = {};
  for (const r of rows) {
    const tags = links.get(r.id) ?? [];
    if (r.spam || tags.length === 0) continue;
    for (const tag of [...tags, '']) {
      const key = [r.workspace_id, tag, epochDay(r.ts), r.wallet_id, r.chain, r.token_symbol, r.direction].join('|');
      const cell = (out[key] ??= [0, 0]);
      cell[0] += 1;
      cell[1] += r.fiat_cents ?? 0;
    }
  }
  return out;
}

/** The stored tag rollups, without the cells that counted down to nothing. */
function stored(db: Db): Record<string, [number, number]> {
  const out: Record<string, [number, number]> = {};
  const rows = db.prepare('SELECT workspace_id, tag_id, day, wallet_id, chain, token_symbol, direction, tx_count, fiat_cents FROM tag_rollup_daily').all() as {
    workspace_id: string;
    tag_id: string;
    day: number;
    wallet_id: string;
    chain: string;
    token_symbol: string;
    direction: string;
    tx_count: number;
    fiat_cents: number;
  }[];
  for (const r of rows) {
    expect(r.tx_count, 'no cell counts below zero').toBeGreaterThanOrEqual(0);
    if (r.tx_count === 0 && r.fiat_cents === 0) continue;
    out[[r.workspace_id, r.tag_id, r.day, r.wallet_id, r.chain, r.token_symbol, r.direction].join('|')] = [r.tx_count, r.fiat_cents];
  }
  return out;
}

/** The tag rollups and each tag's usage_count equal their recounts. */
function expectExact(db: Db = engine.db): void {
  expect(stored(db)).toEqual(recount(db));
  const usage = db.prepare('SELECT id, usage_count FROM tags ORDER BY id').all();
  expect(usage).toEqual(
    db.prepare('SELECT g.id, (SELECT count(*) FROM transaction_tags x WHERE x.tag_id = g.id) AS usage_count FROM tags g ORDER BY g.id').all(),
  );
}

/** The plain aggregate over the matching rows, each row's links probed (no rollup, no driving). */
function slowTotals(db: Db, f: TxFilter): Totals {
  const w = whereOf(ws, f, 'walk');
  const rows = db
    .prepare(`SELECT t.direction, count(*) AS n, ifnull(sum(t.fiat_cents), 0) AS cents FROM transactions t WHERE ${w.sql} GROUP BY t.direction`)
    .all(...w.params) as {
    direction: string;
    n: number;
    cents: number;
  }[];
  const t: Totals = { inflowCents: 0, outflowCents: 0, count: 0 };
  for (const r of rows) {
    t.count += r.n;
    if (r.direction === 'inflow') t.inflowCents += r.cents;
    else t.outflowCents += r.cents;
  }
  return t;
}

describe('tag rollups follow every writer', () => {
  it('import with tags, own transfers, tag add/remove/replace, fiat edits, spam flips, rules, tag delete, wallet removal', () => {
    load(
      'a',
      Array.from({ length: 60 }, (_, n) => record('a', n)),
    );
    load(
      'b',
      Array.from({ length: 40 }, (_, n) => record('b', n + 100)),
    );
    load(
      'c',
      Array.from({ length: 30 }, (_, n) => record('c', n + 200)),
    );
    expect(engine.db.prepare('SELECT count(*) FROM transactions WHERE transfer_id IS NOT NULL').pluck().get()).toBeGreaterThan(0);
    expect(Object.keys(recount(engine.db)).length).toBeGreaterThan(50);
    expectExact();

    // Tags added, one removed, the set replaced, a row's last tag removed.
    const untagged = record('a', 1, []);
    load('a', [untagged]);
    const r3 = record('a', 3).id;
    tagTransaction(engine, ws, untagged.id, { tag_ids: [tagId('Salary'), tagId('Gas')] });
    expectExact();
    untagTransaction(engine, ws, untagged.id, tagId('Gas'));
    expectExact();
    updateTransaction(engine, ws, r3, { tag_ids: [tagId('Rent'), tagId('Gifts')] });
    expectExact();
    updateTransaction(engine, ws, untagged.id, { tag_ids: [] });
    expectExact();

    // Values: a fiat edit, a value cleared, a spam flip of a tagged row, a tag added to a spam row, and back.
    updateTransaction(engine, ws, r3, { fiat_value: 1234.56 });
    expectExact();
    updateTransaction(engine, ws, r3, { fiat_value: null });
    expectExact();
    updateTransaction(engine, ws, r3, { spam: true });
    expectExact();
    tagTransaction(engine, ws, r3, { tag_ids: [tagId('Review')] });
    untagTransaction(engine, ws, r3, tagId('Rent'));
    expectExact();
    updateTransaction(engine, ws, r3, { spam: false, fiat_value: 99.99 });
    expectExact();
    expect(
      getTransaction(engine, ws, r3)
        .tags.map((t) => t.name)
        .sort(),
    ).toEqual(['Gifts', 'Review']);

    // Rules: tags added to many rows, spam set and cleared.
    applyRules(
      engine,
      ws,
      parseRulesText('rules: [{name: r, match: {direction: inflow}, set: {tags: [Review]}}, {name: s, match: {min_amount: 5}, set: {spam: true}}]'),
    );
    expectExact();
    applyRules(engine, ws, parseRulesText('rules: [{name: s, match: {min_amount: 5}, set: {spam: false}}]'));
    expectExact();

    // A tag deleted takes its cells with it; a wallet removed takes its rows' cells.
    const gas = tagId('Gas');
    deleteTag(engine, ws, gas);
    expectExact();
    expect(engine.db.prepare('SELECT count(*) FROM tag_rollup_daily WHERE tag_id = ?').pluck().get(gas)).toBe(0);
    removeWallet(engine, ws, wallets.b);
    expectExact();
    expect(engine.db.prepare('SELECT count(*) FROM tag_rollup_daily WHERE wallet_id = ?').pluck().get(wallets.b)).toBe(0);
  });
});

describe('summaries of tag filters', () => {
  it('equal the plain aggregate exactly for one tag, several, has_tags, dates and dimensions, with and without spam', () => {
    load(
      'a',
      Array.from({ length: 220 }, (_, n) => record('a', n)),
    );
    load(
      'b',
      Array.from({ length: 160 }, (_, n) => record('b', n + 300)),
    );
    load(
      'c',
      Array.from({ length: 120 }, (_, n) => record('c', n + 600)),
    );
    for (const n of [4, 9, 310, 601]) updateTransaction(engine, ws, record(n < 300 ? 'a' : n < 600 ? 'b' : 'c', n).id, { spam: true });
    const ids = TAGS.map(tagId);
    const day = (n: number) => new Date((T0 + n * DAY_SECONDS) * 1000).toISOString().slice(0, 10);
    const tagPart: fc.Arbitrary<FilterInput> = fc.oneof(
      fc.constantFrom(...ids).map((id) => ({ tag_ids: [id] })),
      fc.subarray(ids, { minLength: 2, maxLength: 3 }).map((tag_ids) => ({ tag_ids })),
      fc.constantFrom(...ids).map((id) => ({ tag_ids: [id, id] })),
      fc.tuple(fc.constantFrom(...ids), fc.boolean()).map(([id, has_tags]) => ({ tag_ids: [id], has_tags })),
      fc.boolean().map((has_tags) => ({ has_tags })),
      fc.constant({ tag_ids: ['tag_unknown'] }),
      fc.constant({}),
    );
    const rest = fc.record(
      {
        wallet_ids: fc.constantFrom([wallets.a], [wallets.b, wallets.c]),
        chain: fc.constantFrom('ethereum', 'arbitrum'),
        token: fc.constantFrom('eth', 'USDC'),
        direction: fc.constantFrom('inflow', 'outflow'),
        start_date: fc.integer({ min: -10, max: 800 }).map(day),
        include_spam: fc.boolean(),
        min_amount: fc.constant('3'),
      },
      { requiredKeys: [] },
    );
    let matched = 0;
    fc.assert(
      fc.property(tagPart, rest, fc.integer({ min: 0, max: 400 }), (tags, others, span) => {
        const input: FilterInput = { ...others, ...tags };
        if (input.start_date) input.end_date = new Date(Date.parse(input.start_date) + span * DAY_SECONDS * 1000).toISOString().slice(0, 10);
        const f = buildFilter(input, 'INVALID_PARAMETERS');
        const expected = slowTotals(engine.db, f);
        matched += expected.count > 0 ? 1 : 0;
        expect(totals(engine.db, ws, f)).toEqual(expected);
        expect(totalsFromRows(engine.db, ws, f)).toEqual(expected);
      }),
      { numRuns: 500, seed: 13 },
    );
    expect(matched).toBeGreaterThan(100);
  });

  it('read the tag rollups: emptying them changes a one-tag summary and a has_tags one, not a two-tag one', () => {
    load(
      'a',
      Array.from({ length: 50 }, (_, n) => record('a', n)),
    );
    const one = buildFilter({ tag_ids: [tagId('Salary')] }, 'INVALID_PARAMETERS');
    const two = buildFilter({ tag_ids: [tagId('Salary'), tagId('Rent')] }, 'INVALID_PARAMETERS');
    const tagged = buildFilter({ has_tags: true }, 'INVALID_PARAMETERS');
    const untagged = buildFilter({ has_tags: false }, 'INVALID_PARAMETERS');
    const before = [one, two, tagged, untagged].map((f) => totals(engine.db, ws, f));
    expect(before.map((t) => t.count > 0)).toEqual([true, true, true, true]);
    engine.db.exec('BEGIN');
    engine.db.exec('DELETE FROM tag_rollup_daily');
    const after = [one, two, tagged, untagged].map((f) => totals(engine.db, ws, f));
    engine.db.exec('ROLLBACK');
    expect(after[0]!.count).toBe(0);
    expect(after[1]).toEqual(before[1]);
    expect(after[2]!.count).toBe(0);
    expect(after[3]!.count).toBe(before[2]!.count + before[3]!.count);
  });
});

describe('pages of tag filters', () => {
  it('driving from the links gives the rows walking gives, for every sort, offset and tag set', () => {
    load(
      'a',
      Array.from({ length: 150 }, (_, n) => record('a', n)),
    );
    load(
      'c',
      Array.from({ length: 80 }, (_, n) => record('c', n + 200)),
    );
    const ids = TAGS.map(tagId);
    fc.assert(
      fc.property(
        fc.subarray(ids, { minLength: 1, maxLength: 3 }),
        fc.constantFrom(...SORTS),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 120 }),
        fc.option(fc.constantFrom('ethereum', 'arbitrum') as fc.Arbitrary<'ethereum' | 'arbitrum'>, { nil: undefined }),
        (tagIds, sort, limit, offset, chain) => {
          const f: TxFilter = { tagIds, chain, spam: 'exclude' };
          const walked = selectPage(engine.db, ws, f, sort, limit, offset, 'walk');
          expect(selectPage(engine.db, ws, f, sort, limit, offset, 'drive')).toEqual(walked);
        },
      ),
      { numRuns: 200, seed: 5 },
    );
  });

  it('drive a rare tag from its links and walk a common one in date order', () => {
    load('a', [...Array.from({ length: 200 }, (_, n) => record('a', n, ['Common'])), record('a', 999, ['Rare'])]);
    const access = (name: string) => {
      const f: TxFilter = { tagIds: [tagId(name)], spam: 'exclude' };
      return tagAccessOfPage(engine.db, ws, f, totals(engine.db, ws, f).count, 50);
    };
    expect([access('Rare'), access('Common')]).toEqual(['drive', 'walk']);
    const w = whereOf(ws, { tagIds: [tagId('Rare')] }, 'drive');
    const plan = engine.db
      .prepare(`EXPLAIN QUERY PLAN SELECT t.id FROM transactions t WHERE ${w.sql} ORDER BY t.ts DESC, t.id DESC LIMIT 50`)
      .all(...w.params) as { detail: string }[];
    expect(plan.map((p) => p.detail).join('\n')).toMatch(
      // biome-ignore lint/correctness/noEmptyCharacterClassInRegex: [^] matches any character, newlines too
      /SEARCH t USING INDEX sqlite_autoindex_transactions_1 \(id=\?\)[^]*SEARCH x USING COVERING INDEX transaction_tags_by_tag/,
    );
  });
});

describe('migration 16', () => {
  it('fills the tag rollups of an existing ledger as the triggers keep them', () => {
    load(
      'a',
      Array.from({ length: 120 }, (_, n) => record('a', n)),
    );
    load(
      'c',
      Array.from({ length: 60 }, (_, n) => record('c', n + 200)),
    );
    updateTransaction(engine, ws, record('a', 3).id, { spam: true });
    untagTransaction(engine, ws, record('a', 6).id, tagId('Salary'));
    const maintained = stored(engine.db);
    const usage = engine.db.prepare('SELECT id, usage_count FROM tags ORDER BY id').all();
    expectExact();
    engine.close();
    // Back to the schema before migration 16 (the later ones undone first).
    const raw = new Database(join(dir, 'ledger.db'));
    undoMigrationsAfter(raw, 15);
    raw.pragma('user_version = 15');
    raw.close();
    const db = openDb(join(dir, 'ledger.db'));
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(stored(db)).toEqual(maintained);
      expect(db.prepare('SELECT id, usage_count FROM tags ORDER BY id').all()).toEqual(usage);
    } finally {
      db.close();
      engine = Engine.open(join(dir, 'ledger.db'));
    }
  });
});

describe('an import of many tagged rows (store/bulk-links.ts)', () => {
  const triggers = () => engine.db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' ORDER BY name").all();
  const tagCounts = () =>
    engine.db
      .prepare('SELECT count(*) FROM transactions t WHERE tag_count <> (SELECT count(*) FROM transaction_tags x WHERE x.transaction_id = t.id)')
      .pluck()
      .get();
  const links = () => engine.db.prepare('SELECT count(*) FROM transaction_tags').pluck().get() as number;

  it('does the link triggers’ work once at its end, as they would have: rollups, usage and tag counts exact, triggers back', () => {
    const schema = triggers();
    // Rows linked by the triggers first, whose cells the bulk import adds to; then 1,200 rows
    // (the first 60 again: duplicates) with spam among them, and a tag named in two cases.
    load(
      'a',
      Array.from({ length: 60 }, (_, n) => record('a', n)),
    );
    load(
      'c',
      Array.from({ length: 30 }, (_, n) => record('c', n)),
    );
    const before = links();
    const many = Array.from({ length: 1200 }, (_, n) => ({
      ...record('a', n, n % 17 === 0 ? ['Salary', 'salary', 'New'] : undefined),
      spam: n % 13 === 0 ? ('lookalike' as const) : undefined,
    }));
    const summary = load('a', many);
    expect(summary.imported).toBe(1140);
    expect(links() - before).toBeGreaterThan(1000);
    expect(engine.db.prepare('SELECT count(*) FROM transactions WHERE spam = 1 AND tag_count > 0').pluck().get()).toBeGreaterThan(50);
    expectExact();
    expect(tagCounts()).toBe(0);
    expect(triggers()).toEqual(schema);
    // The triggers work again after it.
    tagTransaction(engine, ws, record('a', 5).id, { tag_ids: [tagId('Gifts'), tagId('New')] });
    untagTransaction(engine, ws, record('a', 8).id, tagId('Salary'));
    expectExact();
    expect(tagCounts()).toBe(0);
  });

  it('gives what the triggers give, row for row, for random tags, values, spam and sizes either side of the threshold', () => {
    const names = [...TAGS, 'gas', 'Extra'];
    const rows = fc.array(
      fc.record({ tags: fc.subarray(names, { maxLength: 4 }), spam: fc.boolean(), priced: fc.boolean(), n: fc.integer({ min: 0, max: 5000 }) }),
      { minLength: 300, maxLength: 900 },
    );
    fc.assert(
      fc.property(rows, fc.integer({ min: 0, max: 80 }), (list, first) => {
        const t = tempEngine('enterprise');
        try {
          const w = t.engine.write(() => insertNewWallet(t.engine, t.ws, { address: A, chain: 'ethereum', label: 'A' }).id);
          const records = list.map(
            (r, i): ImportRecord => ({
              ...record('a', r.n, r.tags),
              line: i + 1,
              tx_hash: hash(i),
              fiat_value: r.priced ? `${r.n}.5` : null,
              spam: r.spam ? 'lookalike' : undefined,
            }),
          );
          // Some rows by the triggers first, then the rest in one call (deferred when ≥ 1,000 links).
          for (const part of [records.slice(0, first), records.slice(first)]) importRecords(t.engine, t.ws, part, { walletId: w, format: 'json' });
          expectExact(t.engine.db);
          expect(
            t.engine.db
              .prepare('SELECT count(*) FROM transactions t WHERE tag_count <> (SELECT count(*) FROM transaction_tags x WHERE x.transaction_id = t.id)')
              .pluck()
              .get(),
          ).toBe(0);
        } finally {
          t.engine.close();
        }
      }),
      { numRuns: 8, seed: 17, endOnFailure: true },
    );
  });

  it('leaves the triggers and rollups as they were when it rolls back (a dry run)', () => {
    load(
      'a',
      Array.from({ length: 20 }, (_, n) => record('a', n)),
    );
    const schema = triggers();
    const cells = stored(engine.db);
    const summary = importRecords(
      engine,
      ws,
      Array.from({ length: 1200 }, (_, n) => record('a', n)),
      { walletId: wallets.a, format: 'json', dryRun: true },
    );
    expect(summary.imported).toBe(1180);
    expect(triggers()).toEqual(schema);
    expect(stored(engine.db)).toEqual(cells);
    tagTransaction(engine, ws, record('a', 1).id, { tag_ids: [tagId('Gifts')] });
    expectExact();
  });
});
