/** What a change event reports (docs/transfers.md "The audit trail"): each changed field with its old and new value, and how the audit trail prints it. */
import type { ImportSource } from './types.js';
export type Changes = Record<string, { old: unknown; new: unknown }>;

/** A changed value as text: none as an em dash, lists joined, a transfer by its kind and counterpart. */
export function valueText(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (Array.isArray(v)) return v.length ? v.join(', ') : '—';
  if (typeof v === 'object') {
    const t = v as { kind?: string; counterpart_id?: string | null; matched_by?: string };
    return t.kind ? `${t.kind} transfer with ${t.counterpart_id ?? '(leg not in the ledger)'}, matched by ${t.matched_by}` : JSON.stringify(v);
  }
  return String(v);
}

/** `field: old → new`; a field of an event that recorded no values (older ledgers) alone. */
export function changeText(field: string, change: Partial<Changes[string]>): string {
  return 'old' in change ? `${field}: ${valueText(change.old)} → ${valueText(change.new)}` : field;
}

/** Where an imported row came from, as the audit trail prints it. */
export function sourceText(s: ImportSource): string {
  return 'sync' in s ? `from the ${s.sync} API (${s.chain}, ${s.list})` : `from ${s.file_name} (${s.format}), SHA-256 ${s.sha256}`;
}
