/**
 * A tax report's totals in the terminal after `export create` (docs/exports.md): short-term,
 * long-term and total gain, read back from the CSV or JSON file just written, so the user sees the
 * figures without opening it. A PDF holds them in its information dictionary as well as in its
 * "Short-term and long-term" table (src/core/pdf-totals.ts).
 */
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { PDF_TOTAL_KEYS, PDF_TOTAL_PREFIX } from '../../../core/pdf-totals.js';
import type { Output } from '../../output.js';

const LABELS = [
  ['Short-term gain', 'short_term_gain'],
  ['Long-term gain', 'long_term_gain'],
  ['Total gain', 'total_gain'],
] as const;

/**
 * The totals of a tax report file as [label, amount] pairs, or undefined (a report without its
 * summary). The US report's three gains by their labels; another jurisdiction's report (its JSON
 * `totals` have none of them) every total it has, labelled by its key.
 */
async function totalsOf(file: string, format: string): Promise<[string, string][] | undefined> {
  if (format === 'pdf') return pdfTotals(await readFile(file));
  const text = await readFile(file, 'utf8');
  if (format === 'json') {
    const totals = (JSON.parse(text) as { totals?: Record<string, number> }).totals;
    if (!totals) return undefined;
    if (!('total_gain' in totals)) return Object.entries(totals).map(([key, value]) => [labelOf(key), String(value)]);
    return LABELS.map(([label, key]) => [label, (totals[key] ?? 0).toFixed(2)]);
  }
  if (format !== 'csv') return undefined;
  // The summary rows: the label in the first cell, the amount in the only other non-empty cell.
  const summary = csvSummary(text);
  const found = LABELS.map(([label]) => summary.find(([l]) => l === label));
  return found.every((f) => f !== undefined) ? (found as [string, string][]) : summary.length > 0 ? summary : undefined;
}

/**
 * The rows after a CSV report's last empty row (a line of commas only), as [label, amount]: only
 * that tail is parsed, not the report's lines before it.
 */
function csvSummary(text: string): [string, string][] {
  const blank = [...text.matchAll(/^,+\r?$/gm)].at(-1);
  if (blank === undefined) return [];
  const rows = parse(text.slice(blank.index + blank[0].length), { relax_column_count: true }) as string[][];
  return rows.flatMap(([label = '', ...rest]) => {
    const value = rest.find((c) => c !== '');
    return label && value !== undefined ? [[label, value] as [string, string]] : [];
  });
}

/** `disposal_proceeds` → `disposal proceeds`. */
const labelOf = (key: string) => key.replaceAll('_', ' ');

/**
 * A PDF's totals from its information dictionary, or undefined (an older file, another report).
 * pdfkit writes each value as an object of its own (`/TxaTotalGain 117 0 R` … `117 0 obj (103434.25)`).
 */
function pdfTotals(bytes: Buffer): [string, string][] | undefined {
  const text = bytes.toString('latin1');
  const objectValue = (ref: string) => new RegExp(String.raw`(?:^|\n)${ref} 0 obj\s*\((-?\d+(?:\.\d+)?)\)`).exec(text)?.[1];
  const found = LABELS.map(([label, key]) => {
    const ref = new RegExp(String.raw`/${PDF_TOTAL_KEYS[key]} (\d+) 0 R`).exec(text)?.[1];
    const value = ref === undefined ? undefined : objectValue(ref);
    return value === undefined ? undefined : ([label, value] as [string, string]);
  });
  if (found.every((f) => f !== undefined)) return found as [string, string][];
  const others = [...text.matchAll(new RegExp(String.raw`/${PDF_TOTAL_PREFIX}(\w+) (\d+) 0 R`, 'g'))].flatMap(([, key, ref]) => {
    const value = objectValue(ref!);
    return value === undefined ? [] : [[labelOf(key!), value] as [string, string]];
  });
  return others.length > 0 ? others : undefined;
}

/** Prints the totals of a tax report just written: to stderr, so stdout keeps the export's record. */
export async function printTaxTotals(out: Output, file: string, format: string, currency?: string): Promise<void> {
  const totals = await totalsOf(file, format).catch(() => undefined);
  if (!totals) {
    if (format === 'pdf') out.notice(`gains: see the report's "Short-term and long-term" table (--format csv or json prints them here too)`);
    return;
  }
  const gains = totals.every(([label]) => LABELS.some(([l]) => l === label));
  const text = totals.map(([label, value]) => `${label.toLowerCase()} ${value}${gains && currency ? ` ${currency}` : ''}`).join(' · ');
  // Another jurisdiction's totals mix counts and money: its currency is said once.
  out.notice(gains ? text : `totals${currency ? ` (${currency})` : ''}: ${text}`);
}
