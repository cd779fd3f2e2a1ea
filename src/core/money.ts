/**
 * Exact decimal handling. Token amounts are decimal strings in token units, converted to
 * BigInt base units where arithmetic is needed; fiat values are integer cents. Nothing here
 * ever goes through binary floating point.
 */

const PLAIN = /^([+-]?)(\d*)(?:\.(\d*))?$/;
const SCIENTIFIC = /^([+-]?)(\d*)(?:\.(\d*))?[eE]([+-]?\d+)$/;

/** Largest exponent we expand; uint256 has 78 digits, so anything larger is not an amount. */
const MAX_EXPONENT = 100;

/** Most integer digits a token amount (or an amount bound) may have: uint256's 78 digits. */
export const MAX_AMOUNT_DIGITS = 78;

/**
 * Canonical form of a decimal written plainly (`12.50`) or in scientific notation
 * (`9.39445E-05`, as spreadsheets write): no sign for zero, no leading zeros, no trailing
 * fraction zeros. Returns null when the text is not a number.
 */
export function normalizeDecimal(text: string): string | null {
  const s = text.trim();
  const quick = plainDecimal(s);
  if (quick !== undefined) return quick;
  let sign: string;
  let intDigits: string;
  let fracDigits: string;
  let exponent = 0;
  const plain = PLAIN.exec(s);
  if (plain) {
    [, sign = '', intDigits = '', fracDigits = ''] = plain;
  } else {
    const sci = SCIENTIFIC.exec(s);
    if (!sci) return null;
    sign = sci[1] ?? '';
    intDigits = sci[2] ?? '';
    fracDigits = sci[3] ?? '';
    exponent = Number(sci[4]);
    if (Math.abs(exponent) > MAX_EXPONENT) return null;
  }
  if (intDigits === '' && fracDigits === '') return null;
  let digits = intDigits + fracDigits;
  let pointAt = intDigits.length + exponent;
  if (pointAt < 0) {
    digits = '0'.repeat(-pointAt) + digits;
    pointAt = 0;
  } else if (pointAt > digits.length) {
    digits = digits + '0'.repeat(pointAt - digits.length);
  }
  const int = digits.slice(0, pointAt).replace(/^0+/, '') || '0';
  const frac = digits.slice(pointAt).replace(/0+$/, '');
  const body = frac ? `${int}.${frac}` : int;
  return body === '0' || sign !== '-' ? body : `-${body}`;
}

const ZERO = 48;
const NINE = 57;
const DOT = 46;
const MINUS = 45;
const PLUS = 43;

/**
 * normalizeDecimal of a trimmed plain decimal (`-1500.0000`, `0.5`, `+7`), found by one scan
 * instead of regular expressions: an importer normalizes two or three cells of every row
 * (bench/RESULTS.md "Session 14"). The same answers as the general path below; undefined for
 * any other text (scientific notation, no digits, stray characters), which that path reads.
 */
function plainDecimal(s: string): string | null | undefined {
  const n = s.length;
  let i = 0;
  const first = s.charCodeAt(0);
  const negative = first === MINUS;
  if (negative || first === PLUS) i = 1;
  const intStart = i;
  while (i < n && s.charCodeAt(i) >= ZERO && s.charCodeAt(i) <= NINE) i++;
  const intEnd = i;
  let fracEnd = i;
  if (i < n) {
    if (s.charCodeAt(i) !== DOT) return undefined;
    i++;
    while (i < n && s.charCodeAt(i) >= ZERO && s.charCodeAt(i) <= NINE) i++;
    if (i < n) return undefined;
    fracEnd = n;
  }
  const fracStart = intEnd + 1;
  if (intEnd === intStart && fracEnd <= fracStart) return undefined;
  let from = intStart;
  while (from < intEnd && s.charCodeAt(from) === ZERO) from++;
  let to = fracEnd;
  while (to > fracStart && s.charCodeAt(to - 1) === ZERO) to--;
  const int = from === intEnd ? '0' : s.slice(from, intEnd);
  const body = to > fracStart ? `${int}.${s.slice(fracStart, to)}` : int;
  return body === '0' || !negative ? body : `-${body}`;
}

/** Number of digits after the point in a canonical decimal. */
export function scaleOf(canonical: string): number {
  const dot = canonical.indexOf('.');
  return dot < 0 ? 0 : canonical.length - dot - 1;
}

/** Powers of ten up to 10^80 made once (token amounts have up to 78 digits): `10n ** BigInt(n)` per row costs a microsecond. */
const POWERS_OF_TEN = Array.from({ length: 81 }, (_, n) => 10n ** BigInt(n));

/** 10^n as a BigInt (n ≥ 0 a whole number). */
export function pow10(n: number): bigint {
  return POWERS_OF_TEN[n] ?? 10n ** BigInt(n);
}

/** Canonical decimal → BigInt scaled by 10^decimals. The caller checks the scale fits. */
export function toBaseUnits(canonical: string, decimals: number): bigint {
  const negative = canonical.startsWith('-');
  const unsigned = negative ? canonical.slice(1) : canonical;
  const [int = '0', frac = ''] = unsigned.split('.');
  if (frac.length > decimals) throw new RangeError(`${canonical} has more than ${decimals} decimals`);
  const value = BigInt(int + frac.padEnd(decimals, '0'));
  return negative ? -value : value;
}

/**
 * BigInt scaled by 10^decimals → canonical decimal. The fraction's trailing zeros are found by a
 * scan, not a regular expression: half the time (the reports print a quantity per line).
 */
export function fromBaseUnits(units: bigint, decimals: number): string {
  const negative = units < 0n;
  let digits = (negative ? -units : units).toString();
  if (digits.length <= decimals) digits = digits.padStart(decimals + 1, '0');
  const intEnd = digits.length - decimals;
  let end = digits.length;
  while (end > intEnd && digits.charCodeAt(end - 1) === 48) end--;
  const body = end === intEnd ? digits.slice(0, intEnd) : `${digits.slice(0, intEnd)}.${digits.slice(intEnd, end)}`;
  return negative && body !== '0' ? `-${body}` : body;
}

/**
 * An exact running sum of canonical decimals on BigInt base units, kept at the largest scale it
 * has met: SQLite's own sums are 64-bit integers or binary floats, and token amounts have up to
 * 78 digits (the running balances of `txa check`, the daily token flows of store/balance-days.ts).
 */
export class ExactSum {
  private units = 0n;
  private scale = 0;

  /** Adds `amount`, a canonical decimal of at most `decimals` places (by default its own). */
  add(amount: string, decimals = scaleOf(amount)): void {
    // unitsOf may rescale this.units: read it after the call, not before (as `+=` would).
    const units = this.unitsOf(amount, decimals);
    this.units = this.units + units;
  }

  /** Subtracts `amount`, as add. */
  subtract(amount: string, decimals = scaleOf(amount)): void {
    const units = this.unitsOf(amount, decimals);
    this.units = this.units - units;
  }

  /** A copy less `amount`: this sum after that outflow. */
  minus(amount: string): ExactSum {
    const after = new ExactSum();
    after.units = this.units;
    after.scale = this.scale;
    after.subtract(amount);
    return after;
  }

  get negative(): boolean {
    return this.units < 0n;
  }

  toString(): string {
    return fromBaseUnits(this.units, this.scale);
  }

  /** `amount` in base units at this sum's scale, raising the scale to `decimals` first if it is lower. */
  private unitsOf(amount: string, decimals: number): bigint {
    const units = toBaseUnits(amount, decimals);
    if (decimals > this.scale) {
      this.units *= pow10(decimals - this.scale);
      this.scale = decimals;
    }
    return units * pow10(this.scale - decimals);
  }
}

/** Number of integer digits of a canonical decimal, 0 below one (`0.5` → 0, `-12.5` → 2). */
export function integerDigits(canonical: string): number {
  const start = canonical.charCodeAt(0) === 45 ? 1 : 0; // '-'
  const dot = canonical.indexOf('.');
  const digits = (dot < 0 ? canonical.length : dot) - start;
  return digits === 1 && canonical.charCodeAt(start) === 48 ? 0 : digits; // '0'
}

/**
 * Sortable text key of a non-negative canonical decimal: two digits giving the length of the
 * integer part (0 for values below one), the integer digits, then the fraction digits.
 * Byte order of keys equals numeric order, so SQLite's BINARY collation sorts and range-filters
 * amounts exactly through an ordinary index (see docs/storage.md). The two-digit length is
 * why callers refuse amounts over MAX_AMOUNT_DIGITS integer digits first.
 */
export function amountKey(canonical: string): string {
  if (canonical.startsWith('-')) throw new RangeError('amount keys are for non-negative amounts');
  if (integerDigits(canonical) > MAX_AMOUNT_DIGITS) throw new RangeError(`${canonical} has more than ${MAX_AMOUNT_DIGITS} integer digits`);
  const [int = '0', frac = ''] = canonical.split('.');
  const intPart = int === '0' ? '' : int;
  return String(intPart.length).padStart(2, '0') + intPart + frac;
}

/** Compares two canonical decimals exactly. */
export function compareDecimal(a: string, b: string): number {
  const scale = Math.max(scaleOf(a), scaleOf(b));
  const x = toBaseUnits(a, scale);
  const y = toBaseUnits(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Exact sum of canonical decimals. */
export function addDecimals(values: Iterable<string>): string {
  let scale = 0;
  const list = [...values];
  for (const v of list) scale = Math.max(scale, scaleOf(v));
  let total = 0n;
  for (const v of list) total += toBaseUnits(v, scale);
  return fromBaseUnits(total, scale);
}

/** n / d rounded half to even; d > 0. */
export function divRoundHalfEven(n: bigint, d: bigint): bigint {
  if (d <= 0n) throw new RangeError('divisor must be positive');
  const q = n / d;
  const r = n % d;
  const twice = 2n * (r < 0n ? -r : r);
  if (twice < d) return q;
  const away = n < 0n ? q - 1n : q + 1n;
  if (twice > d) return away;
  return q % 2n === 0n ? q : away;
}

/**
 * Decimal text → integer cents, rounded half to even (banker's rounding, as accounting
 * software rounds sub-cent source values). Returns null when the text is not a number.
 */
export function decimalToCents(text: string): number | null {
  const canonical = normalizeDecimal(text);
  if (canonical === null) return null;
  return roundScaledHalfEven(canonical, 2);
}

/** Rounds a canonical decimal half-to-even to `scale` places and returns it scaled as a number. */
function roundScaledHalfEven(canonical: string, scale: number): number {
  const negative = canonical.startsWith('-');
  const unsigned = negative ? canonical.slice(1) : canonical;
  const [int = '0', frac = ''] = unsigned.split('.');
  const kept = BigInt(int + frac.slice(0, scale).padEnd(scale, '0'));
  const rest = frac.slice(scale);
  let rounded = kept;
  if (rest.length > 0) {
    const first = Number(rest[0]);
    const tailNonZero = /[1-9]/.test(rest.slice(1));
    if (first > 5 || (first === 5 && tailNonZero) || (first === 5 && !tailNonZero && kept % 2n === 1n)) {
      rounded = kept + 1n;
    }
  }
  const result = Number(negative ? -rounded : rounded);
  if (!Number.isSafeInteger(result)) throw new RangeError(`${canonical} is too large for a fiat value`);
  return result;
}

/** Integer cents → the JSON number of the API (two decimals at most). */
export function centsToNumber(cents: number): number {
  // A safe integer over 100 is one correctly rounded division, so the same double as reading its
  // decimal text (both round the same exact quotient), without a BigInt and a string per value.
  if (Number.isSafeInteger(cents)) return cents === 0 ? 0 : cents / 100;
  return Number(centsToString(cents));
}

/** Integer cents → fixed two-decimal text, e.g. `-1234.50`. */
export function centsToString(cents: number | bigint): string {
  const big = BigInt(cents);
  const negative = big < 0n;
  const digits = (negative ? -big : big).toString().padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}
