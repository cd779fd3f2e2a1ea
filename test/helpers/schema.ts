/** Turning a ledger file back to an older schema, for tests of the migrations that upgrade it. */
import type Database from 'better-sqlite3';
import { SCHEMA_VERSION } from '../../src/store/db.js';
import { MIGRATIONS } from '../../src/store/migrations.js';

type Undo = (raw: Database.Database) => void;

/** How to undo each migration from 16 on, by the schema version it brings a ledger to. */
const UNDO: Record<number, Undo> = {
  // The tag rollups, their triggers and the tags' usage counts.
  16: (raw) => {
    for (const t of [
      'tag_rollup_link_added',
      'tag_rollup_link_removed',
      'tag_rollup_tag_deleted',
      'tag_rollup_value_changed',
      'tag_usage_added',
      'tag_usage_removed',
    ]) {
      raw.exec(`DROP TRIGGER ${t}`);
    }
    raw.exec('DROP TABLE tag_rollup_daily; ALTER TABLE tags DROP COLUMN usage_count');
  },
  // The index of a token's rows by address.
  17: (raw) => raw.exec('DROP INDEX tx_by_token_address'),
  // Who asked for a served sync.
  18: (raw) => raw.exec('ALTER TABLE wallet_syncs DROP COLUMN requested_by'),
  // The reverted hashes a sync keeps, and a served sync's attempts.
  19: (raw) => raw.exec('DROP TABLE sync_failed_txs; ALTER TABLE wallet_syncs DROP COLUMN attempts'),
  // Closed periods, and the guard's triggers made from them.
  20: (raw) => {
    for (const t of raw.prepare("SELECT name FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'period_guard_%'").pluck().all() as string[]) {
      raw.exec(`DROP TRIGGER ${t}`);
    }
    raw.exec('DROP TABLE period_records');
  },
  // The lots' recorded allocation and the picks of specific identification.
  21: (raw) => raw.exec('DROP TABLE lot_picks; DROP TABLE lot_allocation_lines; DROP TABLE lot_allocations'),
  // Where a row stands in its chain.
  22: (raw) => raw.exec('ALTER TABLE transactions DROP COLUMN block; ALTER TABLE transactions DROP COLUMN block_position'),
  // Opening lots. Keyed by where the migration sits in the list, like the exchange wallets' below.
  [MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE opening_lots')) + 1]: (raw) => raw.exec('DROP TABLE opening_lots'),
  // The workspaces' jurisdiction.
  [MIGRATIONS.findIndex((m) => m.includes('ADD COLUMN jurisdiction')) + 1]: (raw) => raw.exec('ALTER TABLE workspaces DROP COLUMN jurisdiction'),
  // A broker's 1099-DA lines.
  [MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE broker_lines')) + 1]: (raw) => raw.exec('DROP TABLE broker_lines'),
  // Members and invitations; the keys' member.
  [MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE members')) + 1]: (raw) =>
    raw.exec('DROP INDEX api_keys_by_member; ALTER TABLE api_keys DROP COLUMN member_id; DROP TABLE invitations; DROP TABLE members'),
  // Scheduled reports.
  [MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE schedules')) + 1]: (raw) => raw.exec('DROP TABLE schedule_runs; DROP TABLE schedules'),
  // The ECB's reference rates, and where a rate came from.
  [MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE fx_reference')) + 1]: (raw) =>
    raw.exec('DROP TABLE fx_reference; DROP TABLE fx_coverage; ALTER TABLE rates DROP COLUMN source; ALTER TABLE rates DROP COLUMN published_day'),
  // The covering index of the free rows that proposals walk.
  [MIGRATIONS.findIndex((m) => m.includes('CREATE INDEX tx_free_legs')) + 1]: (raw) => raw.exec('DROP INDEX tx_free_legs'),
  // The addresses xpub wallets' syncs derived.
  [MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE xpub_addresses')) + 1]: (raw) => raw.exec('DROP TABLE xpub_addresses'),
  // The rows' digest hashes, their index and the triggers that clear them.
  [MIGRATIONS.findIndex((m) => m.includes('ADD COLUMN row_hash')) + 1]: (raw) => {
    const triggers = raw.prepare("SELECT name FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'row\\_hash\\_%' ESCAPE '\\'").pluck().all() as string[];
    for (const t of triggers) raw.exec(`DROP TRIGGER ${t}`);
    raw.exec('DROP INDEX tx_row_hashes; ALTER TABLE transactions DROP COLUMN row_hash');
  },
  // The guarded row_hash_changed and row_hash_leg_changed: back to migration 32's one trigger.
  [MIGRATIONS.findIndex((m) => m.includes('CREATE TRIGGER row_hash_leg_changed')) + 1]: (raw) => {
    const first = MIGRATIONS.find((m) => m.includes('ADD COLUMN row_hash'))!;
    raw.exec(`DROP TRIGGER row_hash_changed; DROP TRIGGER row_hash_leg_changed; ${/CREATE TRIGGER row_hash_changed [\s\S]*?END;/.exec(first)![0]}`);
  },
  // Exchange wallets: the wallets' kind and exchange, the transfers' kind `exchange`, the index of
  // exchange rows by hash. Keyed by where the migration sits in the list (helpers merge theirs in).
  [MIGRATIONS.findIndex((m) => m.includes('ADD COLUMN kind')) + 1]: (raw) => {
    raw.exec(`
      DROP INDEX tx_exchange_hash;
      ALTER TABLE wallets DROP COLUMN kind;
      ALTER TABLE wallets DROP COLUMN exchange;
      DROP TRIGGER transfer_leg_deleted;
      CREATE TABLE transfers_old (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('internal', 'bridge')),
        matched_by TEXT NOT NULL CHECK (matched_by IN ('auto', 'user', 'rule')),
        created_at TEXT NOT NULL
      );
      INSERT INTO transfers_old SELECT * FROM transfers;
      DROP TABLE transfers;
      ALTER TABLE transfers_old RENAME TO transfers;
      CREATE INDEX transfers_by_workspace ON transfers (workspace_id, created_at);
      CREATE TRIGGER transfer_leg_deleted AFTER DELETE ON transactions WHEN OLD.transfer_id IS NOT NULL BEGIN
        UPDATE transactions SET transfer_id = NULL WHERE transfer_id = OLD.transfer_id;
        DELETE FROM transfers WHERE id = OLD.transfer_id;
      END;`);
  },
};

/**
 * Undoes the migrations after `version`, newest first (15 at the lowest; older ones each test
 * undoes itself). A new migration needs its step in UNDO, or the tests that re-run it say so.
 */
export function undoMigrationsAfter(raw: Database.Database, version: number): void {
  for (let v = SCHEMA_VERSION; v > version; v--) {
    const undo = UNDO[v];
    if (!undo) throw new Error(`test/helpers/schema.ts has no undo step for migration ${v}`);
    undo(raw);
  }
}
