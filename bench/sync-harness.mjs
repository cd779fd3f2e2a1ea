// What the sync benches (bench/sync.mjs, bench/bitcoin-sync.mjs) share: a replay server in a child
// process of its own on 127.0.0.1, which counts its own time and CPU and tells them at
// `GET /__server` (never a call of the sync); a fresh ledger of a given build; and one sync timed
// as "excluding the server": the syncing process's own CPU time (user + system), none of which
// is the server's, beside the wall time less the time the server spent answering.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, get } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

/** The bench's flags, numbers where `numbers` names them (with their defaults), `--server` and `--dist` for every bench. */
export function benchArgs(numbers, more = {}) {
  const options = { server: { type: 'boolean' }, dist: { type: 'string' }, ...more };
  for (const name of Object.keys(numbers)) options[name] = { type: 'string' };
  const { values } = parseArgs({ options });
  const out = { ...values };
  for (const [name, fallback] of Object.entries(numbers)) out[name] = Number(values[name] ?? fallback);
  return out;
}

/** In the server's process: answers with `handle(req, res)`, timing each call, and `/__server` with the totals; tells the parent its port. */
export function serveReplay(handle) {
  let ms = 0;
  const server = createServer((req, res) => {
    if (req.url === '/__server') {
      const cpu = process.cpuUsage();
      res.end(JSON.stringify({ ms, cpu_ms: (cpu.user + cpu.system) / 1000 }));
      return;
    }
    const t0 = performance.now();
    res.on('finish', () => {
      ms += performance.now() - t0;
    });
    handle(req, res);
  });
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
}

/** Forks `script --server …args` and waits for its port. */
export async function startReplay(script, args) {
  const child = fork(script, ['--server', ...args]);
  const port = await new Promise((done) => child.once('message', (m) => done(m.port)));
  return { port, stop: () => child.kill() };
}

/** The server's totals so far: its time answering and its process's CPU, in ms (a connection of its own: a kept-alive one may have timed out since). */
export function serverTotals(port) {
  return new Promise((done, failed) => {
    get({ host: '127.0.0.1', port, path: '/__server', agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => done(JSON.parse(body)));
    }).on('error', failed);
  });
}

/** A fresh ledger of the build in `dist` (this checkout's by default), with an enterprise workspace. */
export async function benchLedger(dist, prefix) {
  const { Engine } = await import(`${distDir(dist)}/engine/engine.js`);
  const { createWorkspace } = await import(`${distDir(dist)}/engine/workspaces.js`);
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const engine = Engine.open(join(dir, 'ledger.db'));
  const ws = createWorkspace(engine, { name: 'Bench', tier: 'enterprise' }).id;
  return {
    engine,
    ws,
    close: () => {
      engine.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The build's dist folder as a URL path to import from. */
export const distDir = (dist) => (dist ? resolve(dist) : new URL('../dist', import.meta.url).pathname);

/**
 * `sync()` timed: wall and CPU time of this process, and the server's time and CPU over the same
 * span; `rows` its rows' count, for rows per second of the process's own CPU (excluding the server)
 * and of the wall less the server's answering time.
 */
export async function timedSync(port, sync, countRows) {
  const server0 = await serverTotals(port);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const result = await sync();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const server1 = await serverTotals(port);
  const rows = countRows(result);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const serverMs = server1.ms - server0.ms;
  return {
    result,
    figures: {
      rows,
      wall_ms: Math.round(wallMs),
      cpu_ms: Math.round(cpuMs),
      user_ms: Math.round(cpu.user / 1000),
      sys_ms: Math.round(cpu.system / 1000),
      server_ms: Math.round(serverMs),
      server_cpu_ms: Math.round(server1.cpu_ms - server0.cpu_ms),
      rows_per_cpu_s: Math.round(rows / (cpuMs / 1000)),
      rows_per_s: Math.round(rows / ((wallMs - serverMs) / 1000)),
      load: Number(loadavg()[0].toFixed(2)),
    },
  };
}

/** The middle value (the upper of the two middle ones for an even count). */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
