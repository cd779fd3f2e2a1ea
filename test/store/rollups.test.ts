/**
 * Summaries from the daily + monthly rollups equal the plain aggregate over the rows, to the
 * cent, for random date ranges (mid-month edges, single days, whole months and years, open ends)
 * and dimension filters; wallet removal and migration 4 keep rollup_monthly in step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { tempEngine } from '../helpers/engine.js';
import { undoMigrationsAfter } from '../helpers/schema.js';
import type { Engine } from '../../src/engine/engine.js';
import { insertNewWallet, removeWallet } from '../../src/engine/wallets.js';
import { createWorkspace } from '../../src/engine/workspaces.js';
import type { NewTransaction } from '../../src/store/transactions.js';
import { insertTransactions } from '../../src/store/insert-transactions.js';
import { totalsFromRollups, totalsFromRows } from '../../src/store/rollups.js';
import { openDb, SCHEMA_VERSION } from '../../src/store/db.js';
import { buildFilter, type FilterInput } from '../../src/core/filters.js';
import { amountKey } from '../../src/core/money.js';
import { transactionId } from '../../src/core/ids.js';
import { dayOf, DAY_SECONDS } from '../../src/core/dates.js';

const CHAINS = ['ethereum', 'polygon', 'arbitrum', 'bsc'] as const;
// 2023-11-10 → 2025-03-20: crosses two year ends and the leap day of 2024.
const START = Date.UTC(2023, 10, 10) / 1000;
const DAYS = 496;

/** Creates four wallets (one per chain) in `ws` and inserts `count` pseudo-random rows in batches. */
function fillLedger(engine: Engine, ws: string, count: number, seed: number): string[] {
  const walletIds = engine.write(() =>
    CHAINS.map((chain, i) => insertNewWallet(engine, ws, { address: `0x${String(i + 1).repeat(40)}`, chain, label: `W${i}` }).id),
  );
  const rows = fc.sample(
    fc.record({
      w: fc.integer({ min: 0, max: 3 }),
      token: fc.constantFrom('ETH', 'USDC', 'usdc', 'DAI'),
      direction: fc.constantFrom('inflow' as const, 'outflow' as const),
      day: fc.integer({ min: 0, max: DAYS - 1 }),
      // Midnight and the last second of a day are the edges a wrong day/month key would move.
      second: fc.oneof(fc.constantFrom(0, DAY_SECONDS - 1), fc.integer({ min: 0, max: DAY_SECONDS - 1 })),
      cents: fc.option(fc.integer({ min: 0, max: 5_000_000 }), { freq: 8 }),
    }),
    { numRuns: count, seed },
  );
  const inserts: NewTransaction[] = rows.map((r, i) => {
    const walletId = walletIds[r.w]!;
    const hash = `0x${seed.toString(16)}${i.toString(16).padStart(62, '0')}`;
    return {
      id: transactionId(walletId, hash, 't'),
      workspace_id: ws,
      wallet_id: walletId,
      chain: CHAINS[r.w]!,
      tx_hash: hash,
      transfer_key: 't',
      from_address: '0xa',
      to_address: '0xb',
      token_symbol: r.token,
      token_address: null,
      token_decimals: 6,
      amount: '1',
      amount_key: amountKey('1'),
      fiat_cents: r.cents,
      direction: r.direction,
      type: 'transfer',
      ts: START + r.day * DAY_SECONDS + r.second,
      notes: null,
    };
  });
  // Several batches, so the upserts add to rollup rows that exist already.
  for (let i = 0; i < inserts.length; i += 250) engine.write(() => insertTransactions(engine.db, inserts.slice(i, i + 250), START));
  return walletIds;
}

const day = (offset: number) => dayOf(START + offset * DAY_SECONDS);
const ymd = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10);

/** Date ranges of every shape a summary sees; undefined = open end. */
const rangeArb: fc.Arbitrary<{ start_date?: string; end_date?: string }> = fc.oneof(
  fc
    .tuple(fc.integer({ min: -40, max: DAYS + 40 }), fc.integer({ min: -40, max: DAYS + 40 }))
    .map(([a, b]) => ({ start_date: day(Math.min(a, b)), end_date: day(Math.max(a, b)) })),
  fc.integer({ min: -5, max: DAYS + 5 }).map((d) => ({ start_date: day(d), end_date: day(d) })),
  fc.tuple(fc.integer({ min: 2023, max: 2025 }), fc.integer({ min: 0, max: 11 })).map(([y, m]) => ({ start_date: ymd(y, m, 1), end_date: ymd(y, m + 1, 0) })),
  fc.integer({ min: 2023, max: 2025 }).map((y) => ({ start_date: `${y}-01-01`, end_date: `${y}-12-31` })),
  fc
    .tuple(fc.integer({ min: 2023, max: 2025 }), fc.integer({ min: 0, max: 11 }), fc.integer({ min: 0, max: 14 }))
    .map(([y, m, n]) => ({ start_date: ymd(y, m, 1), end_date: ymd(y, m + n + 1, 0) })),
  fc.integer({ min: -40, max: DAYS + 40 }).map((d) => ({ start_date: day(d) })),
  fc.integer({ min: -40, max: DAYS + 40 }).map((d) => ({ end_date: day(d) })),
  fc.constant({}),
);

let engine: Engine;
let dir: string;
let ws: string;
let otherWs: string;
let walletIds: string[];

beforeAll(() => {
  ({ engine, ws, dir } = tempEngine('enterprise'));
  walletIds = fillLedger(engine, ws, 3000, 42);
  // A second workspace, so a summary that leaks across workspaces is caught.
  otherWs = createWorkspace(engine, { name: 'Other', tier: 'pro' }).id;
  fillLedger(engine, otherWs, 400, 43);
});

afterAll(() => engine.close());

describe('totalsFromRollups', () => {
  it('equals the row aggregate exactly for random date ranges and dimension filters', () => {
    let matched = 0;
    // At most two dimensions per case, so that most cases still match rows.
    const filterArb = fc
      .record({
        wallet_ids: fc.subarray([0, 1, 2, 3], { minLength: 1, maxLength: 2 }).map((ix) => ix.map((i) => walletIds[i]!)),
        chain: fc.constantFrom(...CHAINS),
        token: fc.constantFrom('ETH', 'usdc', 'USDC', 'dai', 'NONE'),
        direction: fc.constantFrom('inflow', 'outflow'),
      })
      .chain((all) => fc.subarray(Object.keys(all) as (keyof typeof all)[], { maxLength: 2 }).map((keys) => Object.fromEntries(keys.map((k) => [k, all[k]]))));
    fc.assert(
      fc.property(rangeArb, filterArb, (range, dims) => {
        const f = buildFilter({ ...dims, ...range } as FilterInput, 'INVALID_PARAMETERS');
        const expected = totalsFromRows(engine.db, ws, f);
        matched += expected.count > 0 ? 1 : 0;
        expect(totalsFromRollups(engine.db, ws, f)).toEqual(expected);
      }),
      { numRuns: 600, seed: 7 },
    );
    // Guard against a generator so selective that the comparison is vacuous.
    expect(matched).toBeGreaterThan(300);
  });

  it('reads whole months from rollup_monthly: emptying it changes a whole-year summary but not a mid-month one', () => {
    const db = openDb(join(dir, 'ledger.db'));
    try {
      db.exec('BEGIN');
      db.exec('DELETE FROM rollup_monthly');
      const whole = buildFilter({ start_date: '2024-01-01', end_date: '2024-12-31' }, 'INVALID_PARAMETERS');
      const inside = buildFilter({ start_date: '2024-03-02', end_date: '2024-03-30' }, 'INVALID_PARAMETERS');
      expect(totalsFromRollups(db, ws, whole).count).toBe(0);
      expect(totalsFromRollups(db, ws, inside)).toEqual(totalsFromRows(db, ws, inside));
      expect(totalsFromRollups(db, ws, inside).count).toBeGreaterThan(0);
      db.exec('ROLLBACK');
    } finally {
      db.close();
    }
  });
});

describe('rollup_monthly maintenance', () => {
  it("loses a removed wallet's rows and stays exact", () => {
    const t = tempEngine('enterprise');
    try {
      const ids = fillLedger(t.engine, t.ws, 500, 44);
      const monthlyRows = (walletId: string) =>
        (t.engine.db.prepare('SELECT count(*) AS n FROM rollup_monthly WHERE wallet_id = ?').get(walletId) as { n: number }).n;
      expect(monthlyRows(ids[1]!)).toBeGreaterThan(0);
      removeWallet(t.engine, t.ws, ids[1]!);
      expect(monthlyRows(ids[1]!)).toBe(0);
      expect(monthlyRows(ids[0]!)).toBeGreaterThan(0);
      for (const input of [{}, { chain: CHAINS[1] }, { start_date: '2024-02-01', end_date: '2024-12-31' }] as FilterInput[]) {
        const f = buildFilter(input, 'INVALID_PARAMETERS');
        expect(totalsFromRollups(t.engine.db, t.ws, f)).toEqual(totalsFromRows(t.engine.db, t.ws, f));
      }
      expect(totalsFromRollups(t.engine.db, t.ws, buildFilter({ chain: CHAINS[1] }, 'INVALID_PARAMETERS')).count).toBe(0);
    } finally {
      t.engine.close();
    }
  });

  it('migration 4 fills rollup_monthly from rollup_daily, as the inserts would have', () => {
    const t = tempEngine('enterprise');
    const path = join(t.dir, 'ledger.db');
    fillLedger(t.engine, t.ws, 800, 45);
    const all = 'SELECT * FROM rollup_monthly ORDER BY workspace_id, month, wallet_id, token_symbol, direction';
    const maintained = t.engine.db.prepare(all).all();
    t.engine.close();
    expect(maintained.length).toBeGreaterThan(0);
    // Turn the file back into a schema-3 ledger that has daily rollups only.
    const raw = new Database(path);
    raw.exec('DROP TABLE rollup_monthly');
    // …and without migrations 16 on (16's tag rollups' triggers read tag_count).
    undoMigrationsAfter(raw, 15);
    // …and without migration 6's link counts.
    for (const trigger of ['tag_link_added', 'tag_link_removed', 'attachment_added', 'attachment_removed']) raw.exec(`DROP TRIGGER ${trigger}`);
    raw.exec('ALTER TABLE transactions DROP COLUMN tag_count; ALTER TABLE transactions DROP COLUMN attachment_count');
    // …and without migration 7's sync cursors, migration 8's accounting columns, migration 10's assertions, 11's sync records, 12's price cache and 13's methods.
    raw.exec('DROP TABLE sync_cursors; DROP TABLE balance_assertions; DROP TABLE wallet_syncs; DROP TABLE prices');
    // …and 14's spam tables.
    raw.exec('DROP TABLE spam_reasons; DROP TABLE token_marks');
    // …and 15's daily token flows.
    raw.exec("DROP TABLE balance_days; DELETE FROM settings WHERE key = 'balance_days'");
    raw.exec(`DROP TRIGGER transfer_leg_deleted; DROP INDEX tx_transfer_legs; DROP INDEX tx_spam; DROP TABLE transfers; DROP TABLE transfer_rejections;
      ALTER TABLE transactions DROP COLUMN transfer_id; ALTER TABLE transactions DROP COLUMN fiat_value_source; ALTER TABLE transactions DROP COLUMN spam;
      ALTER TABLE transactions DROP COLUMN method`);
    raw.pragma('user_version = 3');
    raw.close();
    const db = openDb(path);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.prepare(all).all()).toEqual(maintained);
      const f = buildFilter({ start_date: '2023-12-15', end_date: '2025-01-31' }, 'INVALID_PARAMETERS');
      expect(totalsFromRollups(db, t.ws, f)).toEqual(totalsFromRows(db, t.ws, f));
    } finally {
      db.close();
    }
  });
});
