// What the HTTP benches share: a full key on the bench workspace with a budget so large the limiter
// counts every request without refusing any, and a `txa serve` of the ledger on a free port.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Starts serve on `db` (config in `configDir`): its process, base URL, key and the ledger's last
 * timestamp. `prepare(engine)` sets up more before serve opens the ledger; `serveArgs` are added
 * to `txa serve`'s.
 */
export async function serveLedger(root, db, configDir, ws, { prepare = () => {}, serveArgs = [] } = {}) {
  const { Engine } = await import(join(root, 'dist/engine/engine.js'));
  const { createKey } = await import(join(root, 'dist/engine/keys.js'));
  const engine = Engine.open(db);
  engine.db.prepare('UPDATE workspaces SET rate_limit = 1000000000 WHERE id = ?').run(ws);
  const { key } = createKey(engine, ws, { name: 'bench', access: 'full' });
  const { maxTs } = engine.db.prepare('SELECT max(ts) AS maxTs FROM transactions WHERE workspace_id = ?').get(ws);
  prepare(engine);
  engine.close();

  const serve = spawn(join(root, 'bin/txa'), ['--db', db, 'serve', '--port', '0', ...serveArgs], {
    env: { ...process.env, TXA_CONFIG_DIR: configDir },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const base = await new Promise((ok, fail) => {
    let err = '';
    serve.stderr.on('data', (d) => {
      err += d;
      const m = /listening on (\S+)/.exec(err);
      if (m) ok(m[1]);
    });
    serve.on('exit', () => fail(new Error(err)));
  });
  return { serve, base, key, maxTs };
}

/** One load phase of an autocannon result as a JSON-able line: its latency, errors and the machine's load. */
export function phaseSummary(phase, r, extra = {}) {
  return {
    phase,
    seconds: r.duration,
    requests: r.requests.total,
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    max_ms: r.latency.max,
    non2xx: r.non2xx,
    errors: r.errors,
    load: readFileSync('/proc/loadavg', 'utf8').split(' ')[0],
    ...extra,
  };
}

/**
 * The list request of the serve benches (autocannon): page 1 + summary from a moving first day to
 * `endDay`, with a moving page size, so every request is a new query the read cache cannot answer.
 * `fromDay(k)` is the k-th first day (`YYYY-MM-DD`); each is asked 21 times.
 */
export function listRequest(auth, ws, fromDay, endDay) {
  let n = 0;
  return {
    method: 'GET',
    path: '/',
    headers: auth,
    setupRequest: (req) => {
      const i = ++n;
      const query = `workspace_id=${ws}&start_date=${fromDay(Math.floor(i / 21))}&end_date=${endDay}&limit=${30 + (i % 21)}`;
      return { ...req, path: `/api/v1/transactions?${query}` };
    },
  };
}
