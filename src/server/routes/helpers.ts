/** Small pieces every route uses: the JSON content type, the query string as `QueryParams`, and the request's workspace. */
import type { FastifyRequest } from 'fastify';
import { TxaError } from '../../core/errors.js';
import { requireJsonObject } from '../../core/validate.js';
import type { QueryParams } from '../../core/types.js';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** The workspace of a request: the key's; naming another one is FORBIDDEN. */
export function workspaceOf(req: FastifyRequest, named?: unknown): string {
  const grant = req.grant;
  if (!grant) throw new TxaError('UNAUTHORIZED', 'Invalid or missing API key');
  if (named !== undefined && named !== null && named !== '' && named !== grant.workspaceId) {
    throw new TxaError('FORBIDDEN', "You don't have access to this workspace", { field: 'workspace_id' });
  }
  return grant.workspaceId;
}

/** The query string; a parameter given twice is refused rather than guessed at. */
export function queryOf(req: FastifyRequest): QueryParams {
  const out: QueryParams = {};
  for (const [name, value] of Object.entries((req.query ?? {}) as Record<string, unknown>)) {
    if (Array.isArray(value)) throw new TxaError('INVALID_PARAMETERS', `${name} is given more than once`, { field: name });
    out[name] = value === undefined ? undefined : String(value);
  }
  return out;
}

/**
 * Where docs/server.md "API decisions" lists `workspace_id` as required (creating tags and exports, the lists it shows
 * as `?workspace_id=`), leaving it out is MISSING_REQUIRED_FIELD; elsewhere it defaults to the key's.
 */
export interface WorkspaceRule {
  required?: boolean;
}

function checked(req: FastifyRequest, named: unknown, rule: WorkspaceRule): string {
  const ws = workspaceOf(req, named);
  if (rule.required && (named === undefined || named === null || named === '')) {
    throw new TxaError('MISSING_REQUIRED_FIELD', 'workspace_id is required', { field: 'workspace_id' });
  }
  return ws;
}

/** The workspace named by the query string (GET, DELETE), checked against the key's. */
export function queryWorkspace(req: FastifyRequest, rule: WorkspaceRule = {}): { ws: string; query: QueryParams } {
  const query = queryOf(req);
  const ws = checked(req, query.workspace_id, rule);
  return { ws, query: { ...query, workspace_id: ws } };
}

/**
 * The workspace named by a JSON body (POST, PATCH), checked against the key's. A body is optional
 * where the operation takes none (a sync, a cancel), but one that is no JSON object is refused on
 * every route, also where nothing else would read it.
 */
export function bodyWorkspace(req: FastifyRequest, rule: WorkspaceRule = {}): string {
  const body = req.body;
  // No body where one is required: the operation names what is missing.
  if (body === undefined) return checked(req, queryOf(req).workspace_id, {});
  requireJsonObject(body);
  return checked(req, body.workspace_id ?? queryOf(req).workspace_id, rule);
}

export function param(req: FastifyRequest, name: string): string {
  return (req.params as Record<string, string>)[name]!;
}
