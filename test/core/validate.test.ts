/** Body validation speaks the API's terms (docs/server.md "API conventions"): codes, dotted fields, and messages an API user reads. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validateBody } from '../../src/core/validate.js';
import type { TxaError } from '../../src/core/errors.js';

const schema = z.object({ name: z.string(), filters: z.object({ tags: z.array(z.string()), limit: z.number().optional() }) });

function failure(body: unknown): Pick<TxaError, 'code' | 'field' | 'message'> {
  try {
    validateBody(schema, body);
  } catch (err) {
    const e = err as TxaError;
    return { code: e.code, field: e.field, message: e.message };
  }
  throw new Error('validation passed');
}

describe('validateBody', () => {
  it('names the expected type in plain words, with the dotted field', () => {
    expect(failure({ name: 123, filters: { tags: [] } })).toEqual({ code: 'INVALID_FIELD', field: 'name', message: 'name must be a string' });
    expect(failure({ name: 'x', filters: { tags: 'a' } })).toEqual({ code: 'INVALID_FIELD', field: 'filters.tags', message: 'filters.tags must be an array' });
    expect(failure({ name: 'x', filters: { tags: [], limit: '5' } })).toEqual({
      code: 'INVALID_FIELD',
      field: 'filters.limit',
      message: 'filters.limit must be a number',
    });
  });

  it('an absent required field is MISSING_REQUIRED_FIELD; a body that is no object is INVALID_JSON', () => {
    expect(failure({ filters: { tags: [] } })).toEqual({ code: 'MISSING_REQUIRED_FIELD', field: 'name', message: 'name is required' });
    expect(failure({ name: 'x', filters: {} })).toMatchObject({ code: 'MISSING_REQUIRED_FIELD', field: 'filters.tags' });
    expect(failure([1])).toMatchObject({ code: 'INVALID_JSON' });
  });
});
