/**
 * Members and invitations (docs/server.md "Teams"). An invitation is a one-time token valid 7
 * days (by the engine's clock, TXA_NOW in tests), stored as a hash and e-mailed through the SMTP
 * server exports use; accepting it with the address it was sent to makes the member and its first
 * key. The last admin can be neither removed nor demoted, so a workspace always has one. Every
 * change is one write with its event (member.invited, member.joined, member.updated, member.removed).
 */
import type { Engine } from './engine.js';
import { TxaError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { isoSeconds, nowIso, nowSeconds } from '../core/clock.js';
import { validateBody } from '../core/validate.js';
import {
  INVITATION_TTL_SECONDS,
  ROLE_LABELS,
  invitationAcceptSchema,
  memberInviteSchema,
  memberUpdateSchema,
  parseEmail,
  parseRole,
  type Invitation,
  type InvitationAccepted,
  type InvitationSent,
  type InvitationState,
  type Member,
  type MemberRemoved,
  type Role,
} from '../core/members.js';
import {
  activeMemberByEmail,
  countActiveAdmins,
  insertInvitation,
  insertMember,
  invitationById,
  invitationByTokenHash,
  listActiveMembers,
  listInvitationRows,
  markInvitationAccepted,
  markInvitationRevoked,
  markMemberRemoved,
  memberById,
  openInvitationsFor,
  revokeMemberKeys,
  updateMemberRole,
  type InvitationRow,
  type MemberRow,
} from '../store/members.js';
import { createKey, hashKey, randomToken } from './keys.js';
import { sendEmail, smtpUrl } from '../exporters/deliver-email.js';

const TOKEN_PREFIX = 'txa_inv_';

function toMember(r: MemberRow): Member {
  return { ...r, role: r.role as Role };
}

function stateOf(r: InvitationRow, nowIsoText: string): InvitationState {
  if (r.revoked_at !== null) return 'revoked';
  if (r.accepted_at !== null) return 'accepted';
  return nowIsoText >= r.expires_at ? 'expired' : 'pending';
}

function toInvitation(r: InvitationRow, at = nowIso()): Invitation {
  return { ...r, role: r.role as Role, status: stateOf(r, at) };
}

export function listMembers(engine: Engine, ws: string): Member[] {
  engine.workspace(ws);
  return listActiveMembers(engine.db, ws).map(toMember);
}

export function listInvitations(engine: Engine, ws: string): Invitation[] {
  engine.workspace(ws);
  const at = nowIso();
  return listInvitationRows(engine.db, ws).map((r) => toInvitation(r, at));
}

function activeMember(engine: Engine, ws: string, id: string): MemberRow {
  const m = memberById(engine.db, ws, id);
  if (!m || m.removed_at !== null) throw new TxaError('MEMBER_NOT_FOUND', `member ${id} not found`, { hint: 'List members with: txa members list' });
  return m;
}

/** Refuses what would leave the workspace without an admin. */
function keepAnAdmin(engine: Engine, ws: string, m: MemberRow, what: string): void {
  if (m.role === 'admin' && countActiveAdmins(engine.db, ws) <= 1) {
    throw new TxaError('LAST_ADMIN', `member ${m.id} is the workspace's last admin and cannot be ${what}`, {
      hint: 'Make another member an admin first: txa members update ID --role admin',
    });
  }
}

/**
 * Invites an address with a role: refused for an address that is a member or has a pending
 * invitation (an expired one does not count), nothing stored then. The e-mail goes out after the
 * invitation is committed; when there is no SMTP server or it refuses, the answer says so and the
 * token in it is the way to hand the invitation over.
 */
export async function inviteMember(engine: Engine, ws: string, body: unknown): Promise<InvitationSent> {
  const input = validateBody(memberInviteSchema, body);
  const email = parseEmail(input.email);
  const role = parseRole(input.role);
  const token = TOKEN_PREFIX + randomToken();
  const created = nowSeconds();
  const row: InvitationRow = {
    id: newId('inv'),
    workspace_id: ws,
    email,
    role,
    invited_by: engine.actor,
    created_at: isoSeconds(created),
    expires_at: isoSeconds(created + INVITATION_TTL_SECONDS),
    accepted_at: null,
    revoked_at: null,
    member_id: null,
  };
  const workspace = engine.write(() => {
    const w = engine.workspace(ws);
    if (activeMemberByEmail(engine.db, ws, email)) {
      throw new TxaError('MEMBER_ALREADY_EXISTS', `${email} is a member of this workspace already`, { field: 'email' });
    }
    const pending = openInvitationsFor(engine.db, ws, email).find((r) => stateOf(r, row.created_at) === 'pending');
    if (pending) {
      throw new TxaError('INVITATION_EXISTS', `${email} has a pending invitation already (${pending.id}, valid until ${pending.expires_at})`, {
        field: 'email',
        hint: `Revoke it first to send a new one: txa members revoke-invitation ${pending.id}`,
      });
    }
    insertInvitation(engine.db, row, hashKey(token).toString('hex'));
    engine.change(ws, 'member.invited', row.id, { invitation: toInvitation(row, row.created_at) });
    return w;
  });
  const sent = await emailInvitation(engine, workspace.name, row, token);
  return { ...toInvitation(row), token, email_sent: sent === null, email_error: sent };
}

/** Sends the invitation; answers null when it went out, else why not. */
async function emailInvitation(engine: Engine, workspaceName: string, row: InvitationRow, token: string): Promise<string | null> {
  if (!smtpUrl()) return 'no SMTP server is configured (TXA_SMTP_URL)';
  const base = engine.publicBaseUrl;
  const how = [
    'To accept, run:',
    '',
    `  txa members accept ${token} --email ${row.email}${base ? ` --base-url ${base}` : ''}`,
    '',
    ...(base
      ? ['or send:', '', `  curl -X POST ${base}/api/v1/invitations/${token}/accept -H 'Content-Type: application/json' -d '{"email":"${row.email}"}'`, '']
      : []),
    'It answers with your API key, shown once: keep it.',
  ];
  try {
    await sendEmail({
      to: [row.email],
      subject: `You are invited to the txa workspace ${workspaceName} as ${ROLE_LABELS[row.role as Role]}`,
      text: [
        `You are invited to join the txa workspace "${workspaceName}" as ${ROLE_LABELS[row.role as Role]}.`,
        '',
        ...how,
        '',
        `The invitation can be used once and expires at ${row.expires_at}.`,
      ].join('\n'),
    });
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

export function updateMember(engine: Engine, ws: string, id: string, body: unknown): Member {
  const input = validateBody(memberUpdateSchema, body);
  const role = parseRole(input.role);
  return engine.write(() => {
    engine.workspace(ws);
    const before = activeMember(engine, ws, id);
    if (before.role === role) return toMember(before);
    if (role !== 'admin') keepAnAdmin(engine, ws, before, 'demoted');
    const at = nowIso();
    updateMemberRole(engine.db, id, role, at);
    const after = toMember({ ...before, role, updated_at: at });
    engine.change(ws, 'member.updated', id, { member: after, changes: { role: { old: before.role, new: role } } });
    return after;
  });
}

/** Removes a member and revokes its keys at once; the row stays for the histories that name it. */
export function removeMember(engine: Engine, ws: string, id: string): MemberRemoved {
  return engine.write(() => {
    engine.workspace(ws);
    const before = activeMember(engine, ws, id);
    keepAnAdmin(engine, ws, before, 'removed');
    const at = nowIso();
    markMemberRemoved(engine.db, id, at);
    const revoked = revokeMemberKeys(engine.db, id, at);
    const after = toMember({ ...before, removed_at: at, updated_at: at });
    engine.change(ws, 'member.removed', id, { member: after, revoked_keys: revoked });
    return { ...after, revoked_keys: revoked };
  });
}

/** Revokes a pending invitation: its link stops working. */
export function revokeInvitation(engine: Engine, ws: string, id: string): Invitation {
  return engine.write(() => {
    engine.workspace(ws);
    const row = invitationById(engine.db, ws, id);
    if (!row) throw new TxaError('INVITATION_NOT_FOUND', `invitation ${id} not found`, { hint: 'List invitations with: txa members invitations' });
    const at = nowIso();
    const state = stateOf(row, at);
    if (state !== 'pending') throw new TxaError('INVITATION_NOT_PENDING', `invitation ${id} is ${state}; only a pending invitation can be revoked`);
    markInvitationRevoked(engine.db, id, at);
    return toInvitation({ ...row, revoked_at: at }, at);
  });
}

/**
 * Accepts an invitation by its token (the credential: no key) and the address it was sent to:
 * the member and a `full` key of it, shown once. Refused, with nothing changed, when the token is
 * unknown, the invitation accepted, revoked or expired, or the address another.
 */
export function acceptInvitation(engine: Engine, token: string, body: unknown): InvitationAccepted {
  const input = validateBody(invitationAcceptSchema, body);
  const email = parseEmail(input.email);
  const notFound = () => new TxaError('INVITATION_NOT_FOUND', 'no invitation has this token; check the link you were sent');
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 100) throw notFound();
  const hash = hashKey(token).toString('hex');
  return engine.write(() => {
    const row = invitationByTokenHash(engine.db, hash);
    if (!row) throw notFound();
    const at = nowIso();
    const state = stateOf(row, at);
    if (state === 'expired') {
      throw new TxaError('INVITATION_EXPIRED', `this invitation expired at ${row.expires_at}`, { hint: 'Ask an admin of the workspace for a new one.' });
    }
    if (state !== 'pending') throw new TxaError('INVITATION_NOT_PENDING', `this invitation was ${state} already; it can be used once`);
    if (email !== row.email) throw new TxaError('FORBIDDEN', 'this invitation was sent to another e-mail address', { field: 'email' });
    const ws = row.workspace_id;
    if (activeMemberByEmail(engine.db, ws, email)) {
      throw new TxaError('MEMBER_ALREADY_EXISTS', `${email} is a member of this workspace already`, { field: 'email' });
    }
    const member: MemberRow = { id: newId('mem'), workspace_id: ws, email, name: null, role: row.role, created_at: at, updated_at: null, removed_at: null };
    insertMember(engine.db, member);
    if (!markInvitationAccepted(engine.db, row.id, at, member.id)) throw new TxaError('INVITATION_NOT_PENDING', 'this invitation was used already');
    const { key, record } = createKey(engine, ws, { name: email, access: 'full', member_id: member.id });
    engine.as(member.id).change(ws, 'member.joined', member.id, { member: toMember(member), invitation_id: row.id });
    return {
      member: toMember(member),
      api_key: { id: record.id, key, access: record.access, prefix: record.prefix, created_at: record.created_at },
    };
  });
}
