import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/exporters/pdf/audit-hash.js';

/** Independent of the writer: keys sorted at every level, JSON.stringify for leaves. */
function sortedJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map((x) => (x === undefined ? 'null' : sortedJson(x))).join(',')}]`;
  if (v && typeof v === 'object') {
    const r = v as Record<string, unknown>;
    return `{${Object.keys(r)
      .sort()
      .filter((k) => r[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${sortedJson(r[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

describe('canonical JSON of the audit hash', () => {
  it('sorts the keys of objects of one shape created in different orders', () => {
    const a = { b: 1, a: 'x', c: null };
    const b = { c: null, a: 'x', b: 1 };
    expect(canonicalJson(a)).toBe('{"a":"x","b":1,"c":null}');
    expect(canonicalJson(b)).toBe(canonicalJson(a));
    expect(canonicalJson({ a: 'x', b: 1, c: null })).toBe(canonicalJson(a));
  });

  it('matches an independent sort over many shapes (more than it remembers), nested, with undefined values left out', () => {
    for (let n = 0; n < 80; n++) {
      const keys = Array.from({ length: (n % 9) + 1 }, (_, i) => `k${(n * 7 + i * 13) % 23}${'é日\u{1F600}'[i % 3] ?? ''}`);
      const value: Record<string, unknown> = {};
      keys.forEach((k, i) => (value[k] = i % 4 === 0 ? { z: i, y: [k, { n, m: undefined }] } : i % 4 === 1 ? undefined : i % 4 === 2 ? `"${k}"\n` : i * 0.5));
      expect(canonicalJson(value)).toBe(sortedJson(value));
      // The same keys again, in reverse creation order: the same text.
      const reversed = Object.fromEntries(Object.entries(value).reverse());
      expect(canonicalJson(reversed)).toBe(sortedJson(value));
    }
  });
});
