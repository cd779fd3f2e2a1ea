/**
 * While a PDF or a whole-ledger report is made, V8's old generation may grow only 2× past what its last full collection
 * kept (heap-growth.ts): a report's fast allocation otherwise lets it grow ≈ 4×, and the audit of
 * 50,000 rows peaked above its 250 MB RSS budget with garbage. The same allocation pattern (a live
 * set, and objects kept long enough to reach the old generation, then dropped) peaks lower inside
 * the cap than outside it, and the cap is lifted once the export is done.
 */
import { describe, expect, it } from 'vitest';
import { withHeapGrowthCap } from '../../src/exporters/heap-growth.js';

/** Peak heap in use over the second half of a churn (the first lets the previous setting's limit pass). */
function churnPeak(): number {
  const live = Array.from({ length: 150_000 }, (_, i) => ({ i, s: `live ${i}` }));
  const ring: unknown[][] = new Array(48);
  let peak = 0;
  const rounds = 3000;
  for (let round = 0; round < rounds; round++) {
    // Each batch stays referenced for 48 rounds: long enough to be promoted, then garbage.
    ring[round % ring.length] = Array.from({ length: 2000 }, (_, i) => ({ round, i, s: `row ${round}:${i}` }));
    if (round >= rounds / 2) peak = Math.max(peak, process.memoryUsage().heapUsed);
  }
  expect(live.length + ring.length).toBeGreaterThan(0);
  return peak;
}

describe('heap growth cap of reports', () => {
  it('keeps the heap lower while an export runs, and is lifted after it', async () => {
    const before = churnPeak();
    const capped = await withHeapGrowthCap(async () => churnPeak());
    const after = churnPeak();
    expect(capped).toBeLessThan(before * 0.8);
    expect(capped).toBeLessThan(after * 0.8);
  });
});
