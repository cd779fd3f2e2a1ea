/**
 * Members, roles and invitations of a workspace (docs/server.md "Teams"): the three roles, their
 * names as users read them, the shapes the API answers with and the zod schemas of its bodies.
 */
import { z } from 'zod';
import { EMAIL } from './export-schema.js';
import { TxaError } from './errors.js';

/** From the most to the least allowed. `editor` is read as `contributor` (the service's older name). */
export const ROLES = ['admin', 'contributor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];
/** What a role flag or body field accepts: the roles and the alias. */
export const ROLE_INPUTS = [...ROLES, 'editor'] as const;

export const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', contributor: 'Contributor', viewer: 'Viewer' };

/** An invitation link is valid for 7 days (docs/server.md "Teams"). */
export const INVITATION_TTL_SECONDS = 7 * 86400;
export const INVITATION_STATES = ['pending', 'accepted', 'expired', 'revoked'] as const;
export type InvitationState = (typeof INVITATION_STATES)[number];

export interface Member {
  id: string;
  workspace_id: string;
  /** null for the `owner` member the ledger made for the keys that predate members. */
  email: string | null;
  name: string | null;
  role: Role;
  created_at: string;
  updated_at: string | null;
  removed_at: string | null;
}

export interface Invitation {
  id: string;
  workspace_id: string;
  email: string;
  role: Role;
  status: InvitationState;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  revoked_at: string | null;
  /** The member the acceptance made. */
  member_id: string | null;
}

/** The answer to an invitation: the token is in it once (it is stored as a hash), and whether the e-mail went out. */
export interface InvitationSent extends Invitation {
  token: string;
  email_sent: boolean;
  /** Why the e-mail did not go out (no SMTP server configured, or the server's refusal). */
  email_error: string | null;
}

/** What accepting answers: the new member and its first API key, shown once. */
export interface InvitationAccepted {
  member: Member;
  api_key: { id: string; key: string; access: string; prefix: string; created_at: string };
}

/** A removed member: the record with `removed_at`, and how many of its keys the removal revoked. */
export interface MemberRemoved extends Member {
  revoked_keys: number;
}

/** "requires the Contributor or Admin role": the roles, most restricted first. */
export function requiredRolesText(roles: readonly Role[]): string {
  const names = [...roles].reverse().map((r) => ROLE_LABELS[r]);
  const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
  return `requires the ${list} role`;
}

const roleField = z.string({ message: `must be one of ${ROLES.join(', ')}` });
const emailField = z.string({ message: 'must be an e-mail address' });

export const memberInviteSchema = z.object({ workspace_id: z.string().optional(), email: emailField, role: roleField });
export const memberUpdateSchema = z.object({ workspace_id: z.string().optional(), role: roleField });
export const invitationAcceptSchema = z.object({ email: emailField });

/** A role as typed (`editor` becomes `contributor`); anything else is INVALID_FIELD naming `field`. */
export function parseRole(input: string, field = 'role'): Role {
  const v = input.trim().toLowerCase();
  if (v === 'editor') return 'contributor';
  if ((ROLES as readonly string[]).includes(v)) return v as Role;
  throw new TxaError('INVALID_FIELD', `${field} must be one of ${ROLES.join(', ')} (editor is read as contributor); got '${input}'`, { field });
}

/** An e-mail address, trimmed and lower-cased so one address is one member; INVALID_FIELD naming `field` otherwise. */
export function parseEmail(input: string, field = 'email'): string {
  const v = input.trim();
  if (!EMAIL.test(v) || v.length > 254) throw new TxaError('INVALID_FIELD', `${field} must be an e-mail address; got '${input}'`, { field });
  return v.toLowerCase();
}
