/**
 * Large imports (engine/imports.ts rebuildPays): an import that at least doubles the ledger drops
 * the secondary indexes of the tables it fills and builds them again at its end, inside its one
 * transaction. The ledger must come out the same as with row-by-row index inserts, a failed or
 * dry run must leave it untouched, and readers in other processes must only ever see it before
 * or after the import.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve, join } from 'node:path';
import { tempEngine } from '../helpers/engine.js';
import { txaErrorOf } from '../helpers/errors.js';
import { tempStoreAtCreate } from '../helpers/temp-store.js';
import type { Engine } from '../../src/engine/engine.js';
import { addWallet } from '../../src/engine/wallets.js';
import { createTag } from '../../src/engine/tags.js';
import { getTransaction, listTransactions } from '../../src/engine/transactions.js';
import { importRecords } from '../../src/engine/imports.js';
import type { ImportRecord } from '../../src/importers/types.js';

const ADDRESS = '0x1234567890abcdef1234567890abcdef12345678';
const USDC = { symbol: 'USDC', address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', decimals: 6 };
/** Above the import's threshold for rebuilding indexes (10,000 rows). */
const N = 12_000;

let engine: Engine;
let ws: string;
let dir: string;
let wallet: string;

function open(tier: 'free' | 'enterprise') {
  ({ engine, ws, dir } = tempEngine(tier));
  wallet = addWallet(engine, ws, { address: ADDRESS, chain: 'ethereum', label: 'Main' }).id;
}
beforeEach(() => open('enterprise'));
afterEach(() => engine.close());

/** Rows `from`…`from + n - 1`: half of them tagged, some with notes, both directions. */
function records(from: number, n: number): ImportRecord[] {
  return Array.from({ length: n }, (_, k): ImportRecord => {
    const i = from + k;
    return {
      line: k + 1,
      tx_hash: `0x${i.toString(16).padStart(64, '0')}`,
      from_address: '0x9999999999999999999999999999999999999999',
      to_address: ADDRESS,
      token: USDC,
      amount: `${i}.25`,
      fiat_value: `${i}.25`,
      direction: i % 3 ? 'inflow' : 'outflow',
      type: 'transfer',
      timestamp: 1_700_000_000 + i * 60,
      notes: i % 7 ? null : `note ${i}`,
      tags: i % 2 ? [{ name: i % 4 === 1 ? 'Salary' : 'Gas fees', type: 'income' }] : [],
    };
  });
}

const importRows = (rows: ImportRecord[], dryRun = false) => importRecords(engine, ws, rows, { walletId: wallet, format: 'test', dryRun });
const count = (sql: string) => (engine.db.prepare(sql).get() as { n: number }).n;
/** The indexes of the tables an import fills, with the sqlite_schema rowid each has (a rebuilt one gets a new one). */
const indexes = () =>
  engine.db
    .prepare("SELECT rowid, name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name IN ('transactions', 'transaction_tags', 'events') ORDER BY name")
    .all() as { rowid: number; name: string; sql: string | null }[];
const definitions = (list: ReturnType<typeof indexes>) => list.map(({ name, sql }) => ({ name, sql }));

describe('a large import into a small ledger', () => {
  it('builds the indexes again at its end: the same indexes, a consistent file, the same rows, events and counts', () => {
    const before = indexes();
    expect(importRows(records(0, N))).toMatchObject({ imported: N, duplicates: 0 });
    const after = indexes();
    expect(definitions(after)).toEqual(definitions(before));
    expect(after.find((i) => i.name === 'tx_by_time')!.rowid).toBeGreaterThan(before.find((i) => i.name === 'tx_by_time')!.rowid);
    expect(engine.db.pragma('integrity_check', { simple: true })).toBe('ok');

    expect(count('SELECT count(*) AS n FROM transactions')).toBe(N);
    expect(count('SELECT count(*) AS n FROM transactions WHERE tag_count = 1')).toBe(N / 2);
    expect(count('SELECT count(*) AS n FROM transaction_tags')).toBe(N / 2);
    const top = listTransactions(engine, ws, { sort: 'amount_desc', direction: 'outflow', limit: '2' });
    expect(top.data.map((t) => t.amount)).toEqual([`${N - 3}.25`, `${N - 6}.25`]);
    expect(top.pagination.total).toBe(N / 3);

    // One transaction.created per row, byte for byte the envelope and the Transaction as the API shows it.
    const events = engine.db.prepare("SELECT id, subject_id, created_at, payload FROM events WHERE type = 'transaction.created' ORDER BY seq").all() as {
      id: string;
      subject_id: string;
      created_at: string;
      payload: string;
    }[];
    expect(events).toHaveLength(N);
    expect(events.map((e) => e.id)).toEqual(events.map((e) => e.id).sort());
    for (const e of events.filter((_, i) => i % 997 === 0)) {
      const transaction = getTransaction(engine, ws, e.subject_id);
      expect(e.payload).toBe(
        JSON.stringify({ event: 'transaction.created', event_id: e.id, created_at: e.created_at, workspace_id: ws, actor: 'cli', transaction }),
      );
    }
  });

  it('sorts the rebuilt indexes with temporary files on disk, so their keys are not all held in memory', () => {
    // 1: on disk (2 would hold every key, docs/storage.md "Opening").
    const seen = tempStoreAtCreate(engine.db);
    importRows(records(0, N));
    expect(seen.length).toBeGreaterThan(5);
    expect(new Set(seen)).toEqual(new Set([1]));
    expect(engine.db.pragma('temp_store', { simple: true })).toBe(2);
  });

  it('re-importing, or importing fewer rows than the ledger holds, inserts into the indexes as they are', () => {
    importRows(records(0, N));
    const built = indexes();
    expect(importRows(records(0, N))).toMatchObject({ imported: 0, duplicates: N });
    expect(importRows(records(N, 10_000))).toMatchObject({ imported: 10_000, duplicates: 0 });
    expect(indexes()).toEqual(built);
    expect(count('SELECT count(*) AS n FROM transactions')).toBe(N + 10_000);
    expect(count("SELECT count(*) AS n FROM events WHERE type = 'transaction.created'")).toBe(N + 10_000);
    expect(engine.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('a dry run, and an import that fails after its rows are written, leave rows, events and indexes as they were', () => {
    engine.close();
    open('free');
    const before = indexes();
    expect(importRows(records(0, N), true)).toMatchObject({ imported: N, dry_run: true });
    expect(indexes()).toEqual(before);
    for (let i = 0; i < 100; i++) createTag(engine, ws, { name: `t${i}`, type: 'neutral' });
    const events = count('SELECT count(*) AS n FROM events');
    // The rows' tags are created after the rows are inserted; the tier allows no more.
    expect(txaErrorOf(() => importRows(records(0, N))).code).toBe('TAG_LIMIT_EXCEEDED');
    expect(indexes()).toEqual(before);
    expect([count('SELECT count(*) AS n FROM transactions'), count('SELECT count(*) AS n FROM events')]).toEqual([0, events]);
    expect(engine.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('a reader in another process keeps working and sees the ledger only before or after the import', async () => {
    // Polls with one prepared statement that reads through tx_by_time until its stdin closes.
    const reader = `
      const db = new (require('better-sqlite3'))(process.argv[1], { timeout: 15000 });
      const query = db.prepare('SELECT count(*) AS n FROM transactions WHERE workspace_id = ? AND ts >= 0');
      const seen = new Set();
      const errors = [];
      let stop = false;
      const read = () => { try { seen.add(query.get(process.argv[2]).n); } catch (e) { errors.push(e.message); } };
      process.stdin.on('end', () => { stop = true; }).resume();
      const tick = () => {
        read();
        if (!stop) return setTimeout(tick, 1);
        read();
        process.stdout.write(JSON.stringify({ errors, seen: [...seen].sort((a, b) => a - b) }));
      };
      tick();
      process.stdout.write('reading\\n');`;
    const child = spawn(process.execPath, ['-e', reader, join(dir, 'ledger.db'), ws], {
      cwd: resolve(import.meta.dirname, '../..'),
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    while (!out.includes('reading\n')) await once(child.stdout, 'data');
    await new Promise((r) => setTimeout(r, 50));
    importRows(records(0, N));
    await new Promise((r) => setTimeout(r, 50));
    child.stdin.end();
    await once(child, 'exit');
    expect(JSON.parse(out.slice(out.indexOf('\n') + 1))).toEqual({ errors: [], seen: [0, N] });
  });
});
