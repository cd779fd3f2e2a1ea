/**
 * The API's JSON body parser. Nesting is bounded before parsing: every body is read with
 * recursive code afterwards (the Idempotency-Key fingerprint's JSON.stringify, the structured
 * clone that hands an export to the worker thread, zod), and 5,000 nested arrays overflow
 * their stacks. No request of docs/reference/api.md nests deeper than 4 levels.
 */
import { TxaError } from '../core/errors.js';

export const MAX_JSON_DEPTH = 32;

/** Whether arrays and objects in JSON text nest deeper than `limit` (strings are skipped). */
function nestsDeeper(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** An empty body is no body; anything else must be JSON nesting at most MAX_JSON_DEPTH levels. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  if (nestsDeeper(text, MAX_JSON_DEPTH)) {
    throw new TxaError('INVALID_JSON', `the request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new TxaError('INVALID_JSON', 'the request body is not valid JSON');
  }
}
