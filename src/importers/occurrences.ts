/**
 * How many times a key was seen before, for the whole of a file of millions of rows in a few
 * bytes per key (docs/import.md "Large files"): each key is kept as a 64-bit fingerprint in an
 * open-addressing table (8 bytes a slot, at most three quarters full: 8–16 bytes a key), and only keys seen more than once
 * keep a count of their own. A Map of the keys themselves (row text, ~100 bytes) held several
 * hundred MB for a 200 MB file. Two different keys with one fingerprint would count as one key:
 * with 64 bits, odds of about 1 in 10^7 for two million keys.
 */
export class Occurrences {
  private hi = new Uint32Array(1 << 10);
  private lo = new Uint32Array(1 << 10);
  private size = 0;
  /** Counts beyond the first sighting, by fingerprint. */
  private readonly repeats = new Map<string, number>();

  /** How many times `key` was seen before this call, and counts this sighting. */
  next(key: string): number {
    const [h, l] = fingerprint(key);
    if (this.insert(h, l)) return 0;
    const fp = `${h},${l}`;
    const n = this.repeats.get(fp) ?? 1;
    this.repeats.set(fp, n + 1);
    return n;
  }

  /** Whether `key` was seen before, counting this sighting. */
  seen(key: string): boolean {
    const [h, l] = fingerprint(key);
    return !this.insert(h, l);
  }

  /** Adds a fingerprint; false when it was there already. Slot (0, 0) marks empty, so a zero fingerprint is stored as (0, 1). */
  private insert(h: number, l: number): boolean {
    if (h === 0 && l === 0) l = 1;
    if (this.size * 4 >= this.hi.length * 3) this.grow();
    const mask = this.hi.length - 1;
    for (let i = l & mask; ; i = (i + 1) & mask) {
      if (this.hi[i] === 0 && this.lo[i] === 0) {
        this.hi[i] = h;
        this.lo[i] = l;
        this.size++;
        return true;
      }
      if (this.hi[i] === h && this.lo[i] === l) return false;
    }
  }

  private grow(): void {
    const { hi, lo } = this;
    this.hi = new Uint32Array(hi.length * 2);
    this.lo = new Uint32Array(lo.length * 2);
    this.size = 0;
    for (let i = 0; i < hi.length; i++) if (hi[i] !== 0 || lo[i] !== 0) this.insert(hi[i]!, lo[i]!);
  }
}

/** Two 32-bit lanes of a multiply-xorshift hash of the UTF-16 code units (cyrb53's mixing, both lanes kept). */
function fingerprint(key: string): [number, number] {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return [h1 >>> 0, h2 >>> 0];
}
