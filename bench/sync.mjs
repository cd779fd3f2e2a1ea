// Wallet sync throughput (src/sync/wallet-sync.ts) against a replay explorer in a child process
// on 127.0.0.1: a wallet with N rows (half txlist inflows, half USDC tokentx inflows, 4 rows a
// block), pages of TXA_SYNC_PAGE_SIZE, no rate limit. The server answers from pre-serialised
// pages and reports the time it spent per call; rows/s excludes that time (the measure);
// rows per CPU-second of the syncing process is steadier on a shared machine.
//   node bench/sync.mjs [--rows N] [--page P]   (defaults: 100000, 10000)
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Engine } from '../dist/engine/engine.js';
import { createWorkspace } from '../dist/engine/workspaces.js';
import { addWallet } from '../dist/engine/wallets.js';
import { WalletSync } from '../dist/sync/wallet-sync.js';
import { syncSettings } from '../dist/sync/settings.js';

const WALLET = `0x${'a1'.repeat(20)}`;
const { values } = parseArgs({ options: { rows: { type: 'string' }, page: { type: 'string' }, server: { type: 'boolean' } } });
const rows = Number(values.rows ?? 100_000);
const page = Number(values.page ?? 10_000);

if (values.server) {
  // The replay explorer: rows by list, sorted by block; each call's time goes back to the parent.
  const { createServer } = await import('node:http');
  const hex = (n, len) => n.toString(16).padStart(len, '0');
  const half = rows / 2;
  const lists = { txlist: [], tokentx: [], txlistinternal: [], txsBeaconWithdrawal: [] };
  for (let i = 0; i < half; i++) {
    const block = String(1000 + Math.floor(i / 2));
    const common = { blockNumber: block, timeStamp: String(1_700_000_000 + i * 6), hash: `0x${hex(i, 64)}`, from: `0x${hex(i % 97, 40)}`, to: WALLET };
    lists.txlist.push({
      ...common,
      value: String(1000 + i),
      gas: '21000',
      gasPrice: '1000000000',
      gasUsed: '21000',
      input: '0x',
      methodId: '0x',
      functionName: '',
      contractAddress: '',
      isError: '0',
      txreceipt_status: '1',
      confirmations: '5',
    });
    lists.tokentx.push({
      ...common,
      contractAddress: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
      value: String(10_000 + i),
      tokenName: 'USD Coin',
      tokenSymbol: 'USDC',
      tokenDecimal: '6',
      confirmations: '5',
    });
  }
  const server = createServer((req, res) => {
    const t0 = performance.now();
    const q = new URL(req.url, 'http://x').searchParams;
    const list = lists[q.get('action')] ?? [];
    const start = Number(q.get('startblock'));
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (Number(list[mid].blockNumber) < start) lo = mid + 1;
      else hi = mid;
    }
    const result = list.slice(lo, lo + Number(q.get('offset')));
    const body = JSON.stringify(result.length ? { status: '1', message: 'OK', result } : { status: '0', message: 'No transactions found', result: [] });
    res.end(body, () => process.send({ ms: performance.now() - t0 }));
  });
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
} else {
  const child = fork(new URL(import.meta.url).pathname, ['--server', '--rows', String(rows)]);
  let serverMs = 0;
  const port = await new Promise((resolve) =>
    child.on('message', (m) => {
      if (m.port) resolve(m.port);
      else serverMs += m.ms;
    }),
  );
  const dir = mkdtempSync(join(tmpdir(), 'txa-sync-bench-'));
  const engine = Engine.open(join(dir, 'ledger.db'));
  const ws = createWorkspace(engine, { name: 'Bench', tier: 'enterprise' }).id;
  const wallet = addWallet(engine, ws, { address: WALLET, chain: 'ethereum' }).id;
  const settings = syncSettings({
    TXA_ETHERSCAN_URL: `http://127.0.0.1:${port}/api`,
    TXA_ETHERSCAN_API_KEY: 'bench',
    TXA_SYNC_RPS: '100000',
    TXA_SYNC_PAGE_SIZE: String(page),
  });
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const r = await new WalletSync(engine, ws, settings).sync(wallet);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  engine.close();
  child.kill();
  rmSync(dir, { recursive: true, force: true });
  const ownMs = wallMs - serverMs;
  console.log(
    JSON.stringify({
      rows,
      page,
      new_transactions: r.new_transactions,
      requests: r.requests,
      wall_ms: Math.round(wallMs),
      server_ms: Math.round(serverMs),
      rows_per_s: Math.round(r.new_transactions / (ownMs / 1000)),
      cpu_ms: Math.round(cpuMs),
      rows_per_cpu_s: Math.round(r.new_transactions / (cpuMs / 1000)),
      load: loadavg()[0],
    }),
  );
}
