/**
 * Request-body validation with zod, reported in the API's terms (docs/server.md "API conventions"): an absent required field
 * is MISSING_REQUIRED_FIELD, anything else INVALID_FIELD (or a field's own code, such as
 * INVALID_COLOR_FORMAT), with `field` as a dotted path.
 */
import type { z } from 'zod';
import { TxaError, type ErrorCode } from './errors.js';

export type FieldCodes = Record<string, ErrorCode>;

/** zod's expected type, as an API user reads it ("name must be a string", not zod's wording). */
const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
};

function valueAt(data: unknown, path: PropertyKey[]): unknown {
  let v = data;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** A request body must be a JSON object: `INVALID_JSON` otherwise. */
export function requireJsonObject(body: unknown): asserts body is Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new TxaError('INVALID_JSON', 'the request body must be a JSON object');
  }
}

export function validateBody<S extends z.ZodType>(schema: S, body: unknown, fieldCodes: FieldCodes = {}, prefix = ''): z.output<S> {
  requireJsonObject(body);
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = issue.path.map(String);
  const field = prefix + path.join('.');
  // A failing field whose value is absent can only be a required one.
  const missing = issue.path.length > 0 && valueAt(body, issue.path) === undefined;
  if (missing) throw new TxaError('MISSING_REQUIRED_FIELD', `${field} is required`, { field });
  const code = fieldCodes[path.join('.')] ?? 'INVALID_FIELD';
  const message =
    issue.code === 'invalid_type'
      ? `${field} must be ${TYPE_NAMES[issue.expected] ?? `of type ${issue.expected}`}`
      : issue.message.startsWith('must')
        ? `${field} ${issue.message}`
        : `${field}: ${issue.message}`;
  throw new TxaError(code, message, { field });
}
