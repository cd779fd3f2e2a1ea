/** Members and invitations of a workspace (docs/server.md "Teams"). */
import type { Db } from './db.js';
import { prepareCached } from './statements.js';

export interface MemberRow {
  id: string;
  workspace_id: string;
  email: string | null;
  name: string | null;
  role: string;
  created_at: string;
  updated_at: string | null;
  removed_at: string | null;
}

export interface InvitationRow {
  id: string;
  workspace_id: string;
  email: string;
  role: string;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  revoked_at: string | null;
  member_id: string | null;
}

const MEMBER_COLUMNS = 'id, workspace_id, email, name, role, created_at, updated_at, removed_at';
const INVITATION_COLUMNS = 'id, workspace_id, email, role, invited_by, created_at, expires_at, accepted_at, revoked_at, member_id';

export function insertMember(db: Db, m: MemberRow): void {
  prepareCached(db, `INSERT INTO members (${MEMBER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`).run(
    m.id,
    m.workspace_id,
    m.email,
    m.name,
    m.role,
    m.created_at,
    m.updated_at,
    m.removed_at,
  );
}

/** The workspace's members that are not removed, oldest first. */
export function listActiveMembers(db: Db, workspaceId: string): MemberRow[] {
  return prepareCached(db, `SELECT ${MEMBER_COLUMNS} FROM members WHERE workspace_id = ? AND removed_at IS NULL ORDER BY created_at, rowid`).all(
    workspaceId,
  ) as MemberRow[];
}

/** A member of the workspace, removed ones included (their histories stay). */
export function memberById(db: Db, workspaceId: string, id: string): MemberRow | undefined {
  return prepareCached(db, `SELECT ${MEMBER_COLUMNS} FROM members WHERE id = ? AND workspace_id = ?`).get(id, workspaceId) as MemberRow | undefined;
}

export function activeMemberByEmail(db: Db, workspaceId: string, email: string): MemberRow | undefined {
  return prepareCached(db, `SELECT ${MEMBER_COLUMNS} FROM members WHERE workspace_id = ? AND email = ? AND removed_at IS NULL`).get(workspaceId, email) as
    | MemberRow
    | undefined;
}

/** Who keys made on the ledger itself belong to: the `owner` member, else the oldest admin left. */
export function ownerMember(db: Db, workspaceId: string): MemberRow | undefined {
  return prepareCached(
    db,
    `SELECT ${MEMBER_COLUMNS} FROM members WHERE workspace_id = ? AND removed_at IS NULL AND role = 'admin'
     ORDER BY (name = 'owner' AND email IS NULL) DESC, created_at, rowid LIMIT 1`,
  ).get(workspaceId) as MemberRow | undefined;
}

export function countActiveAdmins(db: Db, workspaceId: string): number {
  return (
    prepareCached(db, "SELECT count(*) AS n FROM members WHERE workspace_id = ? AND removed_at IS NULL AND role = 'admin'").get(workspaceId) as {
      n: number;
    }
  ).n;
}

export function updateMemberRole(db: Db, id: string, role: string, at: string): void {
  prepareCached(db, 'UPDATE members SET role = ?, updated_at = ? WHERE id = ?').run(role, at, id);
}

export function markMemberRemoved(db: Db, id: string, at: string): void {
  prepareCached(db, 'UPDATE members SET removed_at = ?, updated_at = ? WHERE id = ? AND removed_at IS NULL').run(at, at, id);
}

/** Revokes every live key of a member; answers how many. */
export function revokeMemberKeys(db: Db, memberId: string, at: string): number {
  return Number(prepareCached(db, 'UPDATE api_keys SET revoked_at = ? WHERE member_id = ? AND revoked_at IS NULL').run(at, memberId).changes);
}

export function insertInvitation(db: Db, inv: InvitationRow, tokenHash: string): void {
  prepareCached(db, `INSERT INTO invitations (${INVITATION_COLUMNS}, token_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
    inv.id,
    inv.workspace_id,
    inv.email,
    inv.role,
    inv.invited_by,
    inv.created_at,
    inv.expires_at,
    inv.accepted_at,
    inv.revoked_at,
    inv.member_id,
    tokenHash,
  );
}

/** Every invitation of the workspace, newest first. */
export function listInvitationRows(db: Db, workspaceId: string): InvitationRow[] {
  return prepareCached(db, `SELECT ${INVITATION_COLUMNS} FROM invitations WHERE workspace_id = ? ORDER BY created_at DESC, rowid DESC`).all(
    workspaceId,
  ) as InvitationRow[];
}

export function invitationById(db: Db, workspaceId: string, id: string): InvitationRow | undefined {
  return prepareCached(db, `SELECT ${INVITATION_COLUMNS} FROM invitations WHERE id = ? AND workspace_id = ?`).get(id, workspaceId) as InvitationRow | undefined;
}

export function invitationByTokenHash(db: Db, tokenHash: string): (InvitationRow & { token_hash: string }) | undefined {
  return prepareCached(db, `SELECT ${INVITATION_COLUMNS}, token_hash FROM invitations WHERE token_hash = ?`).get(tokenHash) as
    | (InvitationRow & { token_hash: string })
    | undefined;
}

/** The address's invitations neither accepted nor revoked (an expired one among them: the caller reads the time). */
export function openInvitationsFor(db: Db, workspaceId: string, email: string): InvitationRow[] {
  return prepareCached(
    db,
    `SELECT ${INVITATION_COLUMNS} FROM invitations WHERE workspace_id = ? AND email = ? AND accepted_at IS NULL AND revoked_at IS NULL`,
  ).all(workspaceId, email) as InvitationRow[];
}

/** Marks a pending invitation accepted; answers false when another request got there first. */
export function markInvitationAccepted(db: Db, id: string, at: string, memberId: string): boolean {
  return (
    prepareCached(db, 'UPDATE invitations SET accepted_at = ?, member_id = ? WHERE id = ? AND accepted_at IS NULL AND revoked_at IS NULL').run(at, memberId, id)
      .changes === 1
  );
}

export function markInvitationRevoked(db: Db, id: string, at: string): void {
  prepareCached(db, 'UPDATE invitations SET revoked_at = ? WHERE id = ? AND accepted_at IS NULL AND revoked_at IS NULL').run(at, id);
}
