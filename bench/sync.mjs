// Wallet sync throughput (src/sync/wallet-sync.ts) against a replay explorer in a child process
// on 127.0.0.1: a wallet with N rows (half txlist inflows, half USDC tokentx inflows, 4 rows a
// block), pages of TXA_SYNC_PAGE_SIZE, no rate limit. rows/s excludes the time the server spent
// answering (the measure); rows per CPU-second of the syncing process (the server's CPU
// is in its own process) is steadier on a shared machine (bench/sync-harness.mjs).
//   node bench/sync.mjs [--rows N] [--page P] [--dist DIR]   (defaults: 100000, 10000, this build)
import { benchArgs, benchLedger, distDir, serveReplay, startReplay, timedSync } from './sync-harness.mjs';

const WALLET = `0x${'a1'.repeat(20)}`;
const values = benchArgs({ rows: 100_000, page: 10_000 });
const { rows, page } = values;

if (values.server) {
  // The replay explorer: rows by list, sorted by block.
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
  serveReplay((req, res) => {
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
    res.end(body);
  });
} else {
  const replay = await startReplay(new URL(import.meta.url).pathname, ['--rows', String(rows)]);
  const { addWallet } = await import(`${distDir(values.dist)}/engine/wallets.js`);
  const { WalletSync } = await import(`${distDir(values.dist)}/sync/wallet-sync.js`);
  const { syncSettings } = await import(`${distDir(values.dist)}/sync/settings.js`);
  const ledger = await benchLedger(values.dist, 'txa-sync-bench-');
  const wallet = addWallet(ledger.engine, ledger.ws, { address: WALLET, chain: 'ethereum' }).id;
  const settings = syncSettings({
    TXA_ETHERSCAN_URL: `http://127.0.0.1:${replay.port}/api`,
    TXA_ETHERSCAN_API_KEY: 'bench',
    TXA_SYNC_RPS: '100000',
    TXA_SYNC_PAGE_SIZE: String(page),
  });
  const { result: r, figures } = await timedSync(
    replay.port,
    () => new WalletSync(ledger.engine, ledger.ws, settings).sync(wallet),
    (r) => r.new_transactions,
  );
  ledger.close();
  replay.stop();
  const { rows: _, ...rest } = figures;
  console.log(JSON.stringify({ rows, page, new_transactions: r.new_transactions, requests: r.requests, ...rest }));
}
