/**
 * The audit report's data hash: SHA-256 over the exported transactions, in report order, each
 * written as canonical JSON (object keys sorted by UTF-16 code units at every level, no
 * whitespace, numbers and strings as JSON.stringify writes them, which is RFC 8785's form for
 * these values) followed by a line feed, all UTF-8. Anyone can recompute it from a JSON export
 * of the same filter (docs/reports.md shows how).
 */
import { createHash, type Hash } from 'node:crypto';

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export class DataHash {
  private readonly hash: Hash = createHash('sha256');

  add(record: unknown): void {
    this.hash.update(canonicalJson(record) + '\n', 'utf8');
  }

  hex(): string {
    return this.hash.digest('hex');
  }
}
