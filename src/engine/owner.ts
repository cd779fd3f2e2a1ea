/**
 * The `owner` member of a workspace (docs/server.md "Teams"): the admin the local user is, whom
 * the keys made on the ledger itself (`txa keys create`) belong to. Migration 27 made one for
 * every workspace there was; a workspace made since gets one when it is created, and one made
 * some other way (a test's insert) when it first needs it.
 */
import type { Engine } from './engine.js';
import { newId } from '../core/ids.js';
import { nowIso } from '../core/clock.js';
import { insertMember, ownerMember, type MemberRow } from '../store/members.js';

/** The owner (else the oldest admin left), made when the workspace has no admin at all. Call inside a write. */
export function ensureOwner(engine: Engine, workspaceId: string): MemberRow {
  const found = ownerMember(engine.db, workspaceId);
  if (found) return found;
  const row: MemberRow = {
    id: newId('mem'),
    workspace_id: workspaceId,
    email: null,
    name: 'owner',
    role: 'admin',
    created_at: nowIso(),
    updated_at: null,
    removed_at: null,
  };
  insertMember(engine.db, row);
  return row;
}
