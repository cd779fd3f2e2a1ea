/**
 * Migration 27 (docs/server.md "Teams") on a ledger made before members: every workspace gets one
 * `admin` member named `owner`, every existing key becomes that member's and acts as an admin.
 */
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { Engine } from '../../src/engine/engine.js';
import { verifyKey } from '../../src/engine/keys.js';
import { listMembers } from '../../src/engine/members.js';

describe('migration 27: members', () => {
  it('gives each workspace an owner admin and each existing key to it', () => {
    const at = MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE members'));
    const path = join(mkdtempSync(join(tmpdir(), 'txa-mig-')), 'before-members.db');
    const old = new Database(path);
    for (const m of MIGRATIONS.slice(0, at)) old.exec(m);
    old.pragma('application_id = 0x54584131');
    old.pragma(`user_version = ${at}`);
    const key = `txa_live_${'a'.repeat(32)}`;
    const hash = createHash('sha256').update(key).digest('hex');
    old.exec(`
      INSERT INTO workspaces (id, name, tier, base_currency, created_at) VALUES ('ws_a', 'A', 'free', 'USD', '2024-01-01T00:00:00Z'),
        ('ws_b', 'B', 'pro', 'USD', '2024-02-01T00:00:00Z');
      INSERT INTO api_keys (id, workspace_id, name, access, key_hash, prefix, created_at) VALUES
        ('key_1', 'ws_a', 'ci', 'read', '${hash}', 'txa_live_aaaa', '2024-03-01T00:00:00Z'),
        ('key_2', 'ws_a', NULL, 'full', '${'0'.repeat(64)}', 'txa_live_0000', '2024-03-02T00:00:00Z');
    `);
    old.close();
    const engine = Engine.open(path);
    try {
      const a = listMembers(engine, 'ws_a');
      const b = listMembers(engine, 'ws_b');
      expect(a.map((m) => [m.name, m.email, m.role, m.created_at])).toEqual([['owner', null, 'admin', '2024-01-01T00:00:00Z']]);
      expect(b.map((m) => [m.name, m.role])).toEqual([['owner', 'admin']]);
      expect(a[0]!.id).toMatch(/^mem_[0-9a-f]{20}$/);
      expect(engine.db.prepare('SELECT id, member_id FROM api_keys ORDER BY id').all()).toEqual([
        { id: 'key_1', member_id: a[0]!.id },
        { id: 'key_2', member_id: a[0]!.id },
      ]);
      // The key keeps its own level and acts as its member, an admin.
      expect(verifyKey(engine, key)).toEqual({ keyId: 'key_1', workspaceId: 'ws_a', access: 'read', memberId: a[0]!.id, role: 'admin' });
    } finally {
      engine.close();
    }
  });
});
