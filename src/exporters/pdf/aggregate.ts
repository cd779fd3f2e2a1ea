/** Totals of a report in exact integer cents, kept by any grouping key (month, tag, chain, token, tag type). */
import { centsOf, money } from './format.js';
import type { Transaction } from '../../core/types.js';

export interface FlowTotals {
  inflow: number;
  outflow: number;
  count: number;
  /** Transactions in the group without a fiat value (left out of inflow/outflow). */
  unpriced: number;
}

export const emptyTotals = (): FlowTotals => ({ inflow: 0, outflow: 0, count: 0, unpriced: 0 });

export function addTo(totals: FlowTotals, tx: Transaction): void {
  totals.count++;
  const cents = centsOf(tx.fiat_value);
  if (cents === null) totals.unpriced++;
  else if (tx.direction === 'inflow') totals.inflow += cents;
  else totals.outflow += cents;
}

export const net = (t: FlowTotals): number => t.inflow - t.outflow;

/** Groups totals by key, keeping a label and any extra facts per group. */
export class Breakdown<Extra = object> {
  readonly groups = new Map<string, { key: string; label: string; totals: FlowTotals } & Extra>();

  add(key: string, tx: Transaction, init: () => { label: string } & Extra): void {
    let group = this.groups.get(key);
    if (!group) {
      group = { key, totals: emptyTotals(), ...init() };
      this.groups.set(key, group);
    }
    addTo(group.totals, tx);
  }

  /** Groups by key order (months, names) or by the given comparator. */
  list(
    compare: (a: { key: string; label: string; totals: FlowTotals } & Extra, b: { key: string; label: string; totals: FlowTotals } & Extra) => number = (
      a,
      b,
    ) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  ) {
    return [...this.groups.values()].sort(compare);
  }
}

/** By volume (inflow + outflow), largest first, then by label: the order of tag and token tables. */
export const byVolume = (a: { label: string; totals: FlowTotals }, b: { label: string; totals: FlowTotals }): number =>
  b.totals.inflow + b.totals.outflow - (a.totals.inflow + a.totals.outflow) || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);

/** The cells inflow, outflow, net, count of a totals row. */
export function totalsCells(t: FlowTotals): string[] {
  return [money(t.inflow), money(t.outflow), money(net(t)), String(t.count)];
}
