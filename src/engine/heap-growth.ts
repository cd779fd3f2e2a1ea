/**
 * How far V8 lets a heap grow past what survived its last full collection. When collections are
 * cheap against the work between them (a ledger report's: it holds ~20 MB of lots and pending
 * events on the realistic 1M ledger) V8 grows the old generation to 4× that before collecting
 * again: Canada's report peaked at ~120 MB of heap for ~20 MB live. At 100 % (2×) its heap peaks
 * near 85 MB and the report's peak RSS ~45 MB lower, at the same CPU time; 50 % saved a little
 * more for ~18 % more CPU (bench/RESULTS.md "Session 14").
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 100;

let bounded = false;

/**
 * Bounds every heap's growth from now on, before a whole-ledger report: a process-wide V8 flag
 * (all threads, every later report; `txa serve` keeps it), which V8 reads each time it sets a
 * heap's next limit, so it holds after the start. Set once.
 */
export function boundHeapGrowth(): void {
  if (bounded) return;
  bounded = true;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
