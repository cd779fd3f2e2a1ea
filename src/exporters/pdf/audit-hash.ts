/**
 * The audit report's data hash: SHA-256 over the exported transactions, in report order, each
 * written as canonical JSON (object keys sorted by UTF-16 code units at every level, no
 * whitespace, numbers and strings as JSON.stringify writes them, which is RFC 8785's form for
 * these values) followed by a line feed, all UTF-8. Anyone can recompute it from a JSON export
 * of the same filter (docs/reports.md shows how).
 */
import { createHash, type Hash } from 'node:crypto';

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  // Loops rather than entries/map/join: this runs on every row of an audit.
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + (canonicalJson(value[i]) ?? '');
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  let out = '{';
  // Keys are distinct, so the default sort (UTF-16 code units) is the order.
  for (const key of Object.keys(record).sort()) {
    const v = record[key];
    if (v === undefined) continue;
    out += `${out === '{' ? '' : ','}${JSON.stringify(key)}:${canonicalJson(v)}`;
  }
  return `${out}}`;
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
