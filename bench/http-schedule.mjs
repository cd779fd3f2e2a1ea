#!/usr/bin/env node
// The list route's latency in `txa serve` while a scheduled report's run is exported in the same
// serve (issue 23: p99 ≤ 100 ms while a scheduled export runs), between two idle phases of the same
// route as the reference: idle (also warming the server), the run, idle.
//   node bench/http-schedule.mjs LEDGER [EVERY]     (EVERY: quarterly (default), monthly, …;
//                                                    CONNECTIONS=1 IDLE_SECONDS=10 to change)
// LEDGER is used in place: pass a copy (the bench adds a key, a schedule, export records), e.g. of
// bench/data/ledger-1m.db (workspace ws_bench, rows 2024-11-01 to 2026-10-31). The run is
// `POST /schedules/:id/run` after the first idle phase: the period's scheduled run (the last
// complete period by the real clock), a queued export the serve's worker writes and delivers, as
// the scheduler's own runs are. The fixture ledger spreads its rows over two years: a quarterly
// run of the 1M ledger exports about an eighth of them (the script prints how many).
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { listRequest, phaseSummary, serveLedger } from './serve-ledger.mjs';

const root = resolve(import.meta.dirname, '..');
const [db, everyArg] = process.argv.slice(2);
if (!db) throw new Error('usage: node bench/http-schedule.mjs LEDGER [EVERY]');
const EVERY = everyArg ?? 'quarterly';
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 1);
const IDLE_SECONDS = Number(process.env.IDLE_SECONDS ?? 10);
const WS = 'ws_bench';
const dir = mkdtempSync(join(tmpdir(), 'txa-http-schedule-'));

// A receiver for the run's export.completed call (serve runs with --allow-private-webhooks).
let delivered = 0;
const rx = createServer((req, res) => req.resume().on('end', () => (delivered++, res.writeHead(200).end())));
await new Promise((r) => rx.listen(0, '127.0.0.1', r));
const hook = `http://127.0.0.1:${rx.address().port}/report`;

const { createSchedule } = await import(join(root, 'dist/engine/schedules.js'));
const { latestDue, dayText } = await import(join(root, 'dist/core/schedule-periods.js'));
const period = latestDue(EVERY, 'UTC', Date.now());
let schedule;
const { serve, base, key } = await serveLedger(root, db, dir, WS, {
  serveArgs: ['--allow-private-webhooks'],
  prepare: (engine) => {
    // Enterprise: no cap on the rows of one export.
    engine.db.prepare("UPDATE workspaces SET tier = 'enterprise' WHERE id = ?").run(WS);
    schedule = createSchedule(engine, WS, { name: 'bench', every: EVERY, format: 'csv', delivery: { method: 'webhook', webhook_url: hook } });
  },
});
const auth = { authorization: `Bearer ${key}` };
const get = async (path) => (await (await fetch(`${base}/api/v1${path}`, { headers: auth })).json()).data;

// The serve benches' list request (serve-ledger.mjs), its first days moving through the period.
const days = Math.max(1, period.end - period.start);
const list = listRequest(auth, WS, (k) => dayText(period.start + (k % days)), dayText(period.end));
const load = () => autocannon({ url: base, connections: CONNECTIONS, duration: 3600, requests: [list] });

async function idle() {
  const run = load();
  setTimeout(() => run.stop(), IDLE_SECONDS * 1000);
  console.log(JSON.stringify(phaseSummary('idle', await run)));
}

try {
  await idle();
  const t0 = performance.now();
  const started = await fetch(`${base}/api/v1/schedules/${schedule.id}/run`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: '{}',
  });
  const exportId = (await started.json()).data.export_id;
  const run = load();
  let exp;
  for (;;) {
    await new Promise((r) => setTimeout(r, 500));
    exp = await get(`/exports/${exportId}`);
    if (exp.status === 'completed' || exp.status === 'failed') break;
  }
  run.stop();
  const during = await run;
  console.log(
    JSON.stringify(
      phaseSummary('scheduled export', during, {
        every: EVERY,
        period: `${dayText(period.start)}..${dayText(period.end)}`,
        export_status: exp.status,
        export_rows: exp.transaction_count,
        export_seconds: Number(((performance.now() - t0) / 1000).toFixed(1)),
        delivered,
      }),
    ),
  );
  await idle();
} finally {
  serve.kill('SIGTERM');
  await new Promise((r) => serve.on('exit', r));
  rx.close();
  rmSync(dir, { recursive: true, force: true });
}
