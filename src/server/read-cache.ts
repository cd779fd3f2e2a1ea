/**
 * A cache of list responses (transactions, tags, wallets), validated by the workspace's event
 * sequence. Every change these lists reflect appends an event in its own transaction (docs/storage.md
 * "The event log"), so "no new event since" means "same answer", also for changes made by other processes
 * (an import in the CLI, the export worker). The version is read before the data, so an answer
 * is never stored under a newer version than it reflects. Dashboards that poll the same page then
 * cost one indexed lookup instead of a query with a summary over the whole filter.
 */
import type { Engine } from '../engine/engine.js';
import { eventVersion } from '../store/events.js';

const MAX_ENTRIES = 500;
const MAX_BODY_BYTES = 512 * 1024;

interface Entry {
  version: number;
  body: string;
}

export class ReadCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly engine: Engine) {}

  /** The serialized answer for `key`, from the cache when the workspace has not changed since. */
  async get(workspaceId: string, key: string, compute: () => Promise<unknown>): Promise<string> {
    const version = eventVersion(this.engine.db, workspaceId);
    const fullKey = `${workspaceId}\u0000${key}`;
    const hit = this.entries.get(fullKey);
    if (hit && hit.version === version) {
      // Refresh its place: the map's order is the eviction order (least recently used first).
      this.entries.delete(fullKey);
      this.entries.set(fullKey, hit);
      return hit.body;
    }
    const body = JSON.stringify(await compute());
    if (body.length <= MAX_BODY_BYTES) {
      this.entries.delete(fullKey);
      this.entries.set(fullKey, { version, body });
      if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    }
    return body;
  }
}

/** A stable key for a query string: the same parameters in any order give the same key. */
export function queryKey(route: string, query: Record<string, string | undefined>): string {
  const parts = Object.entries(query)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`);
  return `${route}?${parts.join('&')}`;
}
