/**
 * Hostile values for the fuzz suites, drawn from a seeded PRNG: wrong types, empty and huge
 * strings, Unicode (RTL marks, emoji, CJK, lone surrogates), control characters, numbers-as-text
 * at the edges, malformed dates and ids, injection-shaped text, nesting.
 */
import type { Rng } from '../../src/fixtures/prng.js';

/** Nesting depths of the fuzzed JSON bodies (serve refuses more than 32 levels, docs/server.md). */
export const MAX_DEPTH = 5_000;

const ASCII_EDGE = ['', ' ', '  x  ', '0', '-1', '1.5', '1e309', '-0', 'NaN', 'Infinity', 'null', 'true', 'undefined', '[]', '{}'];
const UNICODE = ['é€日本', '🦄🦄', '\u202eevil', 'zero\u200bwidth', 'ﬁ', 'Ⅻ', 'İstanbul', '\u0301', '日本 vendor', '\ud800', '\udfff'];
const INJECTION = [
  "' OR 1=1 --",
  '"; DROP TABLE transactions; --',
  '../../../../etc/passwd',
  '%s%s%n',
  '${7*7}',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'a,b,,c',
  '=HYPERLINK("x")',
  '\\',
];
const DATES = [
  '2024-02-30',
  '2023-02-29',
  '0000-00-00',
  '9999-12-31',
  '2024-1-1',
  '2024-13-01',
  '24-01-01',
  '2024-01-01T00:00:00Z',
  '2024/01/01',
  '+002024-01-01',
  '1970-01-01',
  '',
];
const NUMBERS = ['0', '-5', '0.0000000000000000001', '1'.padEnd(78, '0'), '9'.repeat(99), '1e3', '0x10', '1,000', '١٢٣', '  12  ', '.5', '5.', '-0.0'];
/** Control characters: C0, DEL, C1 (U+009B is a one-byte CSI), escape sequences (OSC 52 writes the clipboard), bidi isolates. */
export const CONTROL = [
  '\u0000',
  'a\nb',
  'tab\there',
  '\r\n',
  'lone\rcr',
  '\u001b[31mred\u001b[0m',
  '\u001b]52;c;aGk=\u0007',
  '\u0007',
  '\u007f',
  '\u0085',
  '\u009b2J',
  '\u2066x\u2069',
  '\u2028',
];

export function hugeString(rng: Rng): string {
  const n = rng.pick([51, 101, 201, 2_049, 10_001, 65_537]);
  return rng.pick(['a', 'é', '日', '🦄', '%']).repeat(n);
}

export interface StringOptions {
  /** Control characters allowed (default true). */
  control?: boolean;
  /** Huge strings allowed (default true). */
  huge?: boolean;
}

export function hostileString(rng: Rng, opts: StringOptions = {}): string {
  const classes: [() => string, number][] = [
    [() => rng.pick(ASCII_EDGE), 3],
    [() => rng.pick(UNICODE), 3],
    [() => rng.pick(INJECTION), 2],
    [() => rng.pick(DATES), 2],
    [() => rng.pick(NUMBERS), 2],
    [() => `${rng.pick(['tx_', 'tag_', 'wal_', 'exp_', 'whk_', 'ws_'])}${rng.hex(rng.int(0, 12))}`, 2],
  ];
  if (opts.huge !== false) classes.push([() => hugeString(rng), 1]);
  if (opts.control !== false) classes.push([() => rng.pick(CONTROL), 2]);
  return rng.weighted(classes.map(([f, w]) => [f, w] as const))();
}

function nested(depth: number, leaf: unknown, asArray: boolean): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = asArray ? [v] : { a: v };
  return v;
}

/** JSON text nested `depth` levels deep (built as text: no recursion on either side of the test). */
export function deepJson(depth: number, asArray: boolean): string {
  return asArray ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** Any JSON value, mostly of the wrong type for where it goes. */
export function hostileValue(rng: Rng): unknown {
  return rng.weighted<() => unknown>([
    [() => hostileString(rng), 6],
    [() => rng.pick([0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, 0.1 + 0.2]), 2],
    [() => rng.pick([true, false]), 1],
    [() => null, 1],
    [() => [], 1],
    [() => ({}), 1],
    [() => [hostileString(rng), rng.int(-5, 5)], 1],
    [() => ({ [hostileString(rng, { huge: false })]: hostileString(rng) }), 1],
    [() => nested(rng.pick([2, 50]), hostileString(rng, { huge: false }), rng.chance(50)), 1],
  ])();
}
