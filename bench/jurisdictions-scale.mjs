// The cost of the UK and Canadian rules alone as the ledger grows (issue 22: the 30-day look-ahead
// must not make them quadratic): synthetic rows in time order (a few assets, buys and sells every
// few minutes, a loss now and then so superficial losses and 30-day matches are common) fed
// straight to each jurisdiction's report, no store, no file. Prints, per size, the time per row
// (wall, and CPU: user + system of the process, steadier on a shared machine) and the heap left
// after a full GC at the end of the stream (before end(): what the report holds).
//   [PREBUILT=1] node --expose-gc bench/jurisdictions-scale.mjs [SIZES]   (default 100000,400000,1000000)
import { AssetTable } from '../dist/accounting/assets.js';
import { jurisdictionOf } from '../dist/accounting/jurisdictions/index.js';

const sizes = (process.argv[2] ?? '100000,400000,1000000').split(',').map(Number);
const TOKENS = ['A', 'B', 'C', 'D', 'E'].map((symbol, i) => ({ symbol, address: `0x${String(i + 1).padStart(40, '0')}`, decimals: 6 }));

function* rows(n) {
  let t = Date.UTC(2020, 0, 1) / 1000;
  for (let i = 0; i < n; i++) {
    t += 97 + (i % 13) * 11;
    const token = TOKENS[i % TOKENS.length];
    const inflow = i % 3 !== 2;
    // Prices wander so that sells gain and lose.
    const price = 100 + ((i * 7919) % 61) - 30;
    yield {
      tx: {
        id: `tx_${i}`,
        timestamp: new Date(t * 1000).toISOString().replace('.000Z', 'Z'),
        wallet_id: `wal_${i % 3}`,
        wallet_label: `W${i % 3}`,
        chain: 'ethereum',
        tx_hash: `0x${i.toString(16).padStart(64, '0')}`,
        token,
        amount: inflow ? '2' : '1.5',
        direction: inflow ? 'inflow' : 'outflow',
        type: 'transfer',
        transfer: null,
        fiat_cents: BigInt(price * (inflow ? 200 : 150)),
        income_tags: [],
      },
      reported: true,
    };
  }
}

for (const code of ['uk', 'ca']) {
  for (const n of sizes) {
    globalThis.gc?.();
    const report = jurisdictionOf(code).report({ assets: new AssetTable(), method: 'fifo' });
    let lines = 0;
    // PREBUILT=1: the rows are made before the clock starts (the rules' cost alone, not the generator's).
    const input = process.env.PREBUILT ? [...rows(n)] : rows(n);
    const t0 = process.hrtime.bigint();
    const c0 = process.cpuUsage();
    for (const { tx, reported } of input) lines += report.add(tx, reported).length;
    globalThis.gc?.();
    const heap = process.memoryUsage().heapUsed / 2 ** 20;
    lines += report.end().length;
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const c = process.cpuUsage(c0);
    const cpu = (c.user + c.system) / 1e6;
    console.log(
      `${code} ${String(n).padStart(8)} rows  ${seconds.toFixed(2)} s  ${((seconds / n) * 1e6).toFixed(2)} µs/row  cpu ${cpu.toFixed(2)} s  ${((cpu / n) * 1e6).toFixed(2)} µs/row  heap before end ${heap.toFixed(0)} MB  ${lines} lines`,
    );
  }
}
