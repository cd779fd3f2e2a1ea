/**
 * `txa prices fill|import|list` run as a user runs them (the built bin/txa) against a replay
 * DefiLlama and CoinGecko on 127.0.0.1 (test/helpers/price-replay.ts): values to the cent, the
 * cache (a second fill sends nothing), batching, the confidence filter, an absent coin, retries,
 * CoinGecko's 365-day wall, manual and imported values untouched, currency conversion, imported
 * prices and their bad rows.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandbox, type Sandbox } from '../helpers/cli.js';
import { priceReplay, type PriceReplay } from '../helpers/price-replay.js';

const WALLET = '0x' + '1'.repeat(40);
const OTHER = '0x' + '2'.repeat(40);
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const SCAM = '0x' + 'dead'.repeat(10);
const GONE = '0x' + 'beef'.repeat(10);
const ETH = { symbol: 'ETH', address: null, decimals: 18 };

let server: PriceReplay;
let s: Sandbox;

beforeAll(async () => {
  server = await priceReplay();
});
afterAll(() => server.close());

let n = 0;
/** A Transaction-shaped NDJSON line for `txa import --wallet`. */
function row(timestamp: string, amount: string, token: object = ETH, extra: object = {}): object {
  n++;
  return {
    tx_hash: `0x${n.toString(16).padStart(64, '0')}`,
    timestamp,
    amount,
    token,
    direction: 'inflow',
    from_address: OTHER,
    to_address: WALLET,
    fiat_value: null,
    ...extra,
  };
}

async function ledger(currency: string, rows: object[]): Promise<string> {
  s.env.TXA_WORKSPACE = (await s.json(['workspace', 'create', `Prices ${currency}`, '--currency', currency])).data.id;
  const wallet = (await s.json(['wallet', 'add', '--address', WALLET, '--chain', 'ethereum'])).data.id;
  const file = join(s.dir, `rows-${n}.ndjson`);
  writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  await s.json(['import', file, '--wallet', wallet]);
  return wallet;
}

/** Every row by its amount and token: [fiat_value, fiat_value_source]. */
async function values(): Promise<Record<string, [number | null, string | null]>> {
  const list = await s.json(['tx', 'list', '--all', '--include-spam']);
  return Object.fromEntries(list.data.map((t: any) => [`${t.amount} ${t.token.symbol} ${t.type}`, [t.fiat_value, t.fiat_value_source]]));
}

beforeEach(() => {
  server.points = {
    'coingecko:ethereum': { '2024-03-01': { price: 3412.37 }, '2024-03-02': { price: 3500, shift: 4000 }, '2023-01-01': { price: 1200 } },
    [`ethereum:${USDC}`]: { '2024-03-02': { price: 0.9998 } },
    [`ethereum:${SCAM}`]: { '2024-03-03': { price: 12, confidence: 0.1 } },
  };
  server.calls.length = 0;
  server.faults = [];
  server.coingeckoWall = '1970-01-01';
  s = sandbox({ TXA_DEFILLAMA_URL: `${server.url}/llama`, TXA_COINGECKO_URL: `${server.url}/cg`, TXA_COINGECKO_API_KEY: 'cg-key', TXA_PRICES_RPS: '1000' });
});

describe('txa prices fill (DefiLlama)', () => {
  const rows = () => [
    row('2024-03-01T10:00:00Z', '0.5'),
    row('2024-03-01T20:00:00Z', '0.002', ETH, { direction: 'outflow', type: 'fee', from_address: WALLET, to_address: '' }),
    row('2024-03-02T08:00:00Z', '1000', { symbol: 'USDC', address: USDC, decimals: 6 }),
    row('2024-03-02T09:00:00Z', '2', ETH, { direction: 'outflow', from_address: WALLET, to_address: OTHER }),
    row('2024-03-02T10:00:00Z', '3', ETH, { fiat_value: 50 }),
    row('2024-03-03T10:00:00Z', '7', { symbol: 'SCAM', address: SCAM, decimals: 18 }),
    row('2024-03-03T11:00:00Z', '9', { symbol: 'GONE', address: GONE, decimals: 18 }),
    row('2024-03-03T12:00:00Z', '0', ETH, { type: 'contract_call' }),
  ];

  it("values every row without one at its day's price, to the cent, in one batched request; manual and imported values stay", async () => {
    await ledger('USD', rows());
    const list = await s.json(['tx', 'list', '--all']);
    const manual = list.data.find((t: any) => t.amount === '2').id;
    await s.json(['tx', 'update', manual, '--fiat-value', '100']);

    const out = await s.json(['prices', 'fill']);
    expect(out).toEqual({ success: true, data: { priced: 4, unpriced: 2, requests: 1, cached: 0 } });
    expect(await values()).toEqual({
      '0.5 ETH transfer': [1706.18, 'price'], // 1706.185, half to even
      '0.002 ETH fee': [6.82, 'price'], // 6.82474
      '1000 USDC transfer': [999.8, 'price'],
      '2 ETH transfer': [100, 'manual'],
      '3 ETH transfer': [50, 'import'],
      '7 SCAM transfer': [null, null], // confidence 0.1: dropped
      '9 GONE transfer': [null, null], // absent from the answer
      '0 ETH contract_call': [0, 'price'],
    });
    // One call for the four token-days, at each day's noon, searching ±12 h.
    const coins = JSON.parse(server.calls[0]!.searchParams.get('coins')!);
    expect(coins).toEqual({
      'coingecko:ethereum': [Date.UTC(2024, 2, 1, 12) / 1000],
      [`ethereum:${USDC}`]: [Date.UTC(2024, 2, 2, 12) / 1000],
      [`ethereum:${SCAM}`]: [Date.UTC(2024, 2, 3, 12) / 1000],
      [`ethereum:${GONE}`]: [Date.UTC(2024, 2, 3, 12) / 1000],
    });
    expect(server.calls[0]!.searchParams.get('searchWidth')).toBe('12h');

    const filled = list.data.find((t: any) => t.amount === '0.5').id;
    const history = await s.json(['tx', 'history', filled]);
    expect(history.data.at(-1)).toMatchObject({
      event: 'transaction.updated',
      actor: 'cli',
      changes: { fiat_value: { old: null, new: 1706.18 }, fiat_value_source: { old: null, new: 'price' } },
    });
  });

  it('the cache makes a second fill send no request, also for a value cleared since', async () => {
    await ledger('USD', rows());
    await s.json(['prices', 'fill']);
    const calls = server.calls.length;
    expect(await s.json(['prices', 'fill'])).toEqual({ success: true, data: { priced: 0, unpriced: 2, requests: 0, cached: 2 } });
    const eth = (await s.json(['tx', 'list', '--all'])).data.find((t: any) => t.amount === '0.5').id;
    await s.json(['tx', 'update', eth, '--fiat-value', 'none']);
    expect(await s.json(['prices', 'fill'])).toEqual({ success: true, data: { priced: 1, unpriced: 2, requests: 0, cached: 3 } });
    expect(server.calls.length).toBe(calls);
    expect((await values())['0.5 ETH transfer']).toEqual([1706.18, 'price']);
  });

  it('in human form: one line on stdout, why rows stayed unpriced on stderr', async () => {
    await ledger('USD', rows());
    const r = await s.txa(['prices', 'fill']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('priced 5 rows, 2 left without a value (1 requests to DefiLlama, 0 token-days from the cache)');
    expect(r.stderr).toMatch(/^2 rows unpriced: no price from DefiLlama, e\.g\. tx_\w+ \(ethereum:0xdead\w+ on 2024-03-03\)$/m);
  });

  it('batches: 320 token-days in ⌈320/150⌉ = 3 requests', async () => {
    const days = Array.from({ length: 320 }, (_, i) => new Date(Date.UTC(2023, 0, 1) + i * 86_400_000).toISOString().slice(0, 10));
    server.points['coingecko:ethereum'] = Object.fromEntries(days.map((d) => [d, { price: 2000 }]));
    await ledger(
      'USD',
      days.flatMap((d) => [row(`${d}T01:00:00Z`, '1'), row(`${d}T23:00:00Z`, '0.25')]),
    );
    expect((await s.json(['prices', 'fill'])).data).toEqual({ priced: 640, unpriced: 0, requests: 3, cached: 0 });
    const sizes = server.calls.map((c) => (JSON.parse(c.searchParams.get('coins')!)['coingecko:ethereum'] as number[]).length);
    expect(sizes).toEqual([150, 150, 20]);
    const sums = await s.json(['tx', 'list', '--limit', '1']);
    expect(sums.summary.total_inflow).toBe(320 * 2500);
  });

  it("--period prices only that period's rows", async () => {
    await ledger('USD', [row('2024-03-01T10:00:00Z', '0.5'), row('2023-01-01T10:00:00Z', '1')]);
    expect((await s.json(['prices', 'fill', '--period', '2024-03'])).data).toMatchObject({ priced: 1, unpriced: 0 });
    expect(await values()).toEqual({ '0.5 ETH transfer': [1706.18, 'price'], '1 ETH transfer': [null, null] });
  });

  it('retries a 429 (after its Retry-After) and a 500; a server that stays down is SYNC_FAILED, exit 1, with nothing written', async () => {
    await ledger('USD', [row('2024-03-01T10:00:00Z', '0.5')]);
    server.faults = [{ status: 429, headers: { 'retry-after': '0' } }, { status: 500 }];
    const r = await s.txa(['prices', 'fill']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('priced 1 row, 0 left without a value (3 requests to DefiLlama, 0 token-days from the cache)');
    expect(r.stderr).toContain('DefiLlama: HTTP 429 (rate limit); trying again in 0.0 s');

    await s.json(['tx', 'update', (await s.json(['tx', 'list'])).data[0].id, '--fiat-value', 'none']);
    server.points = {};
    await s.json(['workspace', 'create', 'Other']); // the cache is ledger-wide: a new token-day is needed
    await ledger('USD', [row('2024-04-01T10:00:00Z', '1')]);
    server.faults = Array.from({ length: 6 }, () => ({ status: 503 }));
    const down = await s.txa(['prices', 'fill']);
    expect(down.exitCode).toBe(1);
    expect(down.stderr).toMatch(/^error: SYNC_FAILED: the price source DefiLlama failed: HTTP 503 \(after 6 tries\)$/m);
    expect(await values()).toEqual({ '1 ETH transfer': [null, null] });
  });

  it('--source must be known: USAGE_ERROR (source), exit 2', async () => {
    const r = await s.txa(['prices', 'fill', '--source', 'binance', '-w', 'ws_x']);
    expect([r.exitCode, r.stderr.trim()]).toEqual([2, "error: USAGE_ERROR (source): --source must be one of defillama, coingecko, got 'binance'"]);
  });
});

describe('currencies', () => {
  it("converts USD prices with the workspace's rates; a day without a rate leaves its rows unpriced and counted", async () => {
    await ledger('EUR', [row('2024-03-01T10:00:00Z', '0.5'), row('2024-03-02T08:00:00Z', '1000', { symbol: 'USDC', address: USDC, decimals: 6 })]);
    const rates = join(s.dir, 'rates.csv');
    writeFileSync(rates, 'date,currency,rate\n2024-03-01,USD,1.08\n');
    await s.json(['rates', 'import', rates]);
    const r = await s.txa(['prices', 'fill', '--json']);
    expect(JSON.parse(r.stdout).data).toEqual({ priced: 1, unpriced: 1, requests: 1, cached: 0 });
    expect(await values()).toEqual({ '0.5 ETH transfer': [1579.8, 'price'], '1000 USDC transfer': [null, null] }); // 1706.185 / 1.08
    const human = await s.txa(['prices', 'fill']);
    expect(human.stderr).toMatch(/^1 row unpriced: no EUR→USD rate \(txa rates fill, or txa rates import\), e\.g\. tx_\w+ \(USD price on 2024-03-02\)$/m);
  });
});

describe('txa prices import and list', () => {
  it('imported prices come first, by chain:address then symbol, in their own currency', async () => {
    await ledger('EUR', [row('2024-03-01T10:00:00Z', '0.5'), row('2024-03-03T11:00:00Z', '9', { symbol: 'GONE', address: GONE, decimals: 18 })]);
    const file = join(s.dir, 'prices.csv');
    writeFileSync(file, `date,token,price,currency\n2024-03-01,eth,3000,EUR\n2024-03-03,Ethereum:${GONE.toUpperCase().replace('0X', '0x')},2.5,EUR\n`);
    expect(await s.json(['prices', 'import', file])).toEqual({ success: true, data: { imported: 2 } });
    expect((await s.json(['prices', 'fill'])).data).toEqual({ priced: 2, unpriced: 0, requests: 0, cached: 2 });
    expect(await values()).toEqual({ '0.5 ETH transfer': [1500, 'price'], '9 GONE transfer': [22.5, 'price'] });
    expect(server.calls).toHaveLength(0);

    const listed = await s.json(['prices', 'list']);
    expect(listed.data).toEqual(
      [
        {
          date: '2024-03-03',
          token: `ethereum:${GONE}`,
          source: 'import',
          price: '2.5',
          currency: 'EUR',
          price_timestamp: null,
          fetched_at: expect.any(String),
        },
        { date: '2024-03-01', token: 'ETH', source: 'import', price: '3000', currency: 'EUR', price_timestamp: null, fetched_at: expect.any(String) },
      ].sort((a, b) => a.token.localeCompare(b.token)),
    );
  });

  it('a file with bad rows imports nothing and names each line and field: IMPORT_FAILED', async () => {
    const file = join(s.dir, 'bad.csv');
    writeFileSync(
      file,
      [
        'date,token,price',
        '2024-03-01,ETH,3000',
        '2024-02-30,ETH,1',
        'x',
        '2024-03-01,polygonzk:0x' + '1'.repeat(40) + ',1',
        '2024-03-02,ETH,-4',
        '2024-03-01,eth,3001',
      ].join('\n'),
    );
    // A read creates no ledger (LEDGER_NOT_FOUND): the workspace the prices go to comes first.
    s.env.TXA_WORKSPACE = (await s.json(['workspace', 'create', 'Prices'])).data.id;
    const r = await s.txa(['prices', 'import', file]);
    expect(r.exitCode).toBe(1);
    // The error line first, then each bad row indented, as txa import and txa rates import list them.
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^error: IMPORT_FAILED \(date\): 5 bad row\(s\) in .*bad\.csv; nothing was imported/);
    expect(lines.slice(1)).toEqual([
      "  line 3, date: '2024-02-30' is not a date YYYY-MM-DD",
      "  line 4, date: 'x' is not a date YYYY-MM-DD",
      "  line 5, token: unknown chain 'polygonzk' (known: ethereum, polygon, arbitrum, bsc, base, optimism, linea, avalanche, gnosis, scroll, zksync, blast, mantle, celo, bitcoin)",
      "  line 6, price: '-4' is not a positive number",
      '  line 7, token: ETH on 2024-03-01 is priced on line 2 already',
    ]);
    expect((await s.json(['prices', 'list'])).data).toEqual([]);
    const json = await s.txa(['prices', 'import', file, '--json']);
    expect(JSON.parse(json.stderr).error).toMatchObject({
      code: 'IMPORT_FAILED',
      errors: expect.arrayContaining([{ line: 6, field: 'price', reason: "'-4' is not a positive number" }]),
    });
  });
});

describe('txa prices fill --source coingecko', () => {
  it('one request per token-day with the demo key; a day past the 365-day wall stays unpriced with the reason, the rest is priced', async () => {
    server.coingeckoWall = '2023-06-01';
    await ledger('USD', [
      row('2024-03-01T10:00:00Z', '0.5'),
      row('2024-03-02T08:00:00Z', '1000', { symbol: 'USDC', address: USDC, decimals: 6 }),
      row('2023-01-01T10:00:00Z', '1'),
    ]);
    const r = await s.txa(['prices', 'fill', '--source', 'coingecko']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('priced 2 rows, 1 left without a value (3 requests to CoinGecko, 0 token-days from the cache)');
    expect(r.stderr).toMatch(
      /^1 row unpriced: older than CoinGecko's 365-day window for Public and Demo keys, e\.g\. tx_\w+ \(coingecko:ethereum on 2023-01-01\)$/m,
    );
    expect(await values()).toEqual({ '0.5 ETH transfer': [1706.18, 'price'], '1000 USDC transfer': [999.8, 'price'], '1 ETH transfer': [null, null] });
    expect(server.calls.map((c) => c.pathname + '?' + c.searchParams.toString())).toEqual([
      '/cg/coins/ethereum/history?date=01-01-2023&localization=false',
      '/cg/coins/ethereum/history?date=01-03-2024&localization=false',
      `/cg/coins/ethereum/contract/${USDC}/market_chart/range?vs_currency=usd&from=${Date.UTC(2024, 2, 2) / 1000}&to=${Date.UTC(2024, 2, 3) / 1000}`,
    ]);
    // The wall is not cached as "no price": a paid key may get it. What was priced is.
    server.calls.length = 0;
    expect((await s.json(['prices', 'fill', '--source', 'coingecko'])).data).toEqual({ priced: 0, unpriced: 1, requests: 1, cached: 0 });
  });

  it('without a key: SYNC_UNAUTHORIZED, exit 4, before any request', async () => {
    await ledger('USD', [row('2024-03-01T10:00:00Z', '0.5')]);
    const r = await s.txa(['prices', 'fill', '--source', 'coingecko'], { env: { TXA_COINGECKO_API_KEY: '' } });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toMatch(/^error: SYNC_UNAUTHORIZED: prices from CoinGecko need an API key/m);
    expect(server.calls).toHaveLength(0);
  });
});
