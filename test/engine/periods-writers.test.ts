/**
 * The closed-period guard on the writers that run in batches or over many rows (docs/periods.md,
 * "The guard"): rules apply, prices fill (against a replay DefiLlama, refused before any request)
 * and wallet sync (against the replay explorer: the batch is refused and its cursor stays).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempEngine } from '../helpers/engine.js';
import { txaErrorOf, txaRejectionOf } from '../helpers/errors.js';
import { priceReplay, type PriceReplay } from '../helpers/price-replay.js';
import { replayServer, type ReplayServer } from '../helpers/explorer-replay.js';
import { WALLET, apiLists, history } from '../helpers/sync-history.js';
import type { Engine } from '../../src/engine/engine.js';
import { addWallet, insertNewWallet } from '../../src/engine/wallets.js';
import { importRecords } from '../../src/engine/imports.js';
import { createTag } from '../../src/engine/tags.js';
import { closePeriod, reopenPeriod } from '../../src/engine/periods.js';
import { parseRulesText } from '../../src/rules/file.js';
import { applyRules } from '../../src/rules/apply.js';
import { fillPrices } from '../../src/prices/fill.js';
import { priceApi } from '../../src/prices/apis.js';
import { WalletSync } from '../../src/sync/wallet-sync.js';
import { syncSettings } from '../../src/sync/settings.js';
import { transactionId } from '../../src/core/ids.js';
import type { ImportRecord } from '../../src/importers/types.js';
import { A, STRANGER, at, record as periodRecord } from '../helpers/period-records.js';

let engine: Engine;
let ws: string;

beforeEach(() => {
  ({ engine, ws } = tempEngine('enterprise'));
});
afterEach(() => engine.close());

/** A payment of 0.5 ETH from wallet address A to a shop, with no fiat value. */
const record = (n: number, iso: string, over: Partial<ImportRecord> = {}): ImportRecord =>
  periodRecord(n, iso, { from_address: A, to_address: STRANGER, amount: '0.5', fiat_value: null, direction: 'outflow', ...over });

const count = (sql: string) => engine.db.prepare(sql).pluck().get() as number;
const snapshot = () => ({
  links: count('SELECT count(*) FROM transaction_tags'),
  valued: count('SELECT count(*) FROM transactions WHERE fiat_cents IS NOT NULL'),
  events: count('SELECT count(*) FROM events'),
});

function loadTwoYears(): { wallet: string; id2024: string; id2025: string } {
  const wallet = engine.write(() => insertNewWallet(engine, ws, { address: A, chain: 'ethereum', label: 'A' }).id);
  const r2024 = record(1, '2024-05-01T12:00:00Z');
  const r2025 = record(2, '2025-05-01T12:00:00Z');
  importRecords(engine, ws, [r2024, r2025], { walletId: wallet, format: 'json' });
  const id = (r: ImportRecord) => transactionId(wallet, r.tx_hash, 't:ETH:outflow:0');
  return { wallet, id2024: id(r2024), id2025: id(r2025) };
}

describe('rules apply', () => {
  it('a rule matching a 2024 row is refused whole; over 2025 only it applies', async () => {
    const { id2024 } = loadTwoYears();
    createTag(engine, ws, { name: 'Shopping', type: 'expense' });
    await closePeriod(engine, ws, { through: '2024-12-31' });
    const rules = parseRulesText('rules: [{name: shop, match: {direction: outflow}, set: {tags: [Shopping]}}]');
    const before = snapshot();
    const e = txaErrorOf(() => applyRules(engine, ws, rules));
    expect([e.code, e.field]).toEqual(['PERIOD_CLOSED', id2024]);
    expect(snapshot()).toEqual(before);
    const result = applyRules(engine, ws, rules, { period: { startTs: at('2025-01-01T00:00:00Z') } });
    expect(result.changed).toBe(1);
  });
});

describe('prices fill', () => {
  let server: PriceReplay;
  beforeEach(async () => {
    server = await priceReplay();
    server.fallback = { price: 2000 };
  });
  afterEach(async () => server.close());

  it('a fill that would value 2024 rows is refused before any request; from 2025 on it values', async () => {
    const { id2024, id2025 } = loadTwoYears();
    await closePeriod(engine, ws, { through: '2024-12-31' });
    const api = priceApi('defillama', { defillamaUrl: `${server.url}/llama`, coingeckoUrl: `${server.url}/cg`, coingeckoKey: undefined, rps: 1000 });
    const before = snapshot();
    const e = await txaRejectionOf(fillPrices(engine, ws, api, {}));
    expect([e.code, e.field, e.extra?.count]).toEqual(['PERIOD_CLOSED', id2024, 1]);
    expect(server.calls).toHaveLength(0);
    expect(snapshot()).toEqual(before);
    const { result } = await fillPrices(engine, ws, api, { startTs: at('2025-01-01T00:00:00Z') });
    expect(result.priced).toBe(1);
    expect(count(`SELECT fiat_cents FROM transactions WHERE id = '${id2025}'`)).toBe(100_000);
  });
});

describe('wallet sync', () => {
  let server: ReplayServer;
  beforeEach(async () => {
    server = await replayServer(apiLists(history(), 'etherscan'));
  });
  afterEach(async () => server.close());

  const syncer = () =>
    new WalletSync(
      engine,
      ws,
      syncSettings({ TXA_ETHERSCAN_URL: server.url, TXA_ETHERSCAN_API_KEY: 'test-key', TXA_SYNC_RPS: '1000', TXA_SYNC_PAGE_SIZE: '5' }),
    );

  it('a sync bringing rows of a closed period is refused, says how many, writes none and leaves its cursor; after a reopen it syncs', async () => {
    // The replay history is dated November 2023.
    await closePeriod(engine, ws, { through: '2023-12-31' });
    const wallet = addWallet(engine, ws, { address: WALLET, chain: 'ethereum' }).id;
    const cursors = () => engine.db.prepare('SELECT list, block FROM sync_cursors WHERE wallet_id = ? ORDER BY list').all(wallet);
    const before = { cursors: cursors(), rows: count('SELECT count(*) FROM transactions') };
    const e = await txaRejectionOf(syncer().sync(wallet));
    expect(e.code).toBe('PERIOD_CLOSED');
    expect(e.extra?.count).toBeGreaterThan(0);
    expect(e.message).toMatch(/rows? to be imported/);
    expect({ cursors: cursors(), rows: count('SELECT count(*) FROM transactions') }).toEqual(before);
    reopenPeriod(engine, ws, { through: '2023-12-31', reason: 'sync the wallet' });
    const result = await syncer().sync(wallet);
    expect(result.new_transactions).toBeGreaterThan(0);
    expect(cursors().length).toBeGreaterThan(0);
  });
});
