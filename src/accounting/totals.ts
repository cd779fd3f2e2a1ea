/**
 * Totals of a tax report's lines: gains by term (only lines with both a cost and proceeds have
 * a gain), the missing-cost-basis rows, income, and the same per asset for the PDF's table.
 */
import type { Asset } from './assets.js';
import type { Term } from './holding.js';
import { addQuantity, ZERO, type Quantity } from './quantity.js';
import type { TaxLine } from './tax-ledger.js';

export interface GainTotals {
  proceedsCents: bigint;
  costCents: bigint;
  gainCents: bigint;
}

export interface AssetTotals extends GainTotals {
  asset: Asset;
  /** Every quantity disposed of, covered by lots or not. */
  disposed: Quantity;
  missing: Quantity;
}

const noGains = (): GainTotals => ({ proceedsCents: 0n, costCents: 0n, gainCents: 0n });

export class TaxTotals {
  readonly byTerm: Record<Term, GainTotals> = { short: noGains(), long: noGains() };
  /** Lines without a cost basis. */
  missingRows = 0;
  incomeCents = 0n;
  incomeRows = 0;
  private readonly assets = new Map<string, AssetTotals>();

  add(line: TaxLine): void {
    if (line.kind === 'income') {
      this.incomeRows++;
      this.incomeCents += line.valueCents ?? 0n;
      return;
    }
    let a = this.assets.get(line.asset.key);
    if (!a) {
      a = { asset: line.asset, disposed: ZERO, missing: ZERO, ...noGains() };
      this.assets.set(line.asset.key, a);
    }
    a.disposed = addQuantity(a.disposed, line.quantity);
    if (line.costCents === null) {
      this.missingRows++;
      a.missing = addQuantity(a.missing, line.quantity);
    } else if (line.gainCents !== null) {
      for (const t of [this.byTerm[line.term!], a]) {
        t.proceedsCents += line.proceedsCents!;
        t.costCents += line.costCents;
        t.gainCents += line.gainCents;
      }
    }
  }

  get total(): GainTotals {
    const { short, long } = this.byTerm;
    return {
      proceedsCents: short.proceedsCents + long.proceedsCents,
      costCents: short.costCents + long.costCents,
      gainCents: short.gainCents + long.gainCents,
    };
  }

  /** Per asset, by name. */
  perAsset(): AssetTotals[] {
    return [...this.assets.values()].sort((x, y) =>
      x.asset.symbol < y.asset.symbol ? -1 : x.asset.symbol > y.asset.symbol ? 1 : x.asset.key < y.asset.key ? -1 : 1,
    );
  }
}
