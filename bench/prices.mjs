// Price fill (issue 11: "price fill of 100,000 rows over 500 token-days sends ≤ 500 requests"):
// a ledger of N rows over T token-days (5 tokens × T/5 days, N/T rows each), priced by the built
// CLI (`bin/txa prices fill --json`) against a replay DefiLlama on 127.0.0.1 in a child process
// that counts calls. Then the same fill again (everything cached: 0 requests), and a fill of the
// same rows with their values cleared from the cache alone.
//   node bench/prices.mjs [--rows N] [--token-days T]   (defaults: 100000, 500)
import { execFile, fork } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Engine } from '../dist/engine/engine.js';
import { createWorkspace } from '../dist/engine/workspaces.js';
import { addWallet } from '../dist/engine/wallets.js';
import { importRecords } from '../dist/engine/imports.js';

const { values } = parseArgs({ options: { rows: { type: 'string' }, 'token-days': { type: 'string' }, server: { type: 'boolean' } } });
const rows = Number(values.rows ?? 100_000);
const tokenDays = Number(values['token-days'] ?? 500);

if (values.server) {
  // The replay DefiLlama: every coin has a price every day; each call is reported to the parent.
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    const coins = JSON.parse(new URL(req.url, 'http://x').searchParams.get('coins'));
    const out = {};
    for (const [id, stamps] of Object.entries(coins))
      out[id] = { symbol: 'X', prices: stamps.map((ts) => ({ timestamp: ts - 922, price: 1234.5678, confidence: 0.99 })) };
    res.end(JSON.stringify({ coins: out }), () => process.send({ call: Object.values(coins).flat().length }));
  });
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
} else {
  const dir = mkdtempSync(join(tmpdir(), 'txa-bench-prices-'));
  const db = join(dir, 'ledger.db');
  const engine = Engine.open(db);
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
  const days = tokenDays / tokens.length;
  const records = [];
  for (let i = 0; i < rows; i++) {
    const t = tokens[i % tokens.length];
    const day = Math.floor(i / tokens.length) % days;
    records.push({
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
    });
  }
  importRecords(engine, ws, records, { walletId: wallet, format: 'bench' });
  engine.close();

  const child = fork(new URL(import.meta.url).pathname, ['--server'], { stdio: 'inherit' });
  const calls = [];
  const port = await new Promise((resolve) => child.on('message', (m) => (m.port ? resolve(m.port) : calls.push(m.call))));
  const env = {
    ...process.env,
    TXA_DB: db,
    TXA_WORKSPACE: ws,
    TXA_DEFILLAMA_URL: `http://127.0.0.1:${port}`,
    TXA_PRICES_RPS: '1000',
    TXA_CONFIG_DIR: join(dir, 'config'),
  };
  const fill = async () => {
    const t0 = performance.now();
    const { stdout } = await promisify(execFile)(new URL('../bin/txa', import.meta.url).pathname, ['prices', 'fill', '--json'], { env, encoding: 'utf8' });
    return { ...JSON.parse(stdout).data, seconds: ((performance.now() - t0) / 1000).toFixed(1) };
  };
  const first = await fill();
  const callsFirst = calls.length;
  const second = await fill();
  // Values cleared (not the cache): every row is priced again from the cache.
  const raw = Engine.open(db);
  raw.db.exec(
    'UPDATE rollup_daily SET fiat_cents = 0; UPDATE rollup_monthly SET fiat_cents = 0; UPDATE transactions SET fiat_cents = NULL, fiat_value_source = NULL',
  );
  raw.close();
  const third = await fill();
  console.log(`rows ${rows}, token-days ${tokenDays}, load ${loadavg()[0].toFixed(1)}`);
  console.log(`first fill:  ${JSON.stringify(first)}; server saw ${callsFirst} calls of ${calls.slice(0, callsFirst).join(', ')} token-days`);
  console.log(`second fill: ${JSON.stringify(second)}`);
  console.log(`refill from the cache: ${JSON.stringify(third)}`);
  child.kill();
  rmSync(dir, { recursive: true, force: true });
}
