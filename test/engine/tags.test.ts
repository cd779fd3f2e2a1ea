import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempEngine } from '../helpers/engine.js';
import type { Engine } from '../../src/engine/engine.js';
import { createTag, deleteTag, listWorkspaceTags, updateTag } from '../../src/engine/tags.js';
import { createWorkspace } from '../../src/engine/workspaces.js';
import { TxaError } from '../../src/core/errors.js';

let engine: Engine;
let ws: string;

beforeEach(() => ({ engine, ws } = tempEngine('free')));
afterEach(() => engine.close());

function codeOf(fn: () => unknown): { code: string; field?: string; status: number; exit: number } {
  try {
    fn();
  } catch (err) {
    if (err instanceof TxaError) return { code: err.code, field: err.field, status: err.status, exit: err.exitCode };
    throw err;
  }
  throw new Error('expected an error');
}

function events(type?: string) {
  return engine.db
    .prepare(`SELECT type, payload FROM events WHERE workspace_id = ? ${type ? 'AND type = ?' : ''} ORDER BY seq`)
    .all(...(type ? [ws, type] : [ws])) as { type: string; payload: string }[];
}

describe('tag rules', () => {
  it('creates with the default colour per type and emits tag.created', () => {
    const income = createTag(engine, ws, { name: 'Salary', type: 'income' });
    const expense = createTag(engine, ws, { name: 'Gas', type: 'expense' });
    const neutral = createTag(engine, ws, { name: 'Move', type: 'neutral', color: '#aabbcc', description: 'between own wallets' });
    expect([income.color, expense.color, neutral.color]).toEqual(['#10B981', '#EF4444', '#AABBCC']);
    expect(income).toMatchObject({ workspace_id: ws, usage_count: 0, description: null, created_by: 'cli' });
    const created = events('tag.created');
    expect(created).toHaveLength(3);
    expect(JSON.parse(created[0]!.payload)).toMatchObject({ event: 'tag.created', workspace_id: ws, tag: { id: income.id, name: 'Salary' } });
  });

  it.each([
    [{ type: 'income' }, 'MISSING_REQUIRED_FIELD', 'name'],
    [{ name: 'x' }, 'MISSING_REQUIRED_FIELD', 'type'],
    [{ name: '', type: 'income' }, 'INVALID_FIELD', 'name'],
    [{ name: '   ', type: 'income' }, 'INVALID_FIELD', 'name'],
    [{ name: 'x'.repeat(51), type: 'income' }, 'INVALID_FIELD', 'name'],
    [{ name: 42, type: 'income' }, 'INVALID_FIELD', 'name'],
    [{ name: 'x', type: 'gift' }, 'INVALID_TAG_TYPE', 'type'],
    [{ name: 'x', type: 'income', color: 'red' }, 'INVALID_COLOR_FORMAT', 'color'],
    [{ name: 'x', type: 'income', color: '#12345' }, 'INVALID_COLOR_FORMAT', 'color'],
    [{ name: 'x', type: 'income', color: '#12345G' }, 'INVALID_COLOR_FORMAT', 'color'],
    [{ name: 'x', type: 'income', description: 'd'.repeat(201) }, 'INVALID_FIELD', 'description'],
  ])('%o → %s (%s), 400, exit 1', (body, code, field) => {
    expect(codeOf(() => createTag(engine, ws, body))).toEqual({ code, field, status: 400, exit: 1 });
  });

  it('accepts the boundaries: 1 and 50 characters, 200-character description', () => {
    expect(createTag(engine, ws, { name: 'a', type: 'income' }).name).toBe('a');
    expect(createTag(engine, ws, { name: 'b'.repeat(50), type: 'income', description: 'd'.repeat(200) }).name).toHaveLength(50);
  });

  it('names are unique trimmed and case-insensitively, per workspace', () => {
    createTag(engine, ws, { name: 'Café', type: 'expense' });
    expect(codeOf(() => createTag(engine, ws, { name: '  CAFÉ ', type: 'income' }))).toEqual({
      code: 'TAG_ALREADY_EXISTS',
      field: 'name',
      status: 409,
      exit: 1,
    });
    const other = createWorkspace(engine, { name: 'Other' });
    expect(createTag(engine, other.id, { name: 'café', type: 'income' }).name).toBe('café');
  });

  it("enforces the free tier's 100 tags per workspace (403, exit 5)", () => {
    for (let i = 0; i < 100; i++) createTag(engine, ws, { name: `t${i}`, type: 'neutral' });
    expect(codeOf(() => createTag(engine, ws, { name: 'one more', type: 'neutral' }))).toMatchObject({ code: 'TAG_LIMIT_EXCEEDED', status: 403, exit: 5 });
    expect(listWorkspaceTags(engine, ws)).toHaveLength(100);
  });

  it('lists by name', () => {
    for (const name of ['beta', 'Alpha', 'gamma']) createTag(engine, ws, { name, type: 'neutral' });
    expect(listWorkspaceTags(engine, ws).map((t) => t.name)).toEqual(['Alpha', 'beta', 'gamma']);
  });

  it('updates with the same rules and emits tag.updated only on a change', () => {
    const tag = createTag(engine, ws, { name: 'Fees', type: 'expense' });
    createTag(engine, ws, { name: 'Other', type: 'expense' });
    expect(codeOf(() => updateTag(engine, ws, tag.id, { name: 'other' }))).toMatchObject({ code: 'TAG_ALREADY_EXISTS' });
    expect(codeOf(() => updateTag(engine, ws, tag.id, { color: 'blue' }))).toMatchObject({ code: 'INVALID_COLOR_FORMAT' });
    expect(updateTag(engine, ws, tag.id, { name: 'FEES' }).name).toBe('FEES'); // its own name, re-cased
    updateTag(engine, ws, tag.id, { name: 'FEES' });
    const updated = updateTag(engine, ws, tag.id, { description: 'network fees', type: 'neutral' });
    expect(updated).toMatchObject({ name: 'FEES', type: 'neutral', description: 'network fees', color: '#EF4444' });
    expect(events('tag.updated')).toHaveLength(2);
  });

  it('another workspace’s tag is not found', () => {
    const other = createWorkspace(engine, { name: 'Other' });
    const tag = createTag(engine, other.id, { name: 'Theirs', type: 'income' });
    expect(codeOf(() => updateTag(engine, ws, tag.id, { name: 'Mine' }))).toMatchObject({ code: 'TAG_NOT_FOUND', status: 404 });
    expect(codeOf(() => deleteTag(engine, ws, tag.id))).toMatchObject({ code: 'TAG_NOT_FOUND' });
  });

  it('deletes and emits tag.deleted', () => {
    const tag = createTag(engine, ws, { name: 'Temp', type: 'neutral' });
    expect(deleteTag(engine, ws, tag.id)).toEqual({ id: tag.id, deleted: true });
    expect(listWorkspaceTags(engine, ws)).toHaveLength(0);
    expect(events('tag.deleted')).toHaveLength(1);
  });

  it('an unknown workspace is WORKSPACE_NOT_FOUND', () => {
    expect(codeOf(() => createTag(engine, 'ws_nope', { name: 'x', type: 'income' }))).toMatchObject({ code: 'WORKSPACE_NOT_FOUND', status: 404 });
  });
});
