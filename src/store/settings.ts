/** Ledger-wide settings and the workspaces' own secrets, each created on first use. */
import type { Db } from './db.js';
import { prepareCached } from './statements.js';

/** The stored value of `key`, storing `initial` first when there is none (INSERT OR IGNORE keeps concurrent first uses consistent). */
export function settingOrInit(db: Db, key: string, initial: string): string {
  prepareCached(db, 'INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)').run(key, initial);
  return prepareCached(db, 'SELECT value FROM settings WHERE key = ?').pluck().get(key) as string;
}

/** The workspace's own webhook secret, storing `initial` first when it has none. */
export function workspaceSecretOrInit(db: Db, workspaceId: string, initial: string): string {
  prepareCached(db, 'INSERT OR IGNORE INTO workspace_secrets (workspace_id, webhook_secret) VALUES (?, ?)').run(workspaceId, initial);
  return prepareCached(db, 'SELECT webhook_secret FROM workspace_secrets WHERE workspace_id = ?').pluck().get(workspaceId) as string;
}
