/**
 * Listing a workspace's tags, apart from tags.ts (which loads zod for its writes): every CLI tag
 * flag resolves names through this list, so `tx list --tag-ids` would otherwise pay for zod.
 */
import type { Engine } from './engine.js';
import type { Tag } from '../core/types.js';
import { listTags } from '../store/ledger.js';

export function listWorkspaceTags(engine: Engine, workspaceId: string): Tag[] {
  engine.workspace(workspaceId);
  return listTags(engine.db, workspaceId);
}
