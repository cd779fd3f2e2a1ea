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

  it('counts the tags and attachments of an older ledger, then keeps the counts with every link change', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'txa-mig-')), 'v5.db');
    const old = new Database(path);
    for (const m of MIGRATIONS.slice(0, 5)) old.exec(m);
    old.pragma('application_id = 0x54584131');
    old.pragma('user_version = 5');
    old.exec(`
      INSERT INTO workspaces VALUES ('ws', 'W', 'free', 'USD', NULL, '2024-01-01T00:00:00Z');
      INSERT INTO wallets (id, workspace_id, address, chain, label, created_at) VALUES ('w', 'ws', '0xa', 'ethereum', 'W', '2024-01-01T00:00:00Z');
      INSERT INTO tags (id, workspace_id, name, name_key, type, color, created_by, created_at) VALUES
        ('g1', 'ws', 'A', 'a', 'income', '#000000', 'cli', '2024-01-01T00:00:00Z'), ('g2', 'ws', 'B', 'b', 'income', '#000000', 'cli', '2024-01-01T00:00:00Z');
    `);
    const tx = old.prepare(`INSERT INTO transactions (id, workspace_id, wallet_id, chain, tx_hash, transfer_key, from_address, to_address, token_symbol,
      token_decimals, amount, amount_key, direction, type, ts, created_at) VALUES (?, 'ws', 'w', 'ethereum', ?, '0', '0xa', '0xb', 'ETH', 18, '1', '1', 'inflow', 'transfer', 0, 0)`);
    for (const id of ['t1', 't2', 't3']) tx.run(id, id);
    old.exec(`
      INSERT INTO transaction_tags VALUES ('t1', 'g1'), ('t1', 'g2'), ('t2', 'g2');
      INSERT INTO attachments VALUES ('a1', 't2', 'r.pdf', 'application/pdf', 1, 'x', 'a1', '2024-01-01T00:00:00Z');
    `);
    old.close();
    const db = openDb(path);
    const counts = () => db.prepare('SELECT id, tag_count AS tags, attachment_count AS files FROM transactions ORDER BY id').all();
    expect(counts()).toEqual([
      { id: 't1', tags: 2, files: 0 },
      { id: 't2', tags: 1, files: 1 },
      { id: 't3', tags: 0, files: 0 },
    ]);
    db.exec(`
      INSERT INTO transaction_tags VALUES ('t3', 'g1');
      DELETE FROM tags WHERE id = 'g2';
      DELETE FROM attachments WHERE id = 'a1';
      INSERT INTO attachments VALUES ('a2', 't3', 'r.pdf', 'application/pdf', 1, 'x', 'a2', '2024-01-01T00:00:00Z');
    `);
    expect(counts()).toEqual([
      { id: 't1', tags: 1, files: 0 },
      { id: 't2', tags: 0, files: 0 },
      { id: 't3', tags: 1, files: 1 },
    ]);
    db.close();
  });

  it('gives the values of an older ledger the source import (none without a value), no transfer, not spam', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'txa-mig-')), 'v6.db');
    const old = new Database(path);
    for (const m of MIGRATIONS.slice(0, 6)) old.exec(m);
    old.pragma('application_id = 0x54584131');
    old.pragma('user_version = 6');
    old.exec(`
      INSERT INTO workspaces VALUES ('ws', 'W', 'free', 'USD', NULL, '2024-01-01T00:00:00Z');
      INSERT INTO wallets (id, workspace_id, address, chain, label, created_at) VALUES ('w', 'ws', '0xa', 'ethereum', 'W', '2024-01-01T00:00:00Z');
    `);
    const tx = old.prepare(`INSERT INTO transactions (id, workspace_id, wallet_id, chain, tx_hash, transfer_key, from_address, to_address, token_symbol,
      token_decimals, amount, amount_key, fiat_cents, direction, type, ts, created_at) VALUES (?, 'ws', 'w', 'ethereum', ?, '0', '0xa', '0xb', 'ETH', 18, '1', '1', ?, 'inflow', 'transfer', 0, 0)`);
    tx.run('t1', 't1', 1250);
    tx.run('t2', 't2', null);
    old.close();
    const db = openDb(path);
    expect(db.prepare('SELECT id, fiat_value_source, spam, transfer_id FROM transactions ORDER BY id').all()).toEqual([
      { id: 't1', fiat_value_source: 'import', spam: 0, transfer_id: null },
      { id: 't2', fiat_value_source: null, spam: 0, transfer_id: null },
    ]);
    db.close();
  });

  it('keeps the exports of an older ledger when the table is rebuilt for journal formats', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'txa-mig-')), 'v6.db');
    const old = new Database(path);
    for (const m of MIGRATIONS.slice(0, 6)) old.exec(m);
    old.pragma('application_id = 0x54584131');
    old.pragma('user_version = 6');
    const row = (id: string, format: string) =>
      `INSERT INTO exports (id, workspace_id, status, format, request, delivery, created_at, created_ts, expires_at, expires_ts)
       VALUES ('${id}', 'ws', 'completed', '${format}', '{}', '{}', '2024-01-01T00:00:00Z', 1, '2024-01-02T00:00:00Z', 2)`;
    old.exec(`INSERT INTO workspaces VALUES ('ws', 'W', 'free', 'USD', NULL, '2024-01-01T00:00:00Z'); ${row('exp_old', 'pdf')}`);
    expect(() => old.exec(row('exp_journal', 'ledger'))).toThrow(/CHECK/);
    old.close();
    const db = openDb(path);
    db.exec(row('exp_journal', 'ledger'));
    db.exec(row('exp_bean', 'beancount'));
    expect(db.prepare('SELECT id, format FROM exports ORDER BY created_ts, rowid').all()).toEqual([
      { id: 'exp_old', format: 'pdf' },
      { id: 'exp_journal', format: 'ledger' },
      { id: 'exp_bean', format: 'beancount' },
    ]);
    expect(() => db.exec(row('exp_xml', 'xml'))).toThrow(/CHECK/);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'exports' AND sql IS NOT NULL ORDER BY name").pluck().all()).toEqual([
      'exports_by_status',
      'exports_by_workspace',
    ]);
    db.close();
  });
});

describe('migration 24: exchange wallets', () => {
  it("keeps an older ledger's wallets (kind address) and transfers, which may then be of kind exchange", () => {
    const version = MIGRATIONS.findIndex((m) => m.includes('ADD COLUMN kind')) + 1;
    const path = join(mkdtempSync(join(tmpdir(), 'txa-mig-')), 'old.db');
    const old = new Database(path);
    for (const m of MIGRATIONS.slice(0, version - 1)) old.exec(m);
    old.pragma('application_id = 0x54584131');
    old.pragma(`user_version = ${version - 1}`);
    old.prepare("INSERT INTO workspaces VALUES ('ws_old', 'Old', 'pro', 'USD', NULL, '2024-01-01T00:00:00Z')").run();
    old.prepare("INSERT INTO wallets (id, workspace_id, address, chain, label, created_at) VALUES ('wal_old', 'ws_old', '0xab', 'ethereum', 'Old', 'x')").run();
    old.prepare("INSERT INTO transfers VALUES ('trf_old', 'ws_old', 'bridge', 'user', '2024-01-02T00:00:00Z')").run();
    old.close();
    const db = openDb(path);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.prepare('SELECT id, kind, exchange, chain FROM wallets').all()).toEqual([
        { id: 'wal_old', kind: 'address', exchange: null, chain: 'ethereum' },
      ]);
      expect(db.prepare('SELECT id, kind, matched_by FROM transfers').all()).toEqual([{ id: 'trf_old', kind: 'bridge', matched_by: 'user' }]);
      db.prepare("INSERT INTO transfers VALUES ('trf_new', 'ws_old', 'exchange', 'auto', '2024-02-01T00:00:00Z')").run();
      expect(() => db.prepare("INSERT INTO transfers VALUES ('trf_bad', 'ws_old', 'teleport', 'auto', 'x')").run()).toThrow(/CHECK/);
      expect(() => db.prepare("UPDATE wallets SET kind = 'vault'").run()).toThrow(/CHECK/);
      // The trigger that ends a transfer with a deleted leg is back on the rebuilt table.
      expect(db.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'trigger' AND name = 'transfer_leg_deleted'").pluck().get()).toBe(1);
    } finally {
      db.close();
    }
  });
});
