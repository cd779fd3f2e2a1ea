/** Reading the event log (`txa events list`, `GET /api/v1/events`). */
import type { Engine } from './engine.js';
import { paginationOf, parsePageParams } from '../core/pagination.js';
import type { DeliveryState, EventRecord, Page, QueryParams } from '../core/types.js';
import { eventPage } from '../store/events.js';
import { TxaError } from '../core/errors.js';
import { EVENT_TYPES, type DeliveryLookup } from './webhooks.js';

export const EVENTS_LIMIT_DEFAULT = 50;
export const EVENTS_LIMIT_MAX = 200;

export function listEvents(engine: Engine, workspaceId: string, params: QueryParams, deliveries?: DeliveryLookup): Page<EventRecord> {
  engine.workspace(workspaceId);
  const req = parsePageParams(params, EVENTS_LIMIT_DEFAULT, EVENTS_LIMIT_MAX);
  // A misspelt type would otherwise look like a log without such events.
  if (params.type && !(EVENT_TYPES as readonly string[]).includes(params.type)) {
    throw new TxaError('INVALID_PARAMETERS', `type must be one of ${EVENT_TYPES.join(', ')}; got '${params.type}'`, { field: 'type' });
  }
  const { total, rows } = eventPage(engine.db, workspaceId, params.type, req.limit, req.offset);
  const states = deliveries?.(rows.map((r) => r.id)) ?? new Map<string, DeliveryState[]>();
  return {
    data: rows.map((r) => ({
      id: r.id,
      type: r.type,
      workspace_id: r.workspace_id,
      created_at: r.created_at,
      payload: JSON.parse(r.payload) as Record<string, unknown>,
      deliveries: states.get(r.id) ?? [],
    })),
    pagination: paginationOf(total, req),
  };
}
