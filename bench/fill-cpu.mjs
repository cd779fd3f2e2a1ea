// CPU time of a price fill in-process (src/prices/fill.ts fillPrices), the part of
// `bench/prices.mjs` a loaded machine distorts least: 100,000 unpriced rows over 500 token-days
// (ETH and four tokens × 100 days), imported through the pipeline, then filled against a replay
// DefiLlama on 127.0.0.1 in this process. Prints the fill's result, wall and CPU milliseconds.
// DIST=other/dist compares another build in the same run.
//   node bench/fill-cpu.mjs [--rows N]   (default 100000)
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const dist = resolve(process.env.DIST ?? new URL('../dist', import.meta.url).pathname);
const { Engine } = await import(`${dist}/engine/engine.js`);
const { createWorkspace } = await import(`${dist}/engine/workspaces.js`);
const { addWallet } = await import(`${dist}/engine/wallets.js`);
const { importRecords } = await import(`${dist}/engine/imports.js`);
const { fillPrices } = await import(`${dist}/prices/fill.js`);
const { priceApi } = await import(`${dist}/prices/apis.js`);

const { values } = parseArgs({ options: { rows: { type: 'string' } } });
const rows = Number(values.rows ?? 100_000);
const server = createServer((req, res) => {
  const coins = JSON.parse(new URL(req.url, 'http://x').searchParams.get('coins'));
  const out = {};
  for (const [id, stamps] of Object.entries(coins))
    out[id] = { symbol: 'X', prices: stamps.map((ts) => ({ timestamp: ts - 922, price: 1234.5678, confidence: 0.99 })) };
  res.end(JSON.stringify({ coins: out }));
});
await new Promise((done) => server.listen(0, '127.0.0.1', done));
const dir = mkdtempSync(join(tmpdir(), 'txa-fill-cpu-'));
const engine = Engine.open(join(dir, 'ledger.db'));
const ws = createWorkspace(engine, { name: 'Bench', tier: 'enterprise' }).id;
const wallet = addWallet(engine, ws, { address: `0x${'a1'.repeat(20)}`, chain: 'ethereum' }).id;
const tokens = [
  null,
  ...[
    'a0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    'dac17f958d2ee523a2206206994597c13d831ec7',
    '6b175474e89094c44da98b954eedeac495271d0f',
    '514910771af9ca656af840dff83e8264ecf986ca',
  ].map((a) => `0x${a}`),
];
const records = Array.from({ length: rows }, (_, i) => {
  const t = tokens[i % tokens.length];
  const day = Math.floor(i / tokens.length) % 100;
  return {
    line: i + 1,
    tx_hash: `0x${i.toString(16).padStart(64, '0')}`,
    from_address: `0x${'b2'.repeat(20)}`,
    to_address: `0x${'a1'.repeat(20)}`,
    token: { symbol: t ? `T${i % tokens.length}` : 'ETH', address: t, decimals: 18 },
    amount: `${(i % 997) + 1}.25`,
    fiat_value: null,
    direction: 'inflow',
    type: 'transfer',
    timestamp: 1_704_067_200 + day * 86_400 + (i % 86_000),
    notes: null,
  };
});
importRecords(engine, ws, records, { walletId: wallet, format: 'bench' });
const api = priceApi('defillama', {
  defillamaUrl: `http://127.0.0.1:${server.address().port}`,
  coingeckoUrl: 'http://127.0.0.1:9',
  coingeckoKey: undefined,
  rps: 1000,
});
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const { result } = await fillPrices(engine, ws, api, {});
const cpu = process.cpuUsage(cpu0);
console.log(
  JSON.stringify({ dist, ...result, wall_ms: Math.round(performance.now() - t0), cpu_ms: Math.round((cpu.user + cpu.system) / 1000), load: loadavg()[0] }),
);
engine.close();
server.close();
rmSync(dir, { recursive: true, force: true });
