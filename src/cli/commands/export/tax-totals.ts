/**
 * A tax report's totals in the terminal after `export create` (docs/exports.md): short-term,
 * long-term and total gain, read back from the CSV or JSON file just written, so the user sees the
 * figures without opening it. A PDF holds them in its information dictionary as well as in its
 * "Short-term and long-term" table (src/core/pdf-totals.ts).
 */
import { readFile } from 'node:fs/promises';
import { PDF_TOTAL_KEYS } from '../../../core/pdf-totals.js';
import type { Output } from '../../output.js';

const LABELS = [
  ['Short-term gain', 'short_term_gain'],
  ['Long-term gain', 'long_term_gain'],
  ['Total gain', 'total_gain'],
] as const;

/** The totals of a tax report file as [label, amount] pairs, or undefined (a report without its summary). */
async function totalsOf(file: string, format: string): Promise<[string, string][] | undefined> {
  if (format === 'pdf') return pdfTotals(await readFile(file));
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

/**
 * A PDF's totals from its information dictionary, or undefined (an older file, another report).
 * pdfkit writes each value as an object of its own (`/TxaTotalGain 117 0 R` … `117 0 obj (103434.25)`).
 */
function pdfTotals(bytes: Buffer): [string, string][] | undefined {
  const text = bytes.toString('latin1');
  const AMOUNT = String.raw`\((-?\d+\.\d{2})\)`;
  const found = LABELS.map(([label, key]) => {
    const ref = new RegExp(String.raw`/${PDF_TOTAL_KEYS[key]} (\d+) 0 R`).exec(text)?.[1];
    const value = ref === undefined ? undefined : new RegExp(String.raw`(?:^|\n)${ref} 0 obj\s*${AMOUNT}`).exec(text)?.[1];
    return value === undefined ? undefined : ([label, value] as [string, string]);
  });
  return found.every((f) => f !== undefined) ? (found as [string, string][]) : undefined;
}

/** Prints the totals of a tax report just written: to stderr, so stdout keeps the export's record. */
export async function printTaxTotals(out: Output, file: string, format: string, currency?: string): Promise<void> {
  const totals = await totalsOf(file, format).catch(() => undefined);
  if (!totals) {
    if (format === 'pdf') out.notice(`gains: see the report's "Short-term and long-term" table (--format csv or json prints them here too)`);
    return;
  }
  out.notice(totals.map(([label, value]) => `${label.toLowerCase()} ${value}${currency ? ` ${currency}` : ''}`).join(' · '));
}
