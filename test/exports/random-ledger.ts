/**
 * Random ledgers full of text that trips CSV and JSON writers, for the tests that hold the SQL
 * fast paths (store/csv-rows.ts, store/json-rows.ts) to the JS writers byte for byte.
 */
import { afterAll } from 'vitest';
import { rmSync } from 'node:fs';
import fc from 'fast-check';
import { tempLedger, addWallets } from './seed.js';
import type { NewTransaction } from '../../src/store/transactions.js';
import { insertTransactions } from '../../src/store/insert-transactions.js';
import { amountKey } from '../../src/core/money.js';
import { CHAINS, TX_TYPES } from '../../src/core/types.js';
import type { Engine } from '../../src/engine/engine.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

export const PIECES = [
  '"',
  ',',
  '\r',
  '\n',
  '\r\n',
  '=',
  '+',
  '-',
  '@',
  '\t',
  '＝',
  '＋',
  '－',
  '＠',
  "'",
  ';',
  ' ',
  '.',
  '1',
  '42',
  '-7',
  '-1.5',
  '0.',
  'e5',
  'a',
  'Z',
  'é',
  'Ünï',
  '日本',
  '😀',
  '₿',
  '\uE000',
  '\uFFFD',
  '\x1d',
  '\x1e',
  '\x1f',
];
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
  chain: fc.constantFrom(...CHAINS),
  // Now and then a real 32-byte hash, which gets an explorer URL.
  hash: fc.oneof(text, fc.stringMatching(/^0x[0-9a-fA-F]{64}$/)),
  from: text,
  tokenAddress: fc.option(text, { nil: null }),
  // Mostly real types; now and then text no type is (a ledger edited by hand).
  type: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...TX_TYPES) }, { weight: 1, arbitrary: fc.constantFrom('=cmd', 'a,b', 'q"') }),
  tags: fc.uniqueArray(fc.nat(4), { maxLength: 3 }),
  // Most rows without attachments, as in real ledgers (the JSON fast path prints only those itself).
  attachments: fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(text, { minLength: 1, maxLength: 2 }) }),
  source: fc.constantFrom('import' as const, 'price' as const, 'manual' as const),
  spam: fc.boolean(),
});
/** Own transfers between rows (by index): two legs, or one when both indexes are the same. */
const transferArb = fc.record({
  legs: fc.tuple(fc.nat(24), fc.nat(24)),
  kind: fc.constantFrom('internal', 'bridge'),
  matchedBy: fc.constantFrom('auto', 'user', 'rule'),
});
export const ledgerArb = fc.record({
  labels: fc.tuple(text, text, text),
  tagNames: fc.uniqueArray(text, { minLength: 5, maxLength: 5 }),
  txs: fc.array(txArb, { minLength: 0, maxLength: 25 }),
  transfers: fc.array(transferArb, { maxLength: 6 }),
});

type Generated = typeof ledgerArb extends fc.Arbitrary<infer T> ? T : never;
type GeneratedTx = Generated['txs'][number];
/** A ledger to seed: generated, or written out by a test (the accounting fields optional). */
export type Ledger = Omit<Generated, 'txs' | 'transfers'> & {
  txs: (Omit<GeneratedTx, 'source' | 'spam'> & Partial<Pick<GeneratedTx, 'source' | 'spam'>>)[];
  transfers?: Generated['transfers'];
};

/** Writes the random ledger straight through the store, tags and attachments by SQL so any text goes in. */
export function seed(l: Ledger): { engine: Engine; ws: string; dir: string } {
  const { engine, ws, dir } = tempLedger();
  dirs.push(dir);
  const wallets = addWallets(engine, ws, ['a', 'b', 'c']);
  engine.write(() => {
    wallets.forEach((id, i) => engine.db.prepare('UPDATE wallets SET label = ? WHERE id = ?').run(l.labels[i], id));
    const tagIds = l.tagNames.map((name, i) => {
      engine.db
        .prepare(
          `INSERT INTO tags (id, workspace_id, name, name_key, type, color, created_by, created_at) VALUES (?, ?, ?, ?, 'neutral', '#000000', 'test', '2024-01-01T00:00:00Z')`,
        )
        .run(`tag_${i}`, ws, name, `k${i}`);
      return `tag_${i}`;
    });
    const rows: NewTransaction[] = l.txs.map((t, i) => ({
      id: `tx_${String(i).padStart(3, '0')}`,
      workspace_id: ws,
      wallet_id: wallets[t.wallet]!,
      chain: t.chain,
      tx_hash: t.hash,
      transfer_key: String(i),
      from_address: t.from,
      to_address: `0x${i}`,
      token_symbol: t.symbol,
      token_address: t.tokenAddress,
      token_decimals: 18,
      amount: t.amount,
      amount_key: amountKey(t.amount),
      fiat_cents: t.fiatCents,
      direction: t.direction,
      type: t.type,
      ts: t.ts,
      notes: t.notes,
      fiat_value_source: t.source ?? 'import',
      spam: t.spam ? 1 : 0,
    }));
    insertTransactions(engine.db, rows, 0);
    linkTransfers(engine, ws, l, rows);
    l.txs.forEach((t, i) => {
      for (const k of t.tags) engine.db.prepare('INSERT INTO transaction_tags (transaction_id, tag_id) VALUES (?, ?)').run(rows[i]!.id, tagIds[k]);
      t.attachments.forEach((name, j) =>
        engine.db
          .prepare(
            `INSERT INTO attachments (id, transaction_id, file_name, content_type, file_size, sha256, stored_name, uploaded_at) VALUES (?, ?, ?, 'text/plain', 1, '', 'x', ?)`,
          )
          .run(`att_${i}_${j}`, rows[i]!.id, name, `2024-01-0${1 + (j % 2)}T00:00:00Z`),
      );
    });
  });
  return { engine, ws, dir };
}

/** Links the ledger's transfers whose legs exist, are free and go opposite ways (a row's transfer_id is all a leg is). */
function linkTransfers(engine: Engine, ws: string, l: Ledger, rows: NewTransaction[]): void {
  const used = new Set<number>();
  (l.transfers ?? []).forEach((t, k) => {
    const legs = [...new Set(t.legs)];
    if (legs.some((i) => i >= rows.length || used.has(i))) return;
    if (legs.length === 2 && rows[legs[0]!]!.direction === rows[legs[1]!]!.direction) return;
    const id = `trf_${k}`;
    engine.db
      .prepare(`INSERT INTO transfers (id, workspace_id, kind, matched_by, created_at) VALUES (?, ?, ?, ?, '2024-01-01T00:00:00Z')`)
      .run(id, ws, t.kind, t.matchedBy);
    for (const i of legs) {
      used.add(i);
      engine.db.prepare('UPDATE transactions SET transfer_id = ? WHERE id = ?').run(id, rows[i]!.id);
    }
  });
}
