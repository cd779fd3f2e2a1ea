/** The audited fields of a transaction and how two snapshots of it differ (change events, docs/transfers.md "The audit trail"). */
import type { Engine } from './engine.js';
import type { Changes } from '../core/changes.js';
import type { Transaction } from '../core/types.js';
import { hydrate } from './transactions.js';
import { selectByIds } from '../store/transactions.js';

/** The fields a change event reports, as the audit trail shows them (tags and attachments by name). */
const AUDITED: Record<string, (t: Transaction) => unknown> = {
  notes: (t) => t.notes,
  tags: (t) => t.tags.map((g) => g.name),
  attachments: (t) => t.attachments.map((a) => a.file_name),
  fiat_value: (t) => t.fiat_value,
  fiat_value_source: (t) => t.fiat_value_source,
  spam: (t) => t.spam,
  transfer: (t) => t.transfer,
};

/** The audited fields that differ between two snapshots of a transaction, with old and new values. */
export function changesOf(before: Transaction, after: Transaction): Changes {
  const changes: Changes = {};
  for (const [field, view] of Object.entries(AUDITED)) {
    const [old, now] = [view(before), view(after)];
    if (JSON.stringify(old) !== JSON.stringify(now)) changes[field] = { old, new: now };
  }
  return changes;
}

/**
 * Runs `fn`, which changes the rows `ids` (those of them that exist), and emits
 * `transaction.updated` for each whose audited fields changed, with old and new values and
 * `extra` (an import's `source`, say). The rows are read in batches before and after, so a
 * change of many rows (a token marked spam) costs a few queries, not a few per row.
 */
export function changing<T>(engine: Engine, ws: string, ids: readonly string[], fn: () => T, extra: Record<string, unknown> = {}): T {
  // Most edits name no other row (a row's own change is its caller's event): nothing to read.
  if (ids.length === 0) return fn();
  const before = snapshots(engine, ws, ids);
  const result = fn();
  const after = new Map(snapshots(engine, ws, ids).map((tx) => [tx.id, tx]));
  const updated = engine.changes(ws, 'transaction.updated');
  for (const old of before) {
    const tx = after.get(old.id)!;
    const changes = changesOf(old, tx);
    if (Object.keys(changes).length) updated.add(tx.id, { transaction: tx, changes, ...extra });
  }
  updated.end();
  return result;
}

const snapshots = (engine: Engine, ws: string, ids: readonly string[]) => hydrate(engine, selectByIds(engine.db, ws, [...new Set(ids)]));
