#!/usr/bin/env node
// The list route's latency in `txa serve` while a CSV export of every row runs in the same serve
// (issue 13, target 6: p99 ≤ 100 ms), with the same route idle as the reference, interleaved in
// one run: idle, during an export, idle, during an export, …
//   node bench/http-export.mjs LEDGER [RUNS]     (CONNECTIONS=1 IDLE_SECONDS=10 to change)
// LEDGER is used in place: pass a copy (the bench adds an API key and export records), e.g. of
// /work/bench-data/ledger-1m.db (workspace ws_bench). The export is a `download` one: POST
// /exports answers when its file is written, so the load runs exactly as long as the export.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { listRequest, phaseSummary, serveLedger } from './serve-ledger.mjs';

const root = resolve(import.meta.dirname, '..');
const [db, runsArg] = process.argv.slice(2);
if (!db) throw new Error('usage: node bench/http-export.mjs LEDGER [RUNS]');
const RUNS = Number(runsArg ?? 3);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 1);
const IDLE_SECONDS = Number(process.env.IDLE_SECONDS ?? 10);
const WS = 'ws_bench';
const dir = mkdtempSync(join(tmpdir(), 'txa-http-export-'));

const { serve, base, key, maxTs } = await serveLedger(root, db, dir, WS);

// A list request that is cheap when idle (page 1 + summary of ~6 months, a new query each time, so
// the read cache never answers). The chain filter is left out: on this ledger it alone costs
// 200–700 ms per request idle, which would hide what the export adds.
const end = new Date(maxTs * 1000);
const start = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - 5, 1));
const day = (d) => d.toISOString().slice(0, 10);
const auth = { authorization: `Bearer ${key}` };
const list = listRequest(auth, WS, (k) => day(new Date(start.getTime() + (k % 180) * 86_400_000)), day(end));

const load = () => autocannon({ url: base, connections: CONNECTIONS, duration: 3600, requests: [list] });

async function idle() {
  const run = load();
  setTimeout(() => run.stop(), IDLE_SECONDS * 1000);
  console.log(JSON.stringify(phaseSummary('idle', await run)));
}

async function duringExport() {
  const t0 = performance.now();
  const exporting = fetch(`${base}/api/v1/exports`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ workspace_id: WS, format: 'csv' }),
  }).then(async (res) => ({ status: res.status, body: await res.json(), seconds: (performance.now() - t0) / 1000 }));
  const run = load();
  const e = await exporting;
  run.stop();
  const r = await run;
  console.log(
    JSON.stringify(
      phaseSummary('export', r, { export_status: e.status, export_rows: e.body.data?.transaction_count, export_seconds: Number(e.seconds.toFixed(1)) }),
    ),
  );
}

try {
  for (let i = 0; i < RUNS; i++) {
    await idle();
    await duringExport();
  }
} finally {
  serve.kill('SIGTERM');
  await new Promise((r) => serve.on('exit', r));
  rmSync(dir, { recursive: true, force: true });
}
