// Bitcoin xpub sync throughput (src/sync/bitcoin/, issue 21: an xpub of 10,000 transactions from
// a replay server at ≥ 5,000 rows/s excluding the server). A replay Esplora in a child process on
// 127.0.0.1 answers for a zpub's first ADDRESSES receive addresses (the rest unused, so the gap
// limit ends each chain): `/address/:a` counts, `/address/:a/txs` and `/txs/chain/:last_seen_txid`
// pages of 25, newest first, from pre-serialised pages. Four transactions in five are inflows from
// outside, one in five an outflow with a fee.
//
// Each run syncs in a client process of its own (bench/sync-harness.mjs): "excluding the server" is
// that process's CPU time (rows_per_cpu_s; the server's CPU is in its process), beside the wall
// less the server's answering time (rows_per_s, which a loaded machine inflates). The client syncs
// twice, each into a fresh ledger: `cold` is a process's first sync (what `txa wallet sync` does),
// `warm` its second (what a long-running `txa serve` does), its code compiled by then.
// `--against DIR` runs a checkout's build (DIR/dist) as A, interleaved with this one as B, and
// checks that both stored the same rows.
//   node bench/bitcoin-sync.mjs [--txs N] [--addresses A] [--runs R] [--against DIR]   (defaults: 10000, 100, 3)
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchArgs, benchLedger, distDir, median, serveReplay, startReplay, timedSync } from './sync-harness.mjs';

const ZPUB = 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
const values = benchArgs(
  { txs: 10_000, addresses: 100, runs: 3, port: 0 },
  { client: { type: 'boolean' }, against: { type: 'string' }, dump: { type: 'string' } },
);
const { txs: txCount, addresses: addressCount, runs } = values;
const self = new URL(import.meta.url).pathname;

if (values.server) {
  const { extendedKey, derivedAddress } = await import(`${distDir(values.dist)}/core/bitcoin-keys.js`);
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
  serveReplay((req, res) => {
    const m = /^\/address\/([^/]+)(\/txs(?:\/chain\/([0-9a-f]{64}))?)?$/.exec(req.url);
    let body = '[]';
    if (m) {
      const list = byAddress.get(m[1]) ?? [];
      if (!m[2]) body = JSON.stringify({ address: m[1], chain_stats: { tx_count: list.length }, mempool_stats: { tx_count: 0 } });
      else if (!m[3]) body = page(list, 0);
      else body = page(list, list.findIndex((t) => t.txid === m[3]) + 1);
    }
    res.setHeader('content-type', 'application/json');
    res.end(body);
  });
} else if (values.client) {
  // One process of one build: a cold sync, then a warm one, each into a fresh ledger; the first one's rows go to --dump.
  const { addWallet } = await import(`${distDir(values.dist)}/engine/wallets.js`);
  const { WalletSync } = await import(`${distDir(values.dist)}/sync/wallet-sync.js`);
  const { syncSettings } = await import(`${distDir(values.dist)}/sync/settings.js`);
  const settings = syncSettings({ TXA_ESPLORA_URL: `http://127.0.0.1:${values.port}`, TXA_SYNC_RPS: '100000' });
  const out = {};
  for (const name of ['cold', 'warm']) {
    const ledger = await benchLedger(values.dist, 'txa-btc-bench-');
    const wallet = addWallet(ledger.engine, ledger.ws, { chain: 'bitcoin', xpub: ZPUB }).id;
    const rowsOf = () => ledger.engine.db.prepare('SELECT count(*) FROM transactions WHERE wallet_id = ?').pluck().get(wallet);
    const { result, figures } = await timedSync(values.port, () => new WalletSync(ledger.engine, ledger.ws, settings).sync(wallet), rowsOf);
    out[name] = { transactions: result.new_transactions, requests: result.requests, last_block: result.last_block, ...figures };
    if (values.dump && name === 'cold') writeFileSync(values.dump, JSON.stringify(stored(ledger.engine.db, wallet)));
    ledger.close();
  }
  process.send(out);
} else {
  const builds = values.against ? { A: join(values.against, 'dist'), B: distDir(values.dist) } : { B: distDir(values.dist) };
  console.log(
    `node bench/bitcoin-sync.mjs --txs ${txCount} --addresses ${addressCount} --runs ${runs}${values.against ? ` --against ${values.against}` : ''}   load before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const replay = await startReplay(self, ['--txs', String(txCount), '--addresses', String(addressCount)]);
  const dumps = mkdtempSync(join(tmpdir(), 'txa-btc-dumps-'));
  const results = Object.fromEntries(Object.keys(builds).map((side) => [side, []]));
  // The server stops with this process, whatever stops it.
  process.on('exit', replay.stop);
  for (let run = 0; run < runs; run++) {
    // Each run starts with the other build, so neither always meets the quieter moment.
    const sides = Object.keys(builds);
    if (run % 2 === 1) sides.reverse();
    for (const side of sides) {
      const args = ['--client', '--dist', builds[side], '--port', String(replay.port)];
      if (run === 0) args.push('--dump', join(dumps, `${side}.json`));
      const child = fork(self, args);
      const out = await new Promise((done, failed) => {
        child.once('message', done);
        child.once('exit', (code) => code !== 0 && failed(new Error(`the ${side} client exited with ${code}`)));
      });
      results[side].push(out);
      console.log(JSON.stringify({ build: side, run: run + 1, ...out }));
    }
  }
  replay.stop();
  if (values.against) {
    const [a, b] = ['A', 'B'].map((side) => JSON.parse(readFileSync(join(dumps, `${side}.json`), 'utf8')));
    const differs = (x, y) => JSON.stringify(x) !== JSON.stringify(y);
    const first = a.rows.findIndex((r, i) => differs(r, b.rows[i]));
    const same = a.rows.length === b.rows.length && first < 0 && !differs(a.cursors, b.cursors);
    console.log(`A and B stored the same ${a.rows.length} rows and ${a.cursors.length} cursors: ${same ? 'yes' : 'NO'}`);
    if (first >= 0) console.log(`first differing row: A ${JSON.stringify(a.rows[first])}\n  B ${JSON.stringify(b.rows[first])}`);
  }
  rmSync(dumps, { recursive: true, force: true });
  for (const [side, list] of Object.entries(results)) {
    const of = (kind, k) => median(list.map((r) => r[kind][k]));
    console.log(
      `${side}: median rows per client CPU-second cold ${of('cold', 'rows_per_cpu_s')}, warm ${of('warm', 'rows_per_cpu_s')} (target ≥ 5,000); ` +
        `wall rows/s less the server's time cold ${of('cold', 'rows_per_s')}, warm ${of('warm', 'rows_per_s')}; calls ${of('cold', 'requests')}`,
    );
  }
  console.log(
    `load after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

/** What a sync stored, to compare builds: every column of the wallet's rows but the time they were written, in rowid order, and its cursors. */
function stored(db, wallet) {
  const rows = db.prepare('SELECT * FROM transactions WHERE wallet_id = ? ORDER BY rowid').all(wallet);
  // Ids are the wallet's (new in each ledger) and the write time: left out, the rest compared.
  for (const r of rows) for (const k of ['id', 'workspace_id', 'wallet_id', 'created_at']) delete r[k];
  const cursors = db.prepare('SELECT list, block FROM sync_cursors WHERE wallet_id = ? ORDER BY list').all(wallet);
  return { rows, cursors };
}
