/**
 * Caps how far V8 lets the old generation grow between full collections while a PDF or a
 * whole-ledger report (tax, form8949, a jurisdiction's…) is made. A report allocates fast and its
 * garbage is cheap to collect, so V8 picks its largest growing factor (≈ 4×): an audit of 50,000
 * rows with a live heap of 30–45 MB collected at 77–95 MB and peaked at 240–256 MB RSS; Canada's
 * report over the 1M-row ledger kept ~20 MB and grew to 120 MB. At 2× they peak 35–45 MB lower for
 * a few more full collections of a small heap (bench/RESULTS.md, "Session 7, audit PDF round 2",
 * "Session 14"). The flag is process-wide (every thread) and read at every full collection, so it
 * is set for the exports running and reset after the last one.
 */
import { setFlagsFromString } from 'node:v8';

/** The old generation may grow to (1 + this / 100) × what survived the last full collection. */
const GROWING_PERCENT = 100;

let running = 0;

export async function withHeapGrowthCap<T>(make: () => Promise<T>): Promise<T> {
  if (running++ === 0) setFlagsFromString(`--heap-growing-percent=${GROWING_PERCENT}`);
  try {
    return await make();
  } finally {
    // 0 is V8's default: its own factor, from how fast the program allocates and collects.
    if (--running === 0) setFlagsFromString('--heap-growing-percent=0');
  }
}
