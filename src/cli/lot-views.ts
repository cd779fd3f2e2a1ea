/** How the lots commands print (docs/lots.md): open lots, an allocation, picks; 80 columns first. */
import type { OpeningLot } from '../core/opening-lots.js';
import type { Allocation, LotPick, OpenLots } from '../core/lots.js';
import type { Output } from './output.js';

export function printOpenLots(out: Output, res: OpenLots): void {
  const where =
    res.scope === 'universal'
      ? 'pooled (one pool per asset, before 2025)'
      : `per wallet, from the ${res.allocation === 'recorded' ? 'recorded allocation' : "fifo order's allocation (none recorded)"}`;
  out.notice(`open lots at the end of ${res.at}: ${where}`);
  out.table(
    [
      { header: 'WALLET', fit: 'end', drop: 1 },
      { header: 'ASSET', fit: 'end' },
      { header: 'LOT' },
      { header: 'QUANTITY', align: 'right', fit: 'decimal' },
      { header: 'ACQUIRED', fit: 'date' },
      { header: 'COST BASIS', align: 'right', fit: 'money' },
    ],
    res.lots.map((l) => [l.wallet_label ?? '(pool)', l.asset, l.lot, l.quantity, l.date_acquired, out.money(l.cost_basis)]),
  );
  if (res.lots.length === 0) out.notice('no open lots');
}

export function printAllocation(out: Output, a: Allocation): void {
  const how = a.order === 'specific' ? 'hand-made' : `${a.order} order`;
  const state = a.recorded ? `recorded ${a.recorded_at} by ${a.recorded_by}` : 'dry run, not recorded';
  out.notice(`allocation at ${a.at} (${how}; pooled years filed ${a.cost_basis}): ${state}`);
  out.table(
    [
      { header: 'WALLET', fit: 'end' },
      { header: 'ASSET', fit: 'end' },
      { header: 'LOT' },
      { header: 'QUANTITY', align: 'right', fit: 'decimal' },
      { header: 'ACQUIRED', fit: 'date' },
      { header: 'COST BASIS', align: 'right', fit: 'money' },
    ],
    a.lines.map((l) => [l.wallet_label, l.asset, l.lot ?? 'missing cost basis', l.quantity, l.date_acquired, out.money(l.cost_basis)]),
  );
}

export function printPicks(out: Output, picks: LotPick[]): void {
  out.table(
    [
      { header: 'DISPOSAL' },
      { header: 'LOT' },
      { header: 'QUANTITY', align: 'right', fit: 'decimal' },
      { header: 'RECORDED', fit: 'date' },
      { header: 'NOTE', fit: 'end', drop: 1 },
    ],
    picks.map((p) => [p.disposal_id, p.lot, p.quantity ?? 'all', p.recorded_at, p.after_sale ? 'identified after the sale' : '']),
  );
  if (picks.length === 0) out.notice('no picks recorded');
}

/** Opening lots as a table (docs/lots.md "Opening lots"). */
export function printOpenings(out: Output, lots: OpeningLot[]): void {
  out.table(
    [
      { header: 'LOT' },
      { header: 'WALLET' },
      { header: 'ASSET' },
      { header: 'QUANTITY', align: 'right', fit: 'decimal' },
      { header: 'ACQUIRED', fit: 'date' },
      { header: 'COST', align: 'right' },
      { header: 'IMPORT' },
      { header: 'NOTE', fit: 'end', drop: 1 },
    ],
    lots.map((l) => [l.id, l.wallet_label, l.asset, l.quantity, l.date_acquired, l.cost_basis.toFixed(2), l.import_id, l.note]),
  );
  if (lots.length === 0) out.notice('no opening lots');
}
