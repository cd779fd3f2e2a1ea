/**
 * How each jurisdiction's tax report is laid out in a PDF (docs/jurisdictions.md): the return it
 * is for (the title), what its totals are on that return, the form's boxes where it numbers them,
 * and the lines' column labels.
 */
import { jurisdictionOf } from '../../accounting/jurisdictions/index.js';
import type { JurisdictionCode } from '../../core/jurisdictions.js';

export interface Layout {
  /** The return the report is laid out for: the PDF's title. */
  title: string;
  /** What the totals are on the return. */
  formNote: string;
  /** The form's box of a total, where it numbers them. */
  boxes?: Record<string, string>;
  /** The lines' columns: label and width (money columns right-aligned). */
  columns: Record<string, { label: string; weight: number }>;
}

export const LAYOUTS: Record<Exclude<JurisdictionCode, 'us'>, Layout> = {
  uk: {
    title: 'Capital gains on cryptoassets — SA108',
    formNote: 'SA108, cryptoassets: boxes as the 2024–25 form numbers them.',
    boxes: { disposals: '13.1', disposal_proceeds: '13.2', allowable_costs: '13.3', gains: '13.4', losses: '13.5' },
    columns: {
      date_sold: { label: 'Date', weight: 1.3 },
      asset: { label: 'Asset', weight: 0.9 },
      quantity: { label: 'Quantity', weight: 2 },
      proceeds: { label: 'Proceeds', weight: 1.6 },
      allowable_cost: { label: 'Allowable cost', weight: 1.6 },
      gain_loss: { label: 'Gain / loss', weight: 1.6 },
      matched: { label: 'Matched', weight: 1.8 },
      note: { label: 'Note', weight: 1.8 },
    },
  },
  ca: {
    title: 'Capital gains — Schedule 3',
    formNote: 'Schedule 3 (T1): crypto-asset dispositions.',
    columns: {
      date_sold: { label: 'Date', weight: 1.3 },
      asset: { label: 'Asset', weight: 0.9 },
      quantity: { label: 'Quantity', weight: 1.8 },
      proceeds: { label: 'Proceeds', weight: 1.5 },
      acb: { label: 'ACB', weight: 1.5 },
      outlays: { label: 'Outlays', weight: 1.1 },
      gain_loss: { label: 'Gain / loss', weight: 1.5 },
      superficial_loss_denied: { label: 'Superficial loss', weight: 1.4 },
      note: { label: 'Note', weight: 1.6 },
    },
  },
  de: {
    title: 'Private Veräußerungsgeschäfte und sonstige Einkünfte — Anlage SO',
    formNote: 'Anlage SO: § 23 EStG (Freigrenze) and § 22 Nr. 3 EStG (256 €).',
    columns: {
      type: { label: 'Art', weight: 1.3 },
      asset: { label: 'Asset', weight: 0.8 },
      quantity: { label: 'Menge', weight: 1.4 },
      date_acquired: { label: 'Angeschafft', weight: 1.3 },
      date_sold: { label: 'Veräußert', weight: 1.3 },
      proceeds: { label: 'Veräußerungspreis', weight: 1.5 },
      cost: { label: 'Anschaffungskosten', weight: 1.5 },
      fees: { label: 'Werbungskosten', weight: 1.2 },
      gain_loss: { label: 'Gewinn / Verlust', weight: 1.4 },
      holding: { label: 'Haltedauer', weight: 1.8 },
      wallet: { label: 'Wallet', weight: 1.1 },
      note: { label: 'Hinweis', weight: 1.2 },
    },
  },
  au: {
    title: 'Capital gains — item 18 (CGT)',
    formNote: 'Item 18 of the individual return: labels H, A and V.',
    boxes: { gross_gains: 'H', net_capital_gain: 'A', net_capital_loss: 'V' },
    columns: {
      date_acquired: { label: 'Acquired', weight: 1.3 },
      date_sold: { label: 'Disposed', weight: 1.3 },
      asset: { label: 'Asset', weight: 0.8 },
      quantity: { label: 'Quantity', weight: 1.6 },
      capital_proceeds: { label: 'Proceeds', weight: 1.6 },
      cost_base: { label: 'Cost base', weight: 1.6 },
      gain_loss: { label: 'Gain / loss', weight: 1.5 },
      discount_eligible: { label: '12 months', weight: 1 },
      wallet: { label: 'Wallet', weight: 1.2 },
      note: { label: 'Note', weight: 1.5 },
    },
  },
};

/** The PDF title of a jurisdiction's tax report: its country and its return. */
export function jurisdictionTitle(code: JurisdictionCode): string | null {
  return code === 'us' ? null : `${jurisdictionOf(code).name} — ${LAYOUTS[code].title}`;
}
