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
  const shape = shapeOf(Object.keys(record));
  let out = '{';
  for (let i = 0; i < shape.sorted.length; i++) {
    const v = record[shape.sorted[i]!];
    if (v === undefined) continue;
    out += `${out === '{' ? '' : ','}${shape.prefixes[i]}${canonicalJson(v)}`;
  }
  return `${out}}`;
}

/** An object's keys as created, the same sorted, and each sorted key as JSON with its colon. */
interface Shape {
  keys: string[];
  sorted: string[];
  prefixes: string[];
}

/**
 * The rows of an export are built by the same code, so their objects come in a few shapes (keys
 * in the same order): each shape's sort and key quoting is done once. Bounded: past MAX_SHAPES
 * distinct shapes the rest are sorted every time.
 */
const shapes: Shape[] = [];
const MAX_SHAPES = 32;

function shapeOf(keys: string[]): Shape {
  for (const shape of shapes) if (sameKeys(shape.keys, keys)) return shape;
  // Keys are distinct, so the default sort (UTF-16 code units) is the order.
  const sorted = [...keys].sort();
  const shape = { keys, sorted, prefixes: sorted.map((k) => `${JSON.stringify(k)}:`) };
  if (shapes.length < MAX_SHAPES) shapes.push(shape);
  return shape;
}

function sameKeys(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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
