/**
 * What the lots modules share (docs/lots.md): exact decimals and money as the API shows them, the
 * closed-period hook of their writes, and how they write (computeThenWrite).
 */
import type { Engine } from './engine.js';
import { centsToString, normalizeDecimal, scaleOf, toBaseUnits } from '../core/money.js';
import { eventVersion } from '../store/events.js';
import { assertOpen } from './periods.js';

export const money = (cents: bigint | null) => (cents === null ? null : Number(centsToString(cents)));
export const day = (iso: string) => (iso === '' ? null : iso.slice(0, 10));

/** A positive exact decimal, or null. */
export function positive(text: string): string | null {
  const q = normalizeDecimal(text);
  return q === null || q.startsWith('-') || q === '0' ? null : q;
}

/** Exact decimals at one scale. */
export const units = (q: string, scale: number) => toBaseUnits(normalizeDecimal(q)!, scale);
export const scaleOfText = (q: string) => scaleOf(normalizeDecimal(q)!.replace(/^-/, ''));

/**
 * A lots write changes what rows dated at or after `ts` take (an allocation at `at`, a
 * disposal's picks): refused with PERIOD_CLOSED naming `field` while that moment is in a closed
 * period (docs/periods.md, "The guard").
 */
export function assertLotDateOpen(engine: Engine, workspaceId: string, ts: number, field: string): void {
  assertOpen(engine, workspaceId, { timestamps: [ts], field });
}

/**
 * Computes in a read snapshot, then writes in a write transaction that first checks no event of
 * the workspace came in between (every change the lots depend on appends one, docs/storage.md
 * "The event log"), computing again under the write lock only if one did. The ledger pass takes
 * seconds on a large ledger; holding the write lock for it would make other writers wait past
 * their busy timeout. What is written is always what the rows at the commit give.
 */
export function computeThenWrite<C, T>(engine: Engine, ws: string, compute: () => C, write: (computed: C) => T): T {
  const first = engine.db.transaction(() => ({ version: eventVersion(engine.db, ws), computed: compute() }))();
  return engine.write(() => write(eventVersion(engine.db, ws) === first.version ? first.computed : compute()));
}
