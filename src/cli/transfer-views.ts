/** How own transfers and a transaction's history look in human output. */
import type { Output } from './output.js';
import type { HistoryEntry, Page, Transaction, Transfer } from '../core/types.js';
import { changeText, sourceText } from '../core/changes.js';
import { printNextPage } from './views.js';

/** One leg in a cell: its id first (what `transfers match` takes, kept whole when a table is cut), then wallet, signed amount and token, time. */
function legText(t: Transaction | undefined): string {
  if (!t) return '(not in the ledger)';
  return `${t.id} ${t.wallet_label} ${t.direction === 'outflow' ? '-' : '+'}${t.amount} ${t.token.symbol} (${t.chain ?? 'exchange'}) ${t.timestamp.replace('T', ' ').replace('Z', '')}`;
}

const outOf = (t: Transfer) => t.legs.find((l) => l.direction === 'outflow');
const inOf = (t: Transfer) => t.legs.find((l) => l.direction === 'inflow');

export function printTransfers(out: Output, page: Page<Transfer>): void {
  // A leg cut to fit keeps its id and the `…` after it.
  const legMin = 1 + Math.max(0, ...page.data.flatMap((t) => t.legs.map((l) => l.id.length)));
  out.table(
    [
      { header: 'ID' },
      { header: 'STATUS', fit: 'end', drop: 2 },
      { header: 'KIND', fit: 'end', drop: 3 },
      { header: 'MATCHED BY', fit: 'end', drop: 1 },
      { header: 'OUT', fit: 'end', min: legMin },
      { header: 'IN', fit: 'end', min: legMin },
    ],
    page.data.map((t) => [t.id ?? '—', t.status, t.kind, t.matched_by ?? '—', legText(outOf(t)), legText(inOf(t))]),
  );
  const p = page.pagination;
  const text = `${p.total} ${p.total === 1 ? 'transfer' : 'transfers'}${p.pages > 1 ? ` · page ${p.page} of ${p.pages}` : ''}`;
  if (out.stdoutTty) out.line(text);
  else out.notice(text);
  printNextPage(out, p);
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

/** `field: old → new; …`, and where an imported row came from. */
function changesText(h: HistoryEntry): string {
  const parts = Object.entries(h.changes).map(([field, c]) => changeText(field, c));
  if (h.source) parts.push(sourceText(h.source));
  return parts.join('; ');
}

export function printHistory(out: Output, entries: HistoryEntry[]): void {
  out.table(
    [{ header: 'DATE', fit: 'date' }, { header: 'EVENT' }, { header: 'ACTOR' }, { header: 'CHANGES', fit: 'end' }],
    entries.map((h) => [h.created_at, h.event, h.actor ?? '—', changesText(h)]),
  );
}
