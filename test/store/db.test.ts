import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, SCHEMA_VERSION } from '../../src/store/db.js';
import { MIGRATIONS } from '../../src/store/migrations.js';

describe('migrations', () => {
  it('upgrades an older ledger in place, keeping its data', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'txa-mig-')), 'old.db');
    const old = new Database(path);
    old.exec(MIGRATIONS[0]!);
    old.pragma('application_id = 0x54584131');
    old.pragma('user_version = 1');
    old.prepare("INSERT INTO workspaces VALUES ('ws_old', 'Old', 'free', 'EUR', NULL, '2024-01-01T00:00:00Z')").run();
    old.close();
    const db = openDb(path);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.prepare('SELECT name, base_currency FROM workspaces').all()).toEqual([{ name: 'Old', base_currency: 'EUR' }]);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });
});
