#!/usr/bin/env node
// What the role check (docs/server.md "Teams") costs a request: GET /api/v1/webhooks (key, limiter,
// role, a trivial read) through fastify inject on two builds, alternating rounds so the machine's
// load falls on both alike, and the key lookup alone with and without the member join.
//   node bench/role-check.mjs /path/to/other/checkout/dist   (default: this checkout's dist only)
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const N = Number(process.env.N ?? 2000);
const ROUNDS = Number(process.env.ROUNDS ?? 12);
const builds = { this: resolve(import.meta.dirname, '../dist'), ...(process.argv[2] ? { other: resolve(process.argv[2]) } : {}) };
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];

const apps = {};
for (const [name, root] of Object.entries(builds)) {
  const { Engine } = await import(join(root, 'engine/engine.js'));
  const { createWorkspace } = await import(join(root, 'engine/workspaces.js'));
  const { createKey } = await import(join(root, 'engine/keys.js'));
  const { LocalBackend } = await import(join(root, 'engine/local-backend.js'));
  const { buildServer } = await import(join(root, 'server/app.js'));
  const engine = Engine.open(join(mkdtempSync(join(tmpdir(), 'txa-role-bench-')), 'ledger.db'));
  createWorkspace(engine, { id: 'ws_b', name: 'B', tier: 'enterprise', rate_limit: 1_000_000_000 });
  const { key } = createKey(engine, 'ws_b', { access: 'full' });
  const app = buildServer({ backend: new LocalBackend(engine), engine, allowPrivateWebhooks: false });
  await app.ready();
  apps[name] = { app, key, engine };
}

const perRequest = Object.fromEntries(Object.keys(apps).map((n) => [n, []]));
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 ? Object.keys(apps).reverse() : Object.keys(apps);
  for (const name of order) {
    const { app, key } = apps[name];
    const t = process.hrtime.bigint();
    for (let i = 0; i < N; i++) {
      const r = await app.inject({ method: 'GET', url: '/api/v1/webhooks?workspace_id=ws_b', headers: { authorization: `Bearer ${key}` } });
      if (r.statusCode !== 200) throw new Error(r.body);
    }
    if (round >= 2) perRequest[name].push(Number(process.hrtime.bigint() - t) / N / 1000);
  }
}
console.log(
  JSON.stringify({
    route: 'GET /api/v1/webhooks',
    us_per_request_median: Object.fromEntries(Object.entries(perRequest).map(([n, a]) => [n, +median(a).toFixed(1)])),
  }),
);

// The key lookup alone, on this build's ledger with 1,000 keys: by hash, and by hash joined to the member.
const { engine } = apps.this;
const { createKey, hashKey } = await import(join(builds.this, 'engine/keys.js'));
const hashes = Array.from({ length: 1000 }, () => hashKey(createKey(engine, 'ws_b', { access: 'full' }).key).toString('hex'));
const statements = {
  key_only: engine.db.prepare('SELECT id, workspace_id, access, key_hash, revoked_at FROM api_keys WHERE key_hash = ?'),
  key_and_member: engine.db.prepare(
    'SELECT k.id, k.workspace_id, k.access, k.key_hash, k.revoked_at, k.member_id, m.role, m.removed_at FROM api_keys k LEFT JOIN members m ON m.id = k.member_id WHERE k.key_hash = ?',
  ),
};
const perLookup = { key_only: [], key_and_member: [] };
for (let round = 0; round < 8; round++) {
  for (const name of round % 2 ? ['key_and_member', 'key_only'] : ['key_only', 'key_and_member']) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < 100_000; i++) statements[name].get(hashes[i % 1000]);
    perLookup[name].push(Number(process.hrtime.bigint() - t) / 100_000 / 1000);
  }
}
console.log(
  JSON.stringify({
    lookup: 'api key by hash',
    us_median: { key_only: +median(perLookup.key_only).toFixed(2), key_and_member: +median(perLookup.key_and_member).toFixed(2) },
  }),
);
process.exit(0);
