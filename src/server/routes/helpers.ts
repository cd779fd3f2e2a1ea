/** Small pieces every route uses: the query string as `QueryParams`, and the body's workspace. */
import type { FastifyRequest } from 'fastify';
import { TxaError } from '../../core/errors.js';
import type { QueryParams } from '../../core/types.js';
import { workspaceOf } from '../app.js';

export { JSON_TYPE } from '../app.js';

/** The query string; a parameter given twice is refused rather than guessed at. */
export function queryOf(req: FastifyRequest): QueryParams {
  const out: QueryParams = {};
  for (const [name, value] of Object.entries((req.query ?? {}) as Record<string, unknown>)) {
    if (Array.isArray(value)) throw new TxaError('INVALID_PARAMETERS', `${name} is given more than once`, { field: name });
    out[name] = value === undefined ? undefined : String(value);
  }
  return out;
}

/** The workspace named by the query string (GET, DELETE), checked against the key's. */
export function queryWorkspace(req: FastifyRequest): { ws: string; query: QueryParams } {
  const query = queryOf(req);
  const ws = workspaceOf(req, query.workspace_id);
  return { ws, query: { ...query, workspace_id: ws } };
}

/** The workspace named by a JSON body (POST), checked against the key's. */
export function bodyWorkspace(req: FastifyRequest): string {
  const body = req.body;
  const named = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).workspace_id : undefined;
  return workspaceOf(req, named ?? queryOf(req).workspace_id);
}

export function param(req: FastifyRequest, name: string): string {
  return (req.params as Record<string, string>)[name]!;
}
