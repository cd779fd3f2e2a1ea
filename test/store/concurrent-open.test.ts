/**
 * Opening a new ledger while other processes create it too: creation and migration are
 * serialized, and a peer's migration committing at any moment never makes the file look like
 * another program's database.
 */
import { describe, expect, it, vi } from 'vitest';
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { openDb, SCHEMA_VERSION } from '../../src/store/db.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** Takes the write lock of a new file in rollback mode, says so, holds it for half a second. */
const PEER_HOLDING_LOCK = `
  const db = new (require('better-sqlite3'))(process.argv[1]);
  db.exec('BEGIN IMMEDIATE; CREATE TABLE peer (a)');
  process.stdout.write('locked\\n');
  setTimeout(() => db.exec('ROLLBACK'), 500);`;

describe('opening a new ledger concurrently', () => {
  it("a peer creating the ledger between two of the opener's reads of its header does not make it look foreign", () => {
    const path = join(mkdtempSync(join(tmpdir(), 'txa-open-')), 'new.db');
    // The interleaving, made certain: right after the opener's first header read, a peer opens
    // (creates and migrates) the same file and commits.
    const pragma = Database.prototype.pragma;
    let peerDone = false;
    const spy = vi.spyOn(Database.prototype, 'pragma').mockImplementation(function (this: Database.Database, ...args: Parameters<typeof pragma>) {
      const result = pragma.apply(this, args);
      if (!peerDone && args[0] === 'application_id') {
        peerDone = true;
        openDb(path).close();
      }
      return result;
    });
    try {
      const db = openDb(path);
      expect(peerDone).toBe(true);
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      db.close();
    } finally {
      spy.mockRestore();
    }
  });

  it('a peer holding the write lock of the new file while the opener switches it to WAL: the opener waits', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'txa-open-')), 'new.db');
    // Another process that opened the file first, still in rollback mode, mid-transaction.
    const peer = spawn(process.execPath, ['-e', PEER_HOLDING_LOCK, path], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    await once(peer.stdout, 'data');
    const db = openDb(path);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    await once(peer, 'exit');
  });

  it('8 processes creating the same new ledger, 5 rounds (more in bench/ledger-create-stress.mjs): every one succeeds and every workspace is there', async () => {
    // The compiled engine (`npm test` builds dist first): a process per opener, as with the CLI.
    const create = `
      const { Engine } = await import('./dist/engine/engine.js');
      const { createWorkspace } = await import('./dist/engine/workspaces.js');
      const engine = Engine.open(process.argv[1]);
      createWorkspace(engine, { name: 'w' + process.argv[2] });
      engine.close();`;
    for (let round = 0; round < 5; round++) {
      const path = join(mkdtempSync(join(tmpdir(), 'txa-open-')), 'new.db');
      const runs = await Promise.all(
        Array.from({ length: 8 }, (_, i) => execa(process.execPath, ['--input-type=module', '-e', create, path, String(i)], { cwd: ROOT, reject: false })),
      );
      expect(runs.map((r) => r.stderr).filter(Boolean)).toEqual([]);
      const db = openDb(path);
      expect(db.prepare('SELECT count(*) FROM workspaces').pluck().get()).toBe(8);
      db.close();
    }
  }, 120_000);
});
