/**
 * A price API that sends garbage (docs/prices.md, "Bad answers"), run as a user runs `txa prices
 * fill` against the replay DefiLlama and CoinGecko on 127.0.0.1: a point that is no price (0, a
 * negative, null, a string, 1e300, Infinity) or above 10^12 USD, or whose time is none, leaves its
 * token-day unpriced with the reason and is never cached, so a fill against a healthy API prices
 * it; a point of another day is not the asked day's; "no price" for the day is still cached.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sandbox, type Sandbox } from '../helpers/cli.js';
import { priceReplay, type Point, type PriceReplay } from '../helpers/price-replay.js';

const WALLET = '0x' + '1'.repeat(40);
const OTHER = '0x' + '2'.repeat(40);
const ETH = { symbol: 'ETH', address: null, decimals: 18 };
const DAY = '2024-03-01';
const START = Date.UTC(2024, 2, 1) / 1000;
const NOON = START + 43_200;

let server: PriceReplay;
let s: Sandbox;

beforeAll(async () => {
  server = await priceReplay();
});
afterAll(() => server.close());

beforeEach(() => {
  server.points = {};
  server.calls.length = 0;
  server.faults = [];
  s = sandbox({ TXA_DEFILLAMA_URL: `${server.url}/llama`, TXA_COINGECKO_URL: `${server.url}/cg`, TXA_COINGECKO_API_KEY: 'cg-key', TXA_PRICES_RPS: '1000' });
});

/** A token contract per case, its address ending in its number. */
const token = (i: number) => '0x' + i.toString(16).padStart(40, '0');

/** A workspace with one inflow of `amount` of each token (ETH for null) on `DAY`. */
async function ledger(tokens: (string | null)[], amount = '1'): Promise<void> {
  s.env.TXA_WORKSPACE = (await s.json(['workspace', 'create', 'Bad points'])).data.id;
  const wallet = (await s.json(['wallet', 'add', '--address', WALLET, '--chain', 'ethereum'])).data.id;
  const rows = tokens.map((address, n) => ({
    tx_hash: `0x${(n + 1).toString(16).padStart(64, '0')}`,
    timestamp: `${DAY}T10:00:00Z`,
    amount,
    token: address === null ? ETH : { symbol: `T${n}`, address, decimals: 18 },
    direction: 'inflow',
    from_address: OTHER,
    to_address: WALLET,
    fiat_value: null,
  }));
  const file = join(s.dir, 'rows.ndjson');
  writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  await s.json(['import', file, '--wallet', wallet]);
}

/** Each row's token address (ETH for the native coin) → its fiat value. */
async function values(): Promise<Record<string, number | null>> {
  const list = await s.json(['tx', 'list', '--all']);
  return Object.fromEntries(list.data.map((t: any) => [t.token.address ?? 'ETH', t.fiat_value]));
}

/** The cache as `prices list --json` shows it, by token. */
async function cache(): Promise<Record<string, { price: string | null; price_timestamp: string | null }>> {
  const listed = await s.json(['prices', 'list']);
  return Object.fromEntries(listed.data.map((e: any) => [e.token, { price: e.price, price_timestamp: e.price_timestamp }]));
}

describe('DefiLlama points that are no price', () => {
  const BAD: [string, Point][] = [
    ['zero', { price: 0 }],
    ['negative', { price: -3 }],
    ['null', { price: null }],
    ['a string', { price: '3400' }],
    ['1e300', { price: 1e300 }],
    ['Infinity', { price: Infinity }],
    ['1e50', { price: 1e50 }],
    ['above 10^12', { price: 1_000_000_000_001 }],
    ['a fraction of a second', { price: 5, at: NOON + 0.5 }],
    ['no confidence', { price: 5, confidence: 'high' }],
  ];

  it('are not cached: the rows stay unpriced with the reason, and a fill against a healthy API prices them', async () => {
    const GONE = token(99);
    await ledger([null, token(100), GONE, ...BAD.map((_, i) => token(i + 1))], '0.001');
    server.points = {
      'coingecko:ethereum': { [DAY]: { price: 3412.37 } },
      [`ethereum:${token(100)}`]: { [DAY]: { price: 1e12 } }, // the bound itself is a price
      ...Object.fromEntries(BAD.map(([, p], i) => [`ethereum:${token(i + 1)}`, { [DAY]: p }])),
    };
    const r = await s.txa(['prices', 'fill']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`priced 2 rows, ${BAD.length + 1} left without a value (1 requests to DefiLlama, 0 token-days from the cache)`);
    const reasons = r.stderr
      .trimEnd()
      .split('\n')
      .map((l) => l.replace(/, e\.g\. .*$/, ''));
    expect(reasons.sort()).toEqual([
      '1 row unpriced: DefiLlama sent a point without a valid confidence (not cached)',
      '1 row unpriced: DefiLlama sent a point without a valid time (not cached)',
      '1 row unpriced: no price from DefiLlama',
      '3 rows unpriced: DefiLlama sent a price above 10^12 USD (not cached)', // 1e300, 1e50, 10^12 + 1
      '5 rows unpriced: DefiLlama sent a price that is not a positive number (not cached)', // 0, -3, null, '3400', Infinity
    ]);
    // Only what is a price, and the absent coin's "no price", is cached.
    expect(await cache()).toEqual({
      'coingecko:ethereum': { price: '3412.37', price_timestamp: '2024-03-01T11:44:38Z' },
      [`ethereum:${token(100)}`]: { price: '1000000000000', price_timestamp: '2024-03-01T11:44:38Z' },
      [`ethereum:${GONE}`]: { price: null, price_timestamp: null },
    });

    // The API heals: the next fill asks for the garbage token-days only, and prices them.
    server.points = Object.fromEntries(BAD.map((_, i) => [`ethereum:${token(i + 1)}`, { [DAY]: { price: 2000 } }]));
    server.calls.length = 0;
    expect((await s.json(['prices', 'fill'])).data).toEqual({ priced: BAD.length, unpriced: 1, requests: 1, cached: 1 });
    expect(Object.keys(JSON.parse(server.calls[0]!.searchParams.get('coins')!)).sort()).toEqual(BAD.map((_, i) => `ethereum:${token(i + 1)}`).sort());
    const v = await values();
    expect(BAD.map((_, i) => v[token(i + 1)])).toEqual(BAD.map(() => 2)); // 0.001 × 2,000 USD
    expect(v.ETH).toBe(3.41);
  });

  it("a point of the day beside one of another day: the day's is used, the other left out", async () => {
    await ledger([null]);
    server.points = { 'coingecko:ethereum': { [DAY]: { price: 3000, extra: [{ timestamp: START - 3600, price: 9999, confidence: 0.99 }] } } };
    expect((await s.json(['prices', 'fill'])).data).toMatchObject({ priced: 1, unpriced: 0 });
    expect(await values()).toEqual({ ETH: 3000 });
  });
});

describe('a ledger whose cache an older txa filled from bad points', () => {
  it('asks again for those token-days and replaces their entries', async () => {
    await ledger([null, token(5)]);
    const db = new Database(s.env.TXA_DB!);
    const put = db.prepare("INSERT INTO prices VALUES ('defillama', ?, ?, ?, 'USD', ?, '2024-03-02T00:00:00Z')");
    put.run('coingecko:ethereum', DAY, '1' + '0'.repeat(50), NOON); // 1e50 as the old client wrote it
    put.run(`ethereum:${token(5)}`, DAY, '2', 1e27); // a CoinGecko-style 1e30 ms stamp, in seconds
    db.close();
    server.points = { 'coingecko:ethereum': { [DAY]: { price: 3000 } }, [`ethereum:${token(5)}`]: { [DAY]: { price: 4 } } };
    expect((await s.json(['prices', 'fill'])).data).toEqual({ priced: 2, unpriced: 0, requests: 1, cached: 0 });
    expect(await values()).toEqual({ ETH: 3000, [token(5)]: 4 });
    expect(await cache()).toEqual({
      'coingecko:ethereum': { price: '3000', price_timestamp: '2024-03-01T11:44:38Z' },
      [`ethereum:${token(5)}`]: { price: '4', price_timestamp: '2024-03-01T11:44:38Z' },
    });
  });
});

describe('CoinGecko answers of another day or none', () => {
  const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';

  it('market_chart/range: a point stamped 1e30 ms or a fraction of a ms is garbage, one of another day is left out; prices list stays readable', async () => {
    const [huge, fraction, elsewhere, both] = [token(1), token(2), token(3), token(4)];
    await ledger([huge, fraction, elsewhere, both, USDC]);
    const ms = START * 1000;
    server.points = {
      [`ethereum:${huge}`]: { [DAY]: { price: 5, at: 1e30 } },
      [`ethereum:${fraction}`]: { [DAY]: { price: 5, at: ms + 0.5 } },
      [`ethereum:${elsewhere}`]: { [DAY]: { price: 5, at: ms - 86_400_000 } },
      // The next day's first instant (the range's `to`) first, then the day's own points.
      [`ethereum:${both}`]: {
        [DAY]: {
          price: 7,
          at: ms + 3_600_000,
          extra: [
            [ms + 86_400_000, 99],
            [ms + 7_200_000, 8],
          ],
        },
      },
      [`ethereum:${USDC}`]: { [DAY]: { price: 0.9998 } },
    };
    const r = await s.txa(['prices', 'fill', '--source', 'coingecko']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('priced 2 rows, 3 left without a value (5 requests to CoinGecko, 0 token-days from the cache)');
    expect(r.stderr).toMatch(/^2 rows unpriced: CoinGecko sent a point without a valid time \(not cached\), e\.g\. /m);
    expect(r.stderr).toMatch(/^1 row unpriced: no price from CoinGecko, e\.g\. tx_\w+ \(ethereum:0x0+3 on 2024-03-01\)$/m);
    expect(await values()).toEqual({ [huge]: null, [fraction]: null, [elsewhere]: null, [both]: 7, [USDC]: 1 });

    const listed = await s.txa(['prices', 'list', '--json']);
    expect(listed.exitCode).toBe(0);
    expect(await cache()).toEqual({
      [`ethereum:${elsewhere}`]: { price: null, price_timestamp: null },
      [`ethereum:${both}`]: { price: '7', price_timestamp: '2024-03-01T01:00:00Z' },
      [`ethereum:${USDC}`]: { price: '0.9998', price_timestamp: '2024-03-01T00:05:00Z' },
    });
  });

  it('/history: a price that is no price is garbage, not cached', async () => {
    await ledger([null]);
    for (const bad of [0, '3400', null, 1e50]) {
      server.points = { 'coingecko:ethereum': { [DAY]: { price: bad } } };
      const r = await s.txa(['prices', 'fill', '--source', 'coingecko']);
      expect(r.stdout, String(bad)).toBe('priced 0 rows, 1 left without a value (1 requests to CoinGecko, 0 token-days from the cache)');
      expect(r.stderr).toMatch(/^1 row unpriced: CoinGecko sent a price (that is not a positive number|above 10\^12 USD) \(not cached\)/m);
    }
    expect(await cache()).toEqual({});
    server.points = { 'coingecko:ethereum': { [DAY]: { price: 3412.37 } } };
    expect((await s.json(['prices', 'fill', '--source', 'coingecko'])).data).toEqual({ priced: 1, unpriced: 0, requests: 1, cached: 0 });
    expect(await cache()).toEqual({ 'coingecko:ethereum': { price: '3412.37', price_timestamp: '2024-03-01T00:00:00Z' } });
  });
});

describe('answers that never end', () => {
  it('an endless DefiLlama answer is SYNC_FAILED after 64 MiB, at once; nothing is cached', async () => {
    await ledger([null]);
    server.faults.push({ status: 200, endless: true });
    const r = await s.txa(['prices', 'fill']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/SYNC_FAILED: DefiLlama answered more than 64 MiB/);
    expect(server.calls).toHaveLength(1);
    expect(await cache()).toEqual({});
  });

  it('TXA_PRICES_TIMEOUT must be a number of seconds up to 600', async () => {
    await ledger([null]);
    const r = await s.txa(['prices', 'fill'], { env: { TXA_PRICES_TIMEOUT: '0' } });
    expect([r.exitCode, r.stderr]).toEqual([2, expect.stringContaining('TXA_PRICES_TIMEOUT must be a positive number')]);
  });
});
