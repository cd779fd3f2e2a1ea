// Bitcoin xpub sync throughput (src/sync/bitcoin/, issue 21: an xpub of 10,000 transactions from
// a replay server at ≥ 5,000 rows/s excluding the server). A replay Esplora in a child process on
// 127.0.0.1 answers for a zpub's first ADDRESSES receive addresses (the rest unused, so the gap
// limit ends each chain): `/address/:a` counts, `/address/:a/txs` and `/txs/chain/:last_seen_txid`
// pages of 25, newest first, from pre-serialised pages. Four transactions in five are inflows from
// outside, one in five an outflow with a fee. The server reports the time it spent per call; rows/s
// excludes it (the measure). CPU time of the syncing process is printed beside it.
//   node bench/bitcoin-sync.mjs [--txs N] [--addresses A] [--runs R]   (defaults: 10000, 100, 3)
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const ZPUB = 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
const { values } = parseArgs({ options: { txs: { type: 'string' }, addresses: { type: 'string' }, runs: { type: 'string' }, server: { type: 'boolean' } } });
const txCount = Number(values.txs ?? 10_000);
const addressCount = Number(values.addresses ?? 100);
const runs = Number(values.runs ?? 3);

if (values.server) {
  const { createServer } = await import('node:http');
  const { extendedKey, derivedAddress } = await import('../dist/core/bitcoin-keys.js');
  const key = extendedKey(ZPUB);
  const own = Array.from({ length: addressCount }, (_, i) => derivedAddress(key, 0, i));
  const hex = (n) => n.toString(16).padStart(64, '0');
  // Per address, its transactions newest first (as Esplora lists them), each serialised once.
  const byAddress = new Map(own.map((a) => [a, []]));
  for (let i = 0; i < txCount; i++) {
    const address = own[i % addressCount];
    const outflow = i % 5 === 4;
    const status = { confirmed: true, block_height: 800_000 + i, block_hash: hex(i + 1), block_time: 1_700_000_000 + i * 600 };
    const external = `bc1qexternal${(i % 97).toString().padStart(4, '0')}`;
    const tx = outflow
      ? {
          txid: hex(10_000_000 + i),
          vin: [{ txid: hex(i), vout: 0, is_coinbase: false, prevout: { scriptpubkey_address: address, value: 200_000 + i } }],
          vout: [{ scriptpubkey_address: external, value: 190_000 + i }],
          fee: 10_000,
          status,
        }
      : {
          txid: hex(10_000_000 + i),
          vin: [{ txid: hex(i), vout: 1, is_coinbase: false, prevout: { scriptpubkey_address: external, value: 1_000_000 + i } }],
          vout: [
            { scriptpubkey_address: address, value: 500_000 + i },
            { scriptpubkey_address: external, value: 490_000 },
          ],
          fee: 10_000,
          status,
        };
    byAddress.get(address).unshift({ txid: tx.txid, json: JSON.stringify(tx) });
  }
  const page = (list, from) =>
    `[${list
      .slice(from, from + 25)
      .map((t) => t.json)
      .join(',')}]`;
  const server = createServer((req, res) => {
    const t0 = performance.now();
    const m = /^\/address\/([^/]+)(\/txs(?:\/chain\/([0-9a-f]{64}))?)?$/.exec(req.url);
    let body = '[]';
    if (m) {
      const list = byAddress.get(m[1]) ?? [];
      if (!m[2]) body = JSON.stringify({ address: m[1], chain_stats: { tx_count: list.length }, mempool_stats: { tx_count: 0 } });
      else if (!m[3]) body = page(list, 0);
      else body = page(list, list.findIndex((t) => t.txid === m[3]) + 1);
    }
    res.setHeader('content-type', 'application/json');
    res.end(body, () => process.send({ ms: performance.now() - t0 }));
  });
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
} else {
  const { Engine } = await import('../dist/engine/engine.js');
  const { createWorkspace } = await import('../dist/engine/workspaces.js');
  const { addWallet } = await import('../dist/engine/wallets.js');
  const { WalletSync } = await import('../dist/sync/wallet-sync.js');
  const { syncSettings } = await import('../dist/sync/settings.js');
  console.log(`node bench/bitcoin-sync.mjs --txs ${txCount} --addresses ${addressCount}   load before: ${loadavg()[0].toFixed(2)}`);
  const results = [];
  for (let run = 0; run < runs; run++) {
    const child = fork(new URL(import.meta.url).pathname, ['--server', '--txs', String(txCount), '--addresses', String(addressCount)]);
    let serverMs = 0;
    const port = await new Promise((resolve) =>
      child.on('message', (m) => {
        if (m.port) resolve(m.port);
        else serverMs += m.ms;
      }),
    );
    const dir = mkdtempSync(join(tmpdir(), 'txa-btc-bench-'));
    const engine = Engine.open(join(dir, 'ledger.db'));
    const ws = createWorkspace(engine, { name: 'Bench', tier: 'enterprise' }).id;
    const wallet = addWallet(engine, ws, { chain: 'bitcoin', xpub: ZPUB }).id;
    const settings = syncSettings({ TXA_ESPLORA_URL: `http://127.0.0.1:${port}`, TXA_SYNC_RPS: '100000' });
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const r = await new WalletSync(engine, ws, settings).sync(wallet);
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const rows = engine.db.prepare('SELECT count(*) FROM transactions WHERE wallet_id = ?').pluck().get(wallet);
    engine.close();
    child.kill();
    rmSync(dir, { recursive: true, force: true });
    const ownMs = wallMs - serverMs;
    const out = {
      transactions: r.new_transactions,
      rows,
      requests: r.requests,
      wall_ms: Math.round(wallMs),
      server_ms: Math.round(serverMs),
      rows_per_s: Math.round(rows / (ownMs / 1000)),
      cpu_ms: Math.round(cpuMs),
      rows_per_cpu_s: Math.round(rows / (cpuMs / 1000)),
      load: Number(loadavg()[0].toFixed(2)),
    };
    results.push(out);
    console.log(JSON.stringify(out));
  }
  const median = (k) => [...results.map((x) => x[k])].sort((a, b) => a - b)[Math.floor(results.length / 2)];
  console.log(`median rows/s excluding the server ${median('rows_per_s')} (target ≥ 5,000), rows per CPU-second ${median('rows_per_cpu_s')}`);
}
