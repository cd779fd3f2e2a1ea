/**
 * `txa wallet sync --prices` (docs/prices.md "`wallet sync --prices`"): after each wallet's rows are written, its rows without
 * a value are priced as `txa prices fill` prices them, against the replay explorer and the replay
 * DefiLlama on 127.0.0.1; the counts of that fill join the wallet's `--json` entry.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { sandbox, type Sandbox } from '../helpers/cli.js';
import { replayServer, type ReplayServer } from '../helpers/explorer-replay.js';
import { priceReplay, type PriceReplay } from '../helpers/price-replay.js';
import { WALLET, apiLists, history } from '../helpers/sync-history.js';

let explorer: ReplayServer;
let prices: PriceReplay;
let s: Sandbox;
let wallet: string;

beforeAll(async () => {
  [explorer, prices] = await Promise.all([replayServer(), priceReplay()]);
});
afterAll(() => Promise.all([explorer.close(), prices.close()]));

beforeEach(async () => {
  explorer.lists = apiLists(history(30), 'etherscan');
  prices.fallback = { price: 2 };
  prices.calls.length = 0;
  s = sandbox({
    TXA_ETHERSCAN_URL: explorer.url,
    TXA_ETHERSCAN_API_KEY: 'test-key',
    TXA_SYNC_RPS: '1000',
    TXA_DEFILLAMA_URL: `${prices.url}/llama`,
    TXA_PRICES_RPS: '1000',
  });
  s.env.TXA_WORKSPACE = (await s.json(['workspace', 'create', 'Sync'])).data.id;
  wallet = (await s.json(['wallet', 'add', '--address', WALLET, '--chain', 'ethereum'])).data.id;
});

/** The wallet's rows: how many, without a value, valued by a fill; and its token-days. */
function stored(): { rows: number; unpriced: number; priced: number; tokenDays: number } {
  const db = new Database(s.env.TXA_DB!, { readonly: true });
  try {
    return db
      .prepare(
        `SELECT count(*) AS rows, sum(fiat_cents IS NULL) AS unpriced, sum(fiat_value_source = 'price') AS priced,
           count(DISTINCT coalesce(token_address, token_symbol) || date(ts, 'unixepoch')) AS tokenDays FROM transactions WHERE wallet_id = ?`,
      )
      .get(wallet) as { rows: number; unpriced: number; priced: number; tokenDays: number };
  } finally {
    db.close();
  }
}

describe('txa wallet sync --prices', () => {
  it('prices every synced row, and a price fill after it asks nothing', async () => {
    const out = await s.json(['wallet', 'sync', wallet, '--prices']);
    const after = stored();
    expect(after).toMatchObject({ rows: 88, unpriced: 0, priced: 88 });
    expect(out.data[0]).toMatchObject({
      wallet_id: wallet,
      new_transactions: 88,
      prices: { priced: 88, unpriced: 0, requests: prices.calls.length, cached: 0 },
    });
    // Batched: at most one call per 150 token-days.
    expect(prices.calls.length).toBe(Math.ceil(after.tokenDays / 150));
    expect((await s.json(['prices', 'fill'])).data).toEqual({ priced: 0, unpriced: 0, requests: 0, cached: 0 });
  });

  it('without --prices, and with --dry-run, nothing is priced and the price API is not called', async () => {
    const dry = await s.json(['wallet', 'sync', wallet, '--prices', '--dry-run']);
    expect(dry.data[0].prices).toBeUndefined();
    const plain = await s.json(['wallet', 'sync', wallet]);
    expect(plain.data[0].prices).toBeUndefined();
    expect(stored()).toMatchObject({ rows: 88, unpriced: 88 });
    expect(prices.calls).toHaveLength(0);
  });
});
