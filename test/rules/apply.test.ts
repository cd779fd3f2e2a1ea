/**
 * Rules on a real ledger file: each match key, first vs all, idempotency, dry runs, own
 * transfers by rule, the events of a run, and one transaction (a failure mid-run changes nothing).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempEngine } from '../helpers/engine.js';
import { txaErrorOf } from '../helpers/errors.js';
import type { Engine } from '../../src/engine/engine.js';
import { insertNewWallet } from '../../src/engine/wallets.js';
import { createTag } from '../../src/engine/tags.js';
import { importRecords } from '../../src/engine/imports.js';
import { getTransaction } from '../../src/engine/transactions.js';
import { transactionHistory } from '../../src/engine/history.js';
import { updateTransaction } from '../../src/engine/transaction-edits.js';
import { transactionId } from '../../src/core/ids.js';
import type { ImportRecord } from '../../src/importers/types.js';
import { parseRulesText } from '../../src/rules/file.js';
import { applyRules } from '../../src/rules/apply.js';

const A = '0x' + 'a'.repeat(40);
const B = '0x' + 'b'.repeat(40);
const C = '0x' + 'c'.repeat(40);
const SHOP = '0x' + 'd'.repeat(40);
const EMPLOYER = '0x' + 'e'.repeat(40);
const T0 = Date.UTC(2025, 2, 1, 12) / 1000;
const ETH = { symbol: 'ETH', address: null, decimals: 18 };
const USDC = { symbol: 'USDC', address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', decimals: 6 };

let engine: Engine;
let ws: string;
let wallets: Record<'a' | 'b' | 'c', string>;

beforeEach(() => {
  ({ engine, ws } = tempEngine('pro'));
  wallets = engine.write(() => ({
    a: insertNewWallet(engine, ws, { address: A, chain: 'ethereum', label: 'A' }).id,
    b: insertNewWallet(engine, ws, { address: B, chain: 'ethereum', label: 'B' }).id,
    c: insertNewWallet(engine, ws, { address: C, chain: 'arbitrum', label: 'C' }).id,
  }));
  for (const name of ['Salary', 'Shopping', 'Reviewed']) createTag(engine, ws, { name, type: name === 'Salary' ? 'income' : 'expense' });
});
afterEach(() => engine.close());

const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

function row(wallet: 'a' | 'b' | 'c', n: number, over: Partial<ImportRecord> = {}): ImportRecord & { id: string } {
  const direction = over.direction ?? 'outflow';
  const token = over.token ?? ETH;
  const r: ImportRecord = {
    line: n,
    tx_hash: hash(n),
    from_address: direction === 'outflow' ? [A, B, C][n % 3]! : SHOP,
    to_address: SHOP,
    token,
    amount: '1.5',
    fiat_value: '4500',
    direction,
    type: 'transfer',
    timestamp: T0 + n * 86400,
    notes: null,
    ...over,
  };
  return { ...r, id: transactionId(wallets[wallet], r.tx_hash, `t:${token.address ?? token.symbol}:${direction}:0`) };
}

function load(wallet: 'a' | 'b' | 'c', records: ImportRecord[]) {
  return importRecords(engine, ws, records, { walletId: wallets[wallet], format: 'json' });
}

const tx = (id: string) => getTransaction(engine, ws, id);
const tagsOf = (id: string) => tx(id).tags.map((t) => t.name);
const events = () => engine.db.prepare("SELECT count(*) FROM events WHERE type LIKE 'transaction.%' AND type <> 'transaction.created'").pluck().get();
const run = (yaml: string, opts = {}) => {
  const { samples: _, ...result } = applyRules(engine, ws, parseRulesText(yaml), opts);
  return result;
};
const one = (match: string, set = '{tags: [Reviewed]}') => run(`rules: [{name: r, match: ${match}, set: ${set}}]`).rules[0]!;

describe('each match key selects its rows', () => {
  let rows: Record<string, ImportRecord & { id: string }>;
  beforeEach(() => {
    rows = {
      pay: row('a', 1, { direction: 'inflow', from_address: EMPLOYER, to_address: A, amount: '3000', token: USDC, notes: 'March salary' }),
      coffee: row('a', 2, { from_address: A, to_address: SHOP, amount: '0.002', notes: 'Coffee at the café', method: 'Transfer' }),
      swap: row('a', 3, { from_address: A, to_address: SHOP, amount: '2', type: 'swap', method: 'Swap Exact ETH For Tokens' }),
      big: row('a', 4, {
        method: '0x7ff36ab5',
        from_address: A,
        to_address: SHOP,
        amount: '123456789012345678901234567890.000000000000000001',
        token: { ...ETH, decimals: 18 },
      }),
    };
    load('a', Object.values(rows));
    load('c', [(rows.arb = row('c', 5, { from_address: C, to_address: SHOP, amount: '1' }))]);
  });
  const hits = (match: string) => {
    const before = new Set(
      Object.values(rows)
        .filter((r) => tagsOf(r.id).includes('Reviewed'))
        .map((r) => r.id),
    );
    one(match);
    const after = Object.entries(rows)
      .filter(([, r]) => tagsOf(r.id).includes('Reviewed') && !before.has(r.id))
      .map(([k]) => k);
    return after.sort();
  };

  it('wallet_id, chain, token, direction, type', () => {
    expect(hits(`{wallet_id: ${wallets.c}}`)).toEqual(['arb']);
    expect(hits(`{chain: ethereum, token: usdc}`)).toEqual(['pay']);
    expect(hits(`{direction: outflow, type: swap}`)).toEqual(['swap']);
    expect(hits(`{wallet_id: [${wallets.a}, ${wallets.b}], direction: outflow}`)).toEqual(['big', 'coffee']);
  });

  it('counterparty: the other side of the row, case-insensitive, one or a list', () => {
    expect(hits(`{counterparty: ${EMPLOYER.toUpperCase().replace('0X', '0x')}}`)).toEqual(['pay']);
    // SHOP is the sender of nothing here: only outflows to it match; an unquoted 0x address stays an address.
    expect(hits(`{counterparty: [${SHOP}], chain: arbitrum}`)).toEqual(['arb']);
  });

  it("method: the explorer's name or selector, whole and case-insensitive, one or a list; rows without one never match", () => {
    expect(hits(`{method: swap exact eth for tokens}`)).toEqual(['swap']);
    expect(hits(`{method: [TRANSFER, '0x7FF36AB5']}`)).toEqual(['big', 'coffee']);
    expect(hits(`{method: Swap}`)).toEqual([]);
    expect(one(`{method: transfer}`).matched).toBe(1);
  });

  it('amounts exactly (a bound beyond a double) and dates inclusive', () => {
    expect(hits(`{min_amount: 123456789012345678901234567890.000000000000000001}`)).toEqual(['big']);
    expect(hits(`{max_amount: 0.002}`)).toEqual(['coffee']);
    expect(hits(`{start_date: 2025-03-03, end_date: 2025-03-04}`)).toEqual(['swap']);
  });

  it('has_tags (true/false, or names: any of them) and notes_contains (case-insensitive, or a /regex/)', () => {
    updateTransaction(engine, ws, rows.pay.id, { tag_ids: [engine.db.prepare("SELECT id FROM tags WHERE name = 'Salary'").pluck().get() as string] });
    expect(hits(`{has_tags: [salary]}`)).toEqual(['pay']);
    expect(one(`{has_tags: false}`, '{spam: false}').matched).toBe(4);
    expect(hits(`{notes_contains: CAFÉ}`)).toEqual(['coffee']);
    expect(hits(`{notes_contains: "/^march\\\\s+sal/i"}`)).toEqual([]); // pay carries Reviewed already
    expect(one(`{notes_contains: "/^march\\\\s+sal/i"}`).matched).toBe(1);
  });
});

describe('modes, idempotency and dry runs', () => {
  let r1: ImportRecord & { id: string };
  let r2: ImportRecord & { id: string };
  beforeEach(() => {
    r1 = row('a', 1, { from_address: A, amount: '5' });
    r2 = row('a', 2, { from_address: A, amount: '50' });
    load('a', [r1, r2]);
  });
  const RULES = (mode: string) => `
mode: ${mode}
rules:
  - name: big
    match: {min_amount: 10}
    set: {tags: [Shopping], notes: big}
  - name: all out
    match: {direction: outflow}
    set: {tags: [Reviewed], notes: spent}
`;

  it('first: a row belongs to the first rule that matches it', () => {
    const result = run(RULES('first'));
    expect(result).toEqual({
      dry_run: false,
      rules: [
        { name: 'big', matched: 1, changed: 1 },
        { name: 'all out', matched: 1, changed: 1 },
      ],
      changed: 2,
    });
    expect([tagsOf(r2.id), tx(r2.id).notes]).toEqual([['Shopping'], 'big']);
    expect([tagsOf(r1.id), tx(r1.id).notes]).toEqual([['Reviewed'], 'spent']);
  });

  it('all: every matching rule applies, tags add up, the last rule wins notes', () => {
    const result = run(RULES('all'));
    expect(result.rules).toEqual([
      { name: 'big', matched: 1, changed: 1 },
      { name: 'all out', matched: 2, changed: 2 },
    ]);
    expect([tagsOf(r2.id), tx(r2.id).notes]).toEqual([['Reviewed', 'Shopping'], 'spent']);
  });

  it('a second run changes nothing and writes no event, in either mode', () => {
    for (const mode of ['first', 'all']) {
      run(RULES(mode));
      const n = events();
      const again = run(RULES(mode));
      expect(again.changed).toBe(0);
      expect(again.rules.every((r) => r.changed === 0)).toBe(true);
      expect(events()).toBe(n);
    }
  });

  it('a dry run counts exactly what a run changes and writes nothing', () => {
    const n = events();
    const dry = run(RULES('all'), { dryRun: true });
    expect(dry).toEqual({ ...run(RULES('all'), { dryRun: true }), dry_run: true });
    expect([tagsOf(r1.id), tx(r1.id).notes, events()]).toEqual([[], null, n]);
    const real = run(RULES('all'));
    expect({ ...dry, dry_run: false }).toEqual(real);
  });

  it('a dry run hands back samples of the changed rows as they would be', () => {
    const { samples } = applyRules(engine, ws, parseRulesText(RULES('first')), { dryRun: true });
    expect(samples.map((s) => s.map((t) => [t.id, t.notes]))).toEqual([[[r2.id, 'big']], [[r1.id, 'spent']]]);
  });

  it('--period narrows the rows', () => {
    expect(run(RULES('all'), { period: { startTs: T0 + 2 * 86400 } }).rules.map((r) => r.matched)).toEqual([1, 1]);
  });

  it('spam is set and cleared, with the rollups exact', () => {
    const total = () => engine.db.prepare('SELECT sum(fiat_cents) FROM rollup_daily').pluck().get();
    const before = total();
    expect(run('rules: [{name: s, match: {min_amount: 10}, set: {spam: true}}]').changed).toBe(1);
    expect(tx(r2.id).spam).toBe(true);
    expect(total()).toBe(before - 450000);
    expect(run('rules: [{name: s, match: {min_amount: 10}, set: {spam: false}}]').changed).toBe(1);
    expect([tx(r2.id).spam, total()]).toEqual([false, before]);
  });
});

describe('events and the transaction', () => {
  it('each change has its event with actor and old/new values', () => {
    const r = row('a', 1, { from_address: A });
    load('a', [r]);
    run('rules: [{name: r, match: {}, set: {tags: [Reviewed], notes: checked}}]');
    const history = transactionHistory(engine, ws, r.id).slice(1);
    expect(history.map((h) => [h.event, h.actor, h.changes])).toEqual([
      ['transaction.updated', 'cli', { notes: { old: null, new: 'checked' } }],
      ['transaction.tagged', 'cli', { tags: { old: [], new: ['Reviewed'] } }],
    ]);
  });

  it('a failure mid-run changes nothing: no tag, no note, no event', () => {
    const rows = [row('a', 1, { from_address: A }), row('a', 2, { from_address: A })];
    load('a', rows);
    // The ledger refuses the second rule's write (a real SQLite failure in the middle of the run).
    engine.db.exec("CREATE TRIGGER no_boom BEFORE UPDATE OF notes ON transactions WHEN NEW.notes = 'boom' BEGIN SELECT RAISE(ABORT, 'refused'); END");
    const n = events();
    expect(() => run('mode: all\nrules: [{name: a, match: {}, set: {tags: [Reviewed]}}, {name: b, match: {amount_min: 1}, set: {notes: boom}}]')).toThrow(
      /amount_min/,
    );
    expect(() => run('mode: all\nrules: [{name: a, match: {}, set: {tags: [Reviewed]}}, {name: b, match: {min_amount: 1}, set: {notes: boom}}]')).toThrow(
      /refused/,
    );
    expect([tagsOf(rows[0]!.id), tagsOf(rows[1]!.id), events()]).toEqual([[], [], n]);
  });

  it('an unknown tag or wallet of the workspace is INVALID_RULES at its path, before anything runs', () => {
    const e = txaErrorOf(() => run('rules: [{name: a, match: {}, set: {tags: [Reviewed]}}, {name: b, match: {}, set: {tags: [Reviewed, Nope]}}]'));
    expect([e.code, e.field]).toEqual(['INVALID_RULES', 'rules.1.set.tags.1']);
    const w = txaErrorOf(() => run('rules: [{name: a, match: {wallet_id: wal_nope}, set: {spam: true}}]'));
    expect([w.code, w.field]).toEqual(['INVALID_RULES', 'rules.0.match.wallet_id']);
    const h = txaErrorOf(() => run('rules: [{name: a, match: {has_tags: [Nope]}, set: {spam: true}}]'));
    expect([h.code, h.field]).toEqual(['INVALID_RULES', 'rules.0.match.has_tags.0']);
    const d = txaErrorOf(() => run('rules: [{name: a, match: {start_date: 2025-02-30}, set: {spam: true}}]'));
    expect([d.code, d.field]).toEqual(['INVALID_RULES', 'rules.0.match.start_date']);
    const m = txaErrorOf(() => run('rules: [{name: a, match: {min_amount: -1}, set: {spam: true}}]'));
    expect([m.code, m.field, m.message]).toEqual(['INVALID_RULES', 'rules.0.match.min_amount', expect.stringMatching(/^rules\.0\.match\.min_amount must be/)]);
  });
});

describe('internal: true makes own transfers (matched_by rule)', () => {
  it('a proposed bridge is confirmed; a row sent to an own wallet becomes a one-leg transfer; a second run changes nothing', () => {
    const out = row('a', 1, { from_address: A, to_address: '0x' + '9'.repeat(40), amount: '1', timestamp: T0 });
    const into = row('c', 2, { direction: 'inflow', from_address: '0x' + '9'.repeat(40), to_address: C, amount: '0.995', timestamp: T0 + 600 });
    const toB = row('a', 3, { from_address: A, to_address: B, amount: '2', timestamp: T0 + 86400 });
    load('a', [out]);
    load('c', [into]);
    // The import already made toB a one-leg transfer (auto); unmatch it so only the rule can link it.
    load('a', [toB]);
    engine.db.prepare('UPDATE transactions SET transfer_id = NULL WHERE id = ?').run(toB.id);
    const result = run(`rules: [{name: own, match: {direction: outflow}, set: {internal: true}}]`);
    expect(result).toEqual({ dry_run: false, rules: [{ name: 'own', matched: 2, changed: 2 }], changed: 3 });
    expect(tx(out.id).transfer).toMatchObject({ counterpart_id: into.id, kind: 'bridge', matched_by: 'rule' });
    expect(tx(toB.id).transfer).toMatchObject({ counterpart_id: null, kind: 'internal', matched_by: 'rule' });
    expect(run(`rules: [{name: own, match: {direction: outflow}, set: {internal: true}}]`).changed).toBe(0);
  });
});
