/**
 * `txa prices forget` run as a user runs it (docs/prices.md, "txa prices forget"), on a cache a
 * fill from the replay DefiLlama on 127.0.0.1 and `prices import` filled: a selector is required,
 * entries go by token, period or days, imported prices only with --source import, --dry-run
 * counts, filled values stay; and a ledger whose cache an older txa filled from bad answers lists
 * without failing and loses those entries with --invalid.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sandbox, type Sandbox } from '../helpers/cli.js';
import { priceReplay, type PriceReplay } from '../helpers/price-replay.js';

const WALLET = '0x' + '1'.repeat(40);
const OTHER = '0x' + '2'.repeat(40);
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const GONE = '0x' + 'beef'.repeat(10);
const ETH = { symbol: 'ETH', address: null, decimals: 18 };

let server: PriceReplay;
let s: Sandbox;

beforeAll(async () => {
  server = await priceReplay();
});
afterAll(() => server.close());

beforeEach(() => {
  server.points = {
    'coingecko:ethereum': { '2024-03-01': { price: 3000 }, '2024-03-02': { price: 3100 } },
    [`ethereum:${USDC}`]: { '2024-03-02': { price: 0.9998 } },
  };
  server.calls.length = 0;
  s = sandbox({ TXA_DEFILLAMA_URL: `${server.url}/llama`, TXA_PRICES_RPS: '1000' });
});

/** A ledger with ETH on two days, USDC, a coin DefiLlama lacks, and an imported SYM price; filled. */
async function filled(): Promise<void> {
  s.env.TXA_WORKSPACE = (await s.json(['workspace', 'create', 'Forget'])).data.id;
  const wallet = (await s.json(['wallet', 'add', '--address', WALLET, '--chain', 'ethereum'])).data.id;
  const rows = [
    ['2024-03-01', '1', ETH],
    ['2024-03-02', '2', ETH],
    ['2024-03-02', '1000', { symbol: 'USDC', address: USDC, decimals: 6 }],
    ['2024-03-03', '9', { symbol: 'GONE', address: GONE, decimals: 18 }],
    ['2024-03-04', '5', { symbol: 'SYM', address: '0x' + '3'.repeat(40), decimals: 18 }],
  ].map(([day, amount, token], n) => ({
    tx_hash: `0x${(n + 1).toString(16).padStart(64, '0')}`,
    timestamp: `${day}T10:00:00Z`,
    amount,
    token,
    direction: 'inflow',
    from_address: OTHER,
    to_address: WALLET,
    fiat_value: null,
  }));
  const file = join(s.dir, 'rows.ndjson');
  writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  await s.json(['import', file, '--wallet', wallet]);
  const prices = join(s.dir, 'prices.csv');
  writeFileSync(prices, 'date,token,price\n2024-03-04,SYM,2\n');
  await s.json(['prices', 'import', prices]);
  expect((await s.json(['prices', 'fill'])).data).toEqual({ priced: 4, unpriced: 1, requests: 1, cached: 1 });
}

/** The cache as `source token day` lines. */
async function cached(): Promise<string[]> {
  return (await s.json(['prices', 'list'])).data.map((e: any) => `${e.source} ${e.token} ${e.date}`);
}

const ALL = [
  'defillama coingecko:ethereum 2024-03-01',
  'defillama coingecko:ethereum 2024-03-02',
  `defillama ethereum:${USDC} 2024-03-02`,
  `defillama ethereum:${GONE} 2024-03-03`,
  'import SYM 2024-03-04',
];

describe('txa prices forget', () => {
  it('refuses to run without a selector, or with one it cannot take, and removes nothing', async () => {
    await filled();
    const refused = async (args: string[]) => {
      const r = await s.txa(['prices', 'forget', ...args]);
      return [r.exitCode, r.stderr.split('\n')[0]];
    };
    const bare = 'error: USAGE_ERROR: prices forget needs --token, --period, --start-date, --end-date, --invalid or --all';
    expect(await refused([])).toEqual([2, bare]);
    expect(await refused(['--source', 'defillama', '--dry-run'])).toEqual([2, bare]);
    expect(await refused(['--all', '--token', 'SYM'])).toEqual([
      2,
      'error: USAGE_ERROR (all): --all cannot be combined with --token, --period, --start-date, --end-date or --invalid',
    ]);
    expect(await refused(['--period', '2024', '--start-date', '2024-03-01'])).toEqual([
      2,
      'error: USAGE_ERROR (period): --period cannot be combined with --start-date or --end-date',
    ]);
    expect(await refused(['--source', 'binance', '--all'])).toEqual([
      2,
      "error: USAGE_ERROR (source): --source must be one of import, defillama, coingecko, got 'binance'",
    ]);
    expect(await refused(['--start-date', '2024-02-30'])).toEqual([
      2,
      "error: USAGE_ERROR (start-date): --start-date must be a real day YYYY-MM-DD, got '2024-02-30'",
    ]);
    expect(await refused(['--start-date', '2024-03-02', '--end-date', '2024-03-01'])).toEqual([
      1,
      'error: INVALID_DATE_RANGE (end-date): --end-date must not be before --start-date',
    ]);
    expect(await cached()).toEqual(ALL);
  });

  it("forgets by token (--dry-run counts first); the filled values stay until a row's value is cleared", async () => {
    await filled();
    const dry = await s.json(['prices', 'forget', '--token', `ethereum:${USDC.toUpperCase().replace('0X', '0x')}`, '--dry-run']);
    expect(dry).toEqual({ success: true, data: { forgotten: 1, dry_run: true, sources: { defillama: 1, coingecko: 0, import: 0 } } });
    expect(await cached()).toEqual(ALL);

    const r = await s.txa(['prices', 'forget', '--token', `ethereum:${USDC}`]);
    expect([r.exitCode, r.stdout]).toEqual([0, 'forgot 1 cached price (defillama 1)']);
    expect(r.stderr).toContain('txa tx update ID --fiat-value none');
    expect(await cached()).toEqual(ALL.filter((e) => !e.includes(USDC)));

    const usdc = (await s.json(['tx', 'list', '--token', 'USDC'])).data[0];
    expect([usdc.fiat_value, usdc.fiat_value_source]).toEqual([999.8, 'price']);
    expect((await s.json(['prices', 'fill'])).data).toMatchObject({ priced: 0, requests: 0 });
    server.points[`ethereum:${USDC}`] = { '2024-03-02': { price: 1.0001 } };
    await s.json(['tx', 'update', usdc.id, '--fiat-value', 'none']);
    expect((await s.json(['prices', 'fill'])).data).toEqual({ priced: 1, unpriced: 1, requests: 1, cached: 1 });
    expect((await s.json(['tx', 'list', '--token', 'USDC'])).data[0].fiat_value).toBe(1000.1);
  });

  it('forgets by days or period, --all the fetched ones; imported prices only with --source import', async () => {
    await filled();
    const forget = async (...args: string[]) => (await s.json(['prices', 'forget', ...args])).data.forgotten;
    expect(await forget('--start-date', '2024-03-02', '--end-date', '2024-03-03')).toBe(3);
    expect(await cached()).toEqual([ALL[0], ALL[4]]);
    expect(await forget('--period', '2024-03')).toBe(1);
    expect(await cached()).toEqual([ALL[4]]);
    expect(await forget('--all')).toBe(0);
    expect(await forget('--source', 'import', '--token', 'sym')).toBe(1);
    expect(await cached()).toEqual([]);
  });
});

describe('a cache an older txa filled from bad answers', () => {
  it('lists without failing, and --invalid forgets only those entries', async () => {
    await filled();
    const db = new Database(s.env.TXA_DB!);
    const put = db.prepare("INSERT INTO prices VALUES (?, ?, ?, ?, 'USD', ?, '2024-03-05T00:00:00Z')");
    const noon = Date.UTC(2024, 1, 1, 12) / 1000;
    put.run('coingecko', `ethereum:${USDC}`, '2024-02-01', '1', 1e27); // a point stamped 1e30 ms
    put.run('coingecko', `ethereum:${GONE}`, '2024-02-01', '7', noon - 86_400); // another day's point
    put.run('defillama', `ethereum:${GONE}`, '2024-02-01', '1' + '0'.repeat(50), noon); // 1e50
    db.close();

    const listed = await s.txa(['prices', 'list', '--source', 'coingecko', '--json']);
    expect(listed.exitCode).toBe(0);
    expect(JSON.parse(listed.stdout).data.map((e: any) => [e.token, e.price_timestamp])).toEqual([
      [`ethereum:${USDC}`, null],
      [`ethereum:${GONE}`, '2024-01-31T12:00:00Z'],
    ]);
    expect((await s.json(['prices', 'forget', '--invalid'])).data).toEqual({
      forgotten: 3,
      dry_run: false,
      sources: { defillama: 1, coingecko: 2, import: 0 },
    });
    expect(await cached()).toEqual(ALL);
  });
});
