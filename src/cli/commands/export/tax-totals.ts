/**
 * A tax report's totals in the terminal after `export create` (docs/exports.md): short-term,
 * long-term and total gain, read back from the CSV or JSON file just written, so the user sees the
 * figures without opening it. A PDF's are in its "Short-term and long-term" table.
 */
import { readFile } from 'node:fs/promises';
import type { Output } from '../../output.js';

const LABELS = [
  ['Short-term gain', 'short_term_gain'],
  ['Long-term gain', 'long_term_gain'],
  ['Total gain', 'total_gain'],
] as const;

/** The totals of a tax report file as [label, amount] pairs, or undefined (a PDF, a report without its summary). */
async function totalsOf(file: string, format: string): Promise<[string, string][] | undefined> {
  const text = await readFile(file, 'utf8');
  if (format === 'json') {
    const totals = (JSON.parse(text) as { totals?: Record<string, number> }).totals;
    return totals && LABELS.map(([label, key]) => [label, (totals[key] ?? 0).toFixed(2)]);
  }
  if (format !== 'csv') return undefined;
  // The summary rows: the label in the first cell, the amount in the gain_loss column (the only other non-empty cell).
  const found = LABELS.map(([label]) => {
    const line = text.split('\n').find((l) => l.startsWith(`${label},`));
    const value = line
      ?.split(',')
      .slice(1)
      .find((c) => c !== '');
    return value === undefined ? undefined : ([label, value] as [string, string]);
  });
  return found.every((f) => f !== undefined) ? (found as [string, string][]) : undefined;
}

/** Prints the totals of a tax report just written: to stderr, so stdout keeps the export's record. */
export async function printTaxTotals(out: Output, file: string, format: string, currency?: string): Promise<void> {
  const totals = await totalsOf(file, format).catch(() => undefined);
  if (format === 'pdf') out.notice(`gains: see the report's "Short-term and long-term" table (--format csv or json prints them here too)`);
  if (!totals) return;
  out.notice(totals.map(([label, value]) => `${label.toLowerCase()} ${value}${currency ? ` ${currency}` : ''}`).join(' · '));
}
