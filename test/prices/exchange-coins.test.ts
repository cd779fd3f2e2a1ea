/**
 * Prices for an exchange account's rows (docs/prices.md, docs/storage.md "Exchange wallets"): a
 * coin known by symbol only is priced as the on-chain coin of that symbol (ETH as Ethereum's,
 * USDC as Ethereum's USDC), else by the CoinGecko id of a well-known coin (BTC); an unknown symbol
 * stays unpriced. Against a replay DefiLlama on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join, resolve } from 'node:path';
import { tempEngine } from '../helpers/engine.js';
import { priceReplay, type PriceReplay } from '../helpers/price-replay.js';
import type { Engine } from '../../src/engine/engine.js';
import { createWallet } from '../../src/engine/wallets.js';
import { importFile } from '../../src/engine/imports.js';
import { fillPrices } from '../../src/prices/fill.js';
import { priceApi } from '../../src/prices/apis.js';
import { coinKey } from '../../src/prices/coins.js';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/import');
let server: PriceReplay;
let engine: Engine;
let ws: string;

beforeAll(async () => {
  server = await priceReplay();
  ({ engine, ws } = tempEngine('enterprise'));
});
afterAll(async () => {
  engine.close();
  await server.close();
});

describe('prices of exchange rows', () => {
  it('the coin of an exchange symbol', () => {
    expect(coinKey('exchange', null, '2024-01-01', 'ETH')).toBe('coingecko:ethereum');
    expect(coinKey('exchange', null, '2024-01-01', 'usdc')).toBe('ethereum:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48');
    expect(coinKey('exchange', null, '2024-01-01', 'BTC')).toBe('coingecko:bitcoin');
    expect(coinKey('exchange', null, '2024-01-01', 'NOTACOIN')).toBeNull();
  });

  it('a fill values the crypto-to-crypto trade of a Kraken file at the day’s prices', async () => {
    const w = createWallet(engine, ws, { kind: 'exchange', exchange: 'kraken', label: 'Kraken' }).id;
    engine.db.prepare("INSERT INTO rates (workspace_id, currency, day, rate) VALUES (?, 'EUR', '2023-02-01', '0.95')").run(ws);
    importFile(engine, ws, join(FIXTURES, 'kraken-ledgers.csv'), { walletId: w });
    server.points['coingecko:ethereum'] = { '2023-01-04': { price: 1250 }, '2023-01-12': { price: 1400 }, '2023-01-20': { price: 1600 } };
    server.points['coingecko:bitcoin'] = { '2023-01-04': { price: 17000 }, '2023-01-25': { price: 23000 } };
    const api = priceApi('defillama', { defillamaUrl: `${server.url}/llama`, coingeckoUrl: `${server.url}/cg`, coingeckoKey: undefined, rps: 1000 });
    await fillPrices(engine, ws, api, {});
    const value = (day: string, symbol: string, type: string, direction: string) =>
      engine.db
        .prepare("SELECT fiat_cents FROM transactions WHERE wallet_id = ? AND date(ts, 'unixepoch') = ? AND token_symbol = ? AND type = ? AND direction = ?")
        .pluck()
        .get(w, day, symbol, type, direction);
    // ETH for BTC on 2023-01-04: 0.5 ETH × 1,250 = 625.00; 0.035 BTC × 17,000 = 595.00; the fee 0.00007 × 17,000 = 1.19.
    expect(value('2023-01-04', 'ETH', 'swap', 'outflow')).toBe(62500);
    expect(value('2023-01-04', 'BTC', 'swap', 'inflow')).toBe(59500);
    expect(value('2023-01-04', 'BTC', 'fee', 'outflow')).toBe(119);
    // The staking reward: 0.0004 × 1,400 = 0.56; values the file gave (the buy, 1,503.90) stay.
    expect(value('2023-01-12', 'ETH', 'transfer', 'inflow')).toBe(56);
    expect(value('2023-01-03', 'ETH', 'swap', 'inflow')).toBe(150390);
  });
});
