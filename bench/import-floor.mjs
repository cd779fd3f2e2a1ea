// What SQLite alone costs per imported transaction on this machine, with no JavaScript work:
// the rows of an existing ledger (its transactions, their transaction.created events and tag
// links), already read into memory, inserted with prepared statements in one transaction into a
// fresh file with the ledger's own schema (or parts of it), then committed with its checkpoint.
// The second variant is the least any design that keeps one row and one event row per imported
// transaction could cost; the sixth is the schema as it is. Variants run interleaved, ROUNDS
// times; prints the median rows/s (wall and CPU) of each.
//   node bench/import-floor.mjs [LEDGER] [ROUNDS]      (default bench/data/ledger-100k.db, 3)
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const source = process.argv[2] ?? 'bench/data/ledger-100k.db';
const rounds = Number(process.argv[3] ?? 3);

/**
 * Which parts of the schema each variant has, each adding to the one before. Without
 * `sortableIds`, event ids are random as before session 2; `build` creates the secondary indexes
 * after the rows, one sort each, as a large import into a small ledger now does.
 */
const VARIANTS = {
  'transaction rows only (rowid + id key)': {},
  '+ one event row each (rowid + unique random id)': { events: true },
  '+ the 5 transaction indexes': { events: true, txIndexes: true },
  '+ the 2 event indexes and the delivery trigger': { events: true, txIndexes: true, eventIndexes: true, deliveries: true },
  '+ tag links': { events: true, txIndexes: true, eventIndexes: true, deliveries: true, links: true },
  '+ the tag-count triggers (= the schema)': { events: true, txIndexes: true, eventIndexes: true, deliveries: true, links: true, counts: true },
  'the schema, sortable event ids': { events: true, txIndexes: true, eventIndexes: true, deliveries: true, links: true, counts: true, sortableIds: true },
  'the schema, sortable event ids, indexes built at the end': {
    events: true,
    txIndexes: true,
    eventIndexes: true,
    deliveries: true,
    links: true,
    counts: true,
    sortableIds: true,
    build: true,
  },
};

const src = new Database(source, { readonly: true });
const TX_COLUMNS =
  'id, workspace_id, wallet_id, chain, tx_hash, transfer_key, from_address, to_address, token_symbol, token_address, token_decimals, amount, amount_key, fiat_cents, direction, type, ts, notes, created_at';
const txs = src.prepare(`SELECT ${TX_COLUMNS} FROM transactions ORDER BY rowid`).raw().all();
const events = src
  .prepare("SELECT workspace_id, type, subject_id, created_at, payload FROM events WHERE type = 'transaction.created' ORDER BY seq")
  .raw()
  .all();
const links = src.prepare('SELECT transaction_id, tag_id FROM transaction_tags').raw().all();
const schema = src.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid").all();
src.close();
const randomIds = events.map(() => `evt_${randomBytes(10).toString('hex')}`);
const t0 = Date.now();
const sortableIds = events.map((_, i) => `evt_${t0.toString(16).padStart(11, '0')}${i.toString(16).padStart(9, '0')}`);
const dir = mkdtempSync(join(tmpdir(), 'txa-import-floor-'));

function run(v) {
  const path = join(dir, 'floor.db');
  for (const s of ['', '-wal', '-shm']) rmSync(path + s, { force: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('cache_size = -262144');
  db.pragma('foreign_keys = ON');
  // As txa's own connection (src/store/db.ts openDb): statement journals in memory.
  db.pragma('temp_store = MEMORY');
  const later = [];
  for (const s of schema) {
    const isIndex = s.type === 'index';
    if (s.type === 'trigger' && !(s.name === 'events_schedule_deliveries' ? v.deliveries : v.counts)) continue;
    if (isIndex && s.tbl_name === 'transactions' && !v.txIndexes) continue;
    if (isIndex && s.tbl_name === 'events' && !v.eventIndexes) continue;
    if (isIndex && ['transactions', 'events', 'transaction_tags'].includes(s.tbl_name) && v.build) later.push(s.sql);
    else db.exec(s.sql);
  }
  db.exec(`ATTACH '${source}' AS src`);
  for (const t of ['workspaces', 'wallets', 'tags', 'webhooks']) db.exec(`INSERT INTO ${t} SELECT * FROM src.${t}`);
  db.exec('DETACH src');
  const ids = v.sortableIds ? sortableIds : randomIds;
  const wall = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  db.transaction(() => {
    const tx = db.prepare(
      `INSERT OR IGNORE INTO transactions (${TX_COLUMNS}) VALUES (${TX_COLUMNS.split(',')
        .map(() => '?')
        .join(', ')})`,
    );
    for (const r of txs) tx.run(r);
    if (v.links) {
      const link = db.prepare('INSERT OR IGNORE INTO transaction_tags (transaction_id, tag_id) VALUES (?, ?)');
      for (const r of links) link.run(r);
    }
    if (v.events) {
      const event = db.prepare('INSERT INTO events (id, workspace_id, type, subject_id, created_at, payload) VALUES (?, ?, ?, ?, ?, ?)');
      for (let i = 0; i < events.length; i++) event.run(ids[i], ...events[i]);
    }
    for (const sql of later) db.exec(sql);
  })();
  const seconds = Number(process.hrtime.bigint() - wall) / 1e9;
  const { user, system } = process.cpuUsage(cpu);
  db.close();
  return { per_s: Math.round(txs.length / seconds), per_cpu_s: Math.round(txs.length / ((user + system) / 1e6)) };
}

process.stderr.write(`${txs.length} transactions, ${events.length} events, ${links.length} tag links from ${source}; load ${loadavg()[0].toFixed(2)}\n`);
const results = Object.fromEntries(Object.keys(VARIANTS).map((k) => [k, []]));
for (let r = 0; r < rounds; r++) for (const [name, v] of Object.entries(VARIANTS)) results[name].push(run(v));
rmSync(dir, { recursive: true, force: true });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, list] of Object.entries(results)) {
  const wall = median(list.map((x) => x.per_s));
  const cpu = median(list.map((x) => x.per_cpu_s));
  process.stdout.write(`${String(wall).padStart(8)} rows/s ${String(cpu).padStart(8)} rows/CPU-s  ${name}\n`);
}
process.stdout.write(
  `load after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}\n`,
);
