/** Tags: create, list, update, delete, with the rules of docs/reference/api.md. */
import type { Engine } from './engine.js';
import { TxaError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { nowIso } from '../core/clock.js';
import { limitsOf } from '../core/limits.js';
import { validateBody } from '../core/validate.js';
import { TAG_FIELD_CODES, tagCreateSchema, tagUpdateSchema } from '../core/schemas.js';
import type { Deleted, Tag, TagType } from '../core/types.js';
import { countTags, deleteTagRow, getTag, insertTag, tagIdByNameKey, tagNameKey, updateTagRow } from '../store/ledger.js';

export const DEFAULT_TAG_COLORS: Record<TagType, string> = {
  income: '#10B981',
  expense: '#EF4444',
  neutral: '#64748B',
};

function requireTag(engine: Engine, workspaceId: string, tagId: string): Tag {
  const tag = getTag(engine.db, workspaceId, tagId);
  if (!tag) throw new TxaError('TAG_NOT_FOUND', `tag ${tagId} not found`, { hint: 'List tags with: txa tags list' });
  return tag;
}

function assertNameFree(engine: Engine, workspaceId: string, name: string, exceptId?: string): void {
  const existing = tagIdByNameKey(engine.db, workspaceId, tagNameKey(name));
  if (existing && existing !== exceptId) {
    throw new TxaError('TAG_ALREADY_EXISTS', `a tag named '${name.trim()}' already exists in this workspace`, { field: 'name' });
  }
}

export function createTag(engine: Engine, workspaceId: string, body: unknown): Tag {
  const input = validateBody(tagCreateSchema, body, TAG_FIELD_CODES);
  return engine.write(() => {
    const ws = engine.workspace(workspaceId);
    const max = limitsOf(ws).tagsPerWorkspace;
    if (max !== null && countTags(engine.db, workspaceId) >= max) {
      throw new TxaError('TAG_LIMIT_EXCEEDED', `the ${ws.tier} tier allows ${max} tags per workspace`, {
        extra: { limit: max },
        hint: 'Delete unused tags, or move the workspace to a higher tier.',
      });
    }
    assertNameFree(engine, workspaceId, input.name);
    const tag: Tag = {
      id: newId('tag'),
      name: input.name,
      type: input.type,
      color: (input.color ?? DEFAULT_TAG_COLORS[input.type]).toUpperCase(),
      description: input.description ?? null,
      workspace_id: workspaceId,
      created_by: engine.actor,
      created_at: nowIso(),
      usage_count: 0,
    };
    insertTag(engine.db, tag);
    engine.change(workspaceId, 'tag.created', tag.id, { tag });
    return tag;
  });
}

export { listWorkspaceTags } from './tag-list.js';

export function updateTag(engine: Engine, workspaceId: string, tagId: string, body: unknown): Tag {
  const patch = validateBody(tagUpdateSchema, body, TAG_FIELD_CODES);
  return engine.write(() => {
    const before = requireTag(engine, workspaceId, tagId);
    if (patch.name !== undefined) assertNameFree(engine, workspaceId, patch.name, tagId);
    const after: Tag = {
      ...before,
      name: patch.name ?? before.name,
      type: patch.type ?? before.type,
      color: patch.color?.toUpperCase() ?? before.color,
      description: patch.description === undefined ? before.description : patch.description,
    };
    updateTagRow(engine.db, after);
    const changed = (['name', 'type', 'color', 'description'] as const).filter((k) => before[k] !== after[k]);
    const changes = Object.fromEntries(changed.map((k) => [k, { old: before[k], new: after[k] }]));
    if (changed.length > 0) engine.change(workspaceId, 'tag.updated', tagId, { tag: after, changes });
    return after;
  });
}

export function deleteTag(engine: Engine, workspaceId: string, tagId: string): Deleted {
  return engine.write(() => {
    const tag = requireTag(engine, workspaceId, tagId);
    // The links go with the tag: it disappears from every transaction.
    deleteTagRow(engine.db, tagId);
    engine.change(workspaceId, 'tag.deleted', tagId, { tag });
    return { id: tagId, deleted: true as const };
  });
}
