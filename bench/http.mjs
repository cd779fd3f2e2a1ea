#!/usr/bin/env node
// HTTP throughput and latency of `txa serve` on loopback, with autocannon, against the 1M-row
// bench ledger (bench/make-ledger.sh), or a 100k one built the same way when it is absent.
// The ledger is copied first, so the POSTs do not change the shared file. One JSON line per route.
//   bench/http.sh                      (CONNECTIONS=10 DURATION=10 DB=… to change; ONLY=TEXT runs
//                                       only the routes whose name holds TEXT, e.g. ONLY=cache)
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { serveLedger } from './serve-ledger.mjs';

const root = resolve(import.meta.dirname, '..');
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
const DURATION = Number(process.env.DURATION ?? 10);
const WS = 'ws_bench';

function ledger() {
  if (process.env.DB) return process.env.DB;
  for (const name of ['ledger-1m.db', 'ledger-100k.db']) {
    const p = join(root, 'bench/data', name);
    if (existsSync(p)) return p;
  }
  execFileSync('bash', [join(root, 'bench/make-ledger.sh')], { env: { ...process.env, SIZES: '100000' }, stdio: 'inherit' });
  return join(root, 'bench/data/ledger-100k.db');
}

const source = ledger();
const dir = mkdtempSync(join(tmpdir(), 'txa-http-bench-'));
const db = join(dir, 'ledger.db');
copyFileSync(source, db);

const { serve, base, key, maxTs } = await serveLedger(root, db, dir, WS);

// The last six months of data, on one chain.
const end = new Date(maxTs * 1000);
const start = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - 5, 1));
const day = (d) => d.toISOString().slice(0, 10);
const auth = { authorization: `Bearer ${key}` };
const txList = `/api/v1/transactions?workspace_id=${WS}&chain=ethereum&start_date=${day(start)}&end_date=${day(end)}`;
let n = 0;
const routes = [
  { name: 'GET /api/v1/health (ceiling, no key)', path: '/api/v1/health' },
  { name: 'GET /api/v1/webhooks (trivial, with key + limiter)', path: `/api/v1/webhooks?workspace_id=${WS}`, headers: auth },
  { name: 'GET /api/v1/transactions chain + 6 months, page 1 + summary (repeated: cache hits)', path: txList, headers: auth },
  {
    // A different key per request (window shifted by a day, page size 30..50), the same cost as page 1.
    name: 'GET /api/v1/transactions chain + ~6 months, page 1 + summary, a new query each time (cache misses)',
    path: txList,
    headers: auth,
    setupRequest: (req) => {
      const i = ++n;
      const from = new Date(start.getTime() + (Math.floor(i / 21) % 180) * 86_400_000);
      return { ...req, path: `/api/v1/transactions?workspace_id=${WS}&chain=ethereum&start_date=${day(from)}&end_date=${day(end)}&limit=${30 + (i % 21)}` };
    },
  },
  {
    name: 'POST /api/v1/tags',
    method: 'POST',
    path: '/api/v1/tags',
    headers: { ...auth, 'content-type': 'application/json' },
    setupRequest: (req) => ({ ...req, body: JSON.stringify({ workspace_id: WS, name: `bench ${process.pid} ${++n}`, type: 'expense' }) }),
  },
];

async function load(r) {
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [{ method: r.method ?? 'GET', path: r.path, headers: r.headers ?? {}, ...(r.setupRequest ? { setupRequest: r.setupRequest } : {}) }],
  });
  console.log(
    JSON.stringify({
      route: r.name,
      connections: CONNECTIONS,
      seconds: DURATION,
      req_per_s: Math.round(result.requests.average),
      p50_ms: result.latency.p50,
      p99_ms: result.latency.p99,
      non2xx: result.non2xx,
      errors: result.errors,
      rows: source.includes('1m') ? '1M' : '100k',
    }),
  );
}

/** The list request again while a ~50,000-row `detailed` PDF export runs in the server's worker. */
async function whilePdfExport() {
  const from = new Date(end.getTime() - 36 * 86_400_000);
  const t0 = performance.now();
  const exporting = fetch(`${base}/api/v1/exports`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ workspace_id: WS, format: 'pdf', report_type: 'detailed', filters: { start_date: day(from), end_date: day(end) } }),
  }).then(async (res) => ({ status: res.status, body: await res.json(), seconds: (performance.now() - t0) / 1000 }));
  await new Promise((r) => setTimeout(r, 500)); // let the worker start drawing
  let finished = null;
  exporting.then((e) => (finished = e));
  const uncached = routes.find((r) => r.name.includes('cache misses'));
  await load({ ...uncached, name: `${uncached.name}, while a ~50,000-row detailed PDF export runs` });
  const stillRunning = finished === null;
  const e = await exporting;
  console.log(
    JSON.stringify({
      export: 'pdf detailed',
      status: e.status,
      transactions: e.body.data?.transaction_count,
      seconds: Number(e.seconds.toFixed(1)),
      running_during_whole_load: stillRunning,
    }),
  );
}

try {
  const only = process.env.ONLY;
  for (const r of routes) if (!only || r.name.includes(only)) await load(r);
  if (!only) await whilePdfExport();
} finally {
  serve.kill('SIGTERM');
  await new Promise((r) => serve.on('exit', r));
  rmSync(dir, { recursive: true, force: true });
}
