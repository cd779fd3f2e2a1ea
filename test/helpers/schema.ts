/** Turning a ledger file back to an older schema, for tests of the migrations that upgrade it. */
import type Database from 'better-sqlite3';

/** Undoes migration 16: the tag rollups, their triggers and the tags' usage counts. */
export function undoTagRollups(raw: Database.Database): void {
  for (const t of ['tag_rollup_link_added', 'tag_rollup_link_removed', 'tag_rollup_tag_deleted', 'tag_rollup_value_changed', 'tag_usage_added', 'tag_usage_removed']) {
    raw.exec(`DROP TRIGGER ${t}`);
  }
  raw.exec('DROP TABLE tag_rollup_daily; ALTER TABLE tags DROP COLUMN usage_count');
}

/** Undoes migration 17: the index of a token's rows by address. */
export function undoTokenAddressIndex(raw: Database.Database): void {
  raw.exec('DROP INDEX tx_by_token_address');
}
