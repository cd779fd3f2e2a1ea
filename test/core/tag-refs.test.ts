/** Tags named by id or name: the pure resolution every CLI tag flag goes through. */
import { describe, expect, it } from 'vitest';
import { resolveTagRefs } from '../../src/core/tag-refs.js';
import type { TxaError } from '../../src/core/errors.js';

const TAGS = [
  { id: 'tag_aaa', name: 'Payroll' },
  { id: 'tag_bbb', name: 'Gas' },
  { id: 'tag_ccc', name: 'tag_bbb' }, // a tag named like another's id
  { id: 'tag_ddd', name: 'Café' },
];

function failure(fn: () => unknown): TxaError {
  try {
    fn();
  } catch (err) {
    return err as TxaError;
  }
  throw new Error('did not throw');
}

describe('resolveTagRefs', () => {
  it('takes ids as they are and names case-insensitively, trimmed and NFC-normalised, in order', () => {
    expect(resolveTagRefs(TAGS, ['gas', 'tag_aaa', ' PAYROLL ', 'cafe\u0301'], 'tag-ids')).toEqual(['tag_bbb', 'tag_aaa', 'tag_aaa', 'tag_ddd']);
  });

  it('an id is always that tag, even when another tag is named like it', () => {
    expect(resolveTagRefs(TAGS, ['tag_bbb'], 'tags')).toEqual(['tag_bbb']);
  });

  it("an unknown value of an id's form passes on, for the API to judge", () => {
    expect(resolveTagRefs(TAGS, ['tag_0000000000000000000a'], 'tag-ids')).toEqual(['tag_0000000000000000000a']);
  });

  it('with knownIds, an unknown id is TAG_NOT_FOUND too (a removal the API never sees)', () => {
    expect(resolveTagRefs(TAGS, ['tag_aaa', 'gas'], 'remove-tag', true)).toEqual(['tag_aaa', 'tag_bbb']);
    const e = failure(() => resolveTagRefs(TAGS, ['tag_0000000000000000000a'], 'remove-tag', true));
    expect(e).toMatchObject({ code: 'TAG_NOT_FOUND', field: 'remove-tag', message: 'tag tag_0000000000000000000a not found', exitCode: 1 });
  });

  it('an unknown name is TAG_NOT_FOUND naming it, with the flag as field', () => {
    const e = failure(() => resolveTagRefs(TAGS, ['Gas', 'Payrol'], 'add-tag'));
    expect(e).toMatchObject({ code: 'TAG_NOT_FOUND', field: 'add-tag', message: "no tag named 'Payrol' in this workspace" });
  });

  it('a name two tags answer to (a server that keeps names apart by case) is ambiguous', () => {
    const e = failure(() => resolveTagRefs([...TAGS, { id: 'tag_eee', name: 'GAS' }], ['gas'], 'remove-tag'));
    expect(e).toMatchObject({ code: 'USAGE_ERROR', field: 'remove-tag', exitCode: 2 });
    expect(e.message).toBe("tag name 'gas' is ambiguous: it names tag_bbb (Gas), tag_eee (GAS); pass the id instead");
  });

  it('no values, no lookups', () => {
    expect(resolveTagRefs([], [], 'tags')).toEqual([]);
  });
});
