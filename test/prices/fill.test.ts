/**
 * A price fill writes its values in batches (prices/fill.ts): the rollups must still equal the
 * sums over the rows, and every priced row gets the `transaction.updated` a single change gives
 * (old and new value, the transaction as it now is, the price used). Against a replay DefiLlama
 * on 127.0.0.1; more rows than one write batch, with spam, tagged and manually valued rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempEngine } from '../helpers/engine.js';
import { priceReplay, type PriceReplay } from '../helpers/price-replay.js';
import type { Engine } from '../../src/engine/engine.js';
import { insertNewWallet } from '../../src/engine/wallets.js';
import { importRecords } from '../../src/engine/imports.js';
import { createTag } from '../../src/engine/tags.js';
import { getTransaction } from '../../src/engine/transactions.js';
import { tagTransaction, updateTransaction } from '../../src/engine/transaction-edits.js';
import { fillPrices } from '../../src/prices/fill.js';
import { priceApi } from '../../src/prices/apis.js';
import type { ImportRecord } from '../../src/importers/types.js';

const WALLET = `0x${'1'.repeat(40)}`;
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const START = Date.UTC(2024, 0, 29) / 1000;
// More than one write batch (10,000 rows).
const ROWS = 12_000;

let server: PriceReplay;
let engine: Engine;
let ws: string;

beforeAll(async () => {
  server = await priceReplay();
  server.fallback = { price: 1234.5678 };
  ({ engine, ws } = tempEngine('enterprise'));
});
afterAll(async () => {
  engine.close();
  await server.close();
});

/** Rows over 40 days (across a month end), two tokens, both directions, some with a value already. */
function records(): ImportRecord[] {
  return Array.from({ length: ROWS }, (_, i) => ({
    line: i + 1,
    tx_hash: `0x${i.toString(16).padStart(64, '0')}`,
    from_address: `0x${'2'.repeat(40)}`,
    to_address: WALLET,
    timestamp: START + (i % 40) * 86_400 + ((i * 7919) % 86_400),
    notes: null,
    token: i % 3 === 0 ? { symbol: 'USDC', address: USDC, decimals: 6 } : { symbol: 'ETH', address: null, decimals: 18 },
    amount: `${(i % 89) + 1}.${String(i % 997).padStart(3, '0')}1`,
    fiat_value: i % 11 === 0 ? `${i}.25` : null,
    direction: i % 4 === 0 ? 'outflow' : 'inflow',
    type: 'transfer',
  }));
}

/** Each rollup table next to the same sums computed from the rows (non-spam), keys with a zero count and sum left out. */
function rollupsAndRowSums(period: 'day' | 'month') {
  const table = period === 'day' ? 'rollup_daily' : 'rollup_monthly';
  const key = period === 'day' ? 'ts / 86400' : "CAST(julianday(date(ts, 'unixepoch', 'start of month')) - julianday('1970-01-01') AS INTEGER)";
  const stored = engine.db
    .prepare(
      `SELECT ${period} AS p, wallet_id, token_symbol, direction, tx_count AS n, fiat_cents AS cents FROM ${table} WHERE tx_count != 0 OR fiat_cents != 0 ORDER BY 1, 2, 3, 4`,
    )
    .all();
  const summed = engine.db
    .prepare(
      `SELECT ${key} AS p, wallet_id, token_symbol, direction, count(*) AS n, coalesce(sum(fiat_cents), 0) AS cents
       FROM transactions WHERE spam = 0 GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
    )
    .all();
  return { stored, summed };
}

describe('prices fill in batches', () => {
  it('keeps the daily and monthly rollups equal to the row sums, and gives each priced row its transaction.updated', async () => {
    const walletId = engine.write(() => insertNewWallet(engine, ws, { address: WALLET, chain: 'ethereum', label: 'Main' }).id);
    importRecords(engine, ws, records(), { walletId, format: 'test' });
    const ids = engine.db.prepare('SELECT id FROM transactions ORDER BY ts, id').pluck().all() as string[];
    const tag = createTag(engine, ws, { name: 'Salary', type: 'income' });
    for (const [i, id] of ids.entries()) {
      if (i % 50 === 1) updateTransaction(engine, ws, id, { spam: true });
      else if (i % 50 === 2) updateTransaction(engine, ws, id, { fiat_value: 42.5 });
      else if (i % 50 === 3) tagTransaction(engine, ws, id, { tag_ids: [tag.id] });
    }
    const unpriced = engine.db.prepare('SELECT id FROM transactions WHERE fiat_cents IS NULL AND spam = 0').pluck().all() as string[];
    expect(unpriced.length).toBeGreaterThan(10_000);
    const lastSeq = engine.db.prepare('SELECT max(seq) FROM events').pluck().get() as number;

    const api = priceApi('defillama', { defillamaUrl: `${server.url}/llama`, coingeckoUrl: `${server.url}/cg`, coingeckoKey: undefined, rps: 1000 });
    const { result } = await fillPrices(engine, ws, api, {});
    expect(result.priced).toBe(unpriced.length);

    for (const period of ['day', 'month'] as const) {
      const { stored, summed } = rollupsAndRowSums(period);
      expect(stored.length).toBeGreaterThan(0);
      expect(stored).toEqual(summed);
    }

    const events = engine.db.prepare("SELECT subject_id, payload FROM events WHERE seq > ? AND type = 'transaction.updated' ORDER BY seq").all(lastSeq) as {
      subject_id: string;
      payload: string;
    }[];
    expect(events.map((e) => e.subject_id).sort()).toEqual([...unpriced].sort());
    for (const e of events) {
      const body = JSON.parse(e.payload);
      const now = getTransaction(engine, ws, e.subject_id);
      expect(now.fiat_value_source).toBe('price');
      expect(body).toMatchObject({ event: 'transaction.updated', workspace_id: ws, actor: 'cli', transaction: now });
      expect(body.changes).toEqual({ fiat_value: { old: null, new: now.fiat_value }, fiat_value_source: { old: null, new: 'price' } });
      expect(body.price).toMatchObject({ source: 'defillama', price: '1234.5678', currency: 'USD' });
    }
  });
});
