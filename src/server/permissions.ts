/**
 * The role table (docs/server.md "Teams"): for every route of the API, by method and path
 * template, the roles whose keys may call it. This is the one place roles are enforced: `txa
 * serve` reads each route's entry once, when the route is added (a route missing here stops the
 * server from starting), and checks the key's role against it on each request. Commands on a
 * remote backend meet it through these routes; on their own ledger the local user is its owner,
 * an admin.
 *
 * Viewer: reads, but no exports (they are downloads; an export's record, and its export.completed
 * event in the log, carry its link).
 * Contributor: reads; writes tags, notes, attachments, transactions (tags on them, own
 * transfers, lot picks, opening lots), exports, wallets (add, rename, sync); not deleting tags
 * or wallets, nor members, keys, webhooks, schedules, periods, the lot allocation or an import of
 * opening lots. Admin: everything.
 */
import { ROLES, type Role } from '../core/members.js';

/** A route anyone may call: the link or token in it is the credential, or it tells nothing. */
export const PUBLIC = 'public';
export type RouteRoles = readonly Role[] | typeof PUBLIC;

const ANY: readonly Role[] = ROLES;
const WRITERS: readonly Role[] = ['admin', 'contributor'];
const ADMIN: readonly Role[] = ['admin'];

/** `METHOD /path/:param` under the API prefix → who may call it. */
export const ROUTE_ROLES: Readonly<Record<string, RouteRoles>> = {
  'GET /health': PUBLIC,
  'GET /openapi.json': PUBLIC,

  'GET /tags': ANY,
  'POST /tags': WRITERS,
  'PATCH /tags/:tag_id': WRITERS,
  'DELETE /tags/:tag_id': ADMIN,

  'GET /transactions': ANY,
  'GET /transactions/:transaction_id': ANY,
  'GET /transactions/:transaction_id/history': ANY,
  'PATCH /transactions/:transaction_id': WRITERS,
  'POST /transactions/:transaction_id/tags': WRITERS,
  'DELETE /transactions/:transaction_id/tags/:tag_id': WRITERS,
  'POST /transactions/:transaction_id/attachments': WRITERS,
  'GET /attachments/:attachment_id': ANY,

  'GET /transfers': ANY,
  'POST /transfers': WRITERS,
  'DELETE /transfers/:transfer_id': WRITERS,

  'GET /wallets': ANY,
  'POST /wallets': WRITERS,
  'PATCH /wallets/:wallet_id': WRITERS,
  'DELETE /wallets/:wallet_id': ADMIN,
  'POST /wallets/:wallet_id/sync': WRITERS,
  'GET /wallets/:wallet_id/sync': ANY,

  // A viewer may not create, download or receive exports; a record holds its download link.
  'GET /exports': WRITERS,
  'POST /exports': WRITERS,
  'GET /exports/:export_id': WRITERS,
  'POST /exports/:export_id/cancel': WRITERS,
  'GET /exports/:export_id/download': PUBLIC,

  'GET /webhooks': ANY,
  'POST /webhooks': ADMIN,
  'DELETE /webhooks/:webhook_id': ADMIN,

  // The event log holds each export.completed with its download link: not a viewer's, as exports are not.
  'GET /events': WRITERS,

  'GET /periods': ANY,
  'POST /periods': ADMIN,
  'POST /periods/reopen': ADMIN,

  'GET /lots': ANY,
  'GET /lots/allocation': ANY,
  // The transition allocation decides every later disposal's basis for the whole workspace: admin, as periods.
  'POST /lots/allocation': ADMIN,
  'GET /lots/picks': ANY,
  'POST /lots/picks': WRITERS,
  'DELETE /lots/picks/:disposal_id': WRITERS,
  'GET /lots/openings': ANY,
  'POST /lots/openings': WRITERS,
  // Taking back an import of opening lots deletes them, as removing a wallet deletes its rows.
  'DELETE /lots/openings/:import_id': ADMIN,

  'GET /workspaces/:workspace_id/members': ANY,
  'POST /workspaces/:workspace_id/members': ADMIN,
  'PATCH /workspaces/:workspace_id/members/:member_id': ADMIN,
  'DELETE /workspaces/:workspace_id/members/:member_id': ADMIN,
  'GET /workspaces/:workspace_id/invitations': ADMIN,
  'DELETE /workspaces/:workspace_id/invitations/:invitation_id': ADMIN,
  'POST /invitations/:token/accept': PUBLIC,

  'GET /schedules': ANY,
  'POST /schedules': ADMIN,
  'DELETE /schedules/:id': ADMIN,
  'POST /schedules/:id/run': ADMIN,
};

/** `METHOD /path/:` with the parameters' names left out: a route matches its entry whatever it names them. */
export function routeKey(method: string, path: string): string {
  return `${method === 'HEAD' ? 'GET' : method} ${(path.replace(/\/+$/, '') || '/').replace(/:[^/]+/g, ':')}`;
}

const BY_KEY = new Map(Object.entries(ROUTE_ROLES).map(([k, roles]) => [routeKey(k.slice(0, k.indexOf(' ')), k.slice(k.indexOf(' ') + 1)), roles]));

/** The entry of a route as fastify adds it (HEAD is its GET's); throws for a route the table lacks. */
export function rolesOf(method: string, path: string): RouteRoles {
  const roles = BY_KEY.get(routeKey(method, path));
  if (roles === undefined) throw new Error(`route ${method} ${path} has no entry in the role table (src/server/permissions.ts)`);
  return roles;
}
