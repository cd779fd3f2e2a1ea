/** How own transfers and a transaction's history look in human output. */
import type { Output } from './output.js';
import type { HistoryEntry, Page, Transaction, Transfer } from '../core/types.js';
import { changeText } from '../core/changes.js';

/** One leg in a cell: wallet, signed amount and token, time. */
function legText(t: Transaction | undefined): string {
  if (!t) return '(not in the ledger)';
  return `${t.wallet_label} ${t.direction === 'outflow' ? '-' : '+'}${t.amount} ${t.token.symbol} (${t.chain}) ${t.timestamp.replace('T', ' ').replace('Z', '')} ${t.id}`;
}

const outOf = (t: Transfer) => t.legs.find((l) => l.direction === 'outflow');
const inOf = (t: Transfer) => t.legs.find((l) => l.direction === 'inflow');

export function printTransfers(out: Output, page: Page<Transfer>): void {
  out.table(
    ['ID', 'STATUS', 'KIND', 'MATCHED BY', 'OUT', 'IN'],
    page.data.map((t) => [t.id ?? '—', t.status, t.kind, t.matched_by ?? '—', legText(outOf(t)), legText(inOf(t))]),
  );
  const p = page.pagination;
  const text = `${p.total} ${p.total === 1 ? 'transfer' : 'transfers'}${p.pages > 1 ? ` · page ${p.page} of ${p.pages}` : ''}`;
  if (out.stdoutTty) out.line(text);
  else out.notice(text);
}

export function printTransfer(out: Output, t: Transfer): void {
  out.record([
    ['id', t.id],
    ['kind', t.kind],
    ['matched_by', t.matched_by],
    ['out', legText(outOf(t))],
    ['in', legText(inOf(t))],
  ]);
}

/** `field: old → new; …`, or the import's source file. */
function changesText(h: HistoryEntry): string {
  const parts = Object.entries(h.changes).map(([field, c]) => changeText(field, c));
  if (h.source) parts.push(`from ${h.source.file_name} (${h.source.format}, sha256 ${h.source.sha256})`);
  return parts.join('; ');
}

export function printHistory(out: Output, entries: HistoryEntry[]): void {
  out.table(
    ['DATE', 'EVENT', 'ACTOR', 'CHANGES'],
    entries.map((h) => [h.created_at, h.event, h.actor ?? '—', changesText(h)]),
  );
}
