/** The audited fields of a transaction and how two snapshots of it differ (change events, CONTRACT §9). */
import type { Changes } from '../core/changes.js';
import type { Transaction } from '../core/types.js';

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

