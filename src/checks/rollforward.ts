/**
 * `rollforward_difference` (docs/check.md): wallets and assets whose balance at the period's end
 * (the sum of their rows) differs from what their lots hold then (docs/accounting.md "Form 8949,
 * 1099-DA and the roll-forward"): an inflow without a value opened no lot, a disposal went
 * beyond the lots. The tax ledger runs over the history up to the period's end, FIFO with lots
 * per wallet throughout (a finding names a wallet; by year, a report's pool before 2025 and its
 * allocation may spread a difference between wallets otherwise).
 *
 * Only the wallets where a difference can arise are run (bench/RESULTS.md "Session 11"): a
 * wallet's lots hold what its rows add up to as long as every inflow opens a lot (it has a value,
 * is not spam, not an own-transfer leg, no opening lot came in) and no outflow takes more than
 * the lots hold, which cannot happen on a day whose opening balance covers all its outflows (the
 * daily flows of store/balance-days.ts, per token: a pooled asset's tokens then each cover
 * theirs; on a day where it does not, its rows are read, each second's outflows before its
 * inflows). Own-transfer legs put both of their wallets in the run, so its books are whole.
 */
import type { Engine } from '../engine/engine.js';
import { identity } from '../engine/rates.js';
import { ledgerRows, loadAssetTable } from '../engine/ledger-rows.js';
import { withSpamResolved } from '../store/transactions.js';
import { dayRowsReader, walletsOffTheirRows, type CheckPeriod, type DayRow } from '../store/checks.js';
import { balanceDays } from '../store/balance-days.js';
import { ExactSum } from '../core/money.js';
import { DAY_SECONDS, epochDay } from '../core/dates.js';
import { quantityText } from '../accounting/quantity.js';
import { RollForward } from '../accounting/rollforward.js';

export function rollforwardDifferences(
  engine: Engine,
  workspaceId: string,
  p: CheckPeriod,
  examples: number,
): { count: number; examples: Record<string, unknown>[] } {
  const wallets = walletsToRun(engine, workspaceId, p.endTs);
  if (wallets.size === 0) return { count: 0, examples: [] };
  const assets = loadAssetTable(engine);
  const roll = new RollForward({ method: 'fifo', scope: 'wallet', assets }, null);
  const filter = withSpamResolved(engine.db, workspaceId, p.endTs === undefined ? {} : { endTs: p.endTs });
  // Of a period, the wallets and assets with rows in it: a difference older than it is an older period's finding.
  const touched = new Set<string>();
  for (const { tx } of ledgerRows(engine, workspaceId, filter, identity, [...wallets])) {
    roll.add(tx);
    if (p.startTs !== undefined && Date.parse(tx.timestamp) / 1000 >= p.startTs) touched.add(`${tx.wallet_id} ${assets.assetOf(tx.chain, tx.token).key}`);
  }
  const off = roll.rows().filter((r) => r.difference.units !== 0n && (p.startTs === undefined || touched.has(`${r.scope} ${r.asset.key}`)));
  return {
    count: off.length,
    examples: off.slice(0, examples).map((r) => ({
      wallet_id: r.scope,
      wallet_label: r.wallet_label,
      asset: r.asset.symbol,
      balance: quantityText(r.balance),
      closing_quantity: quantityText(r.flows.closing.quantity),
      difference: quantityText(r.difference),
    })),
  };
}

/** The wallets whose lots may differ from their rows before `endTs` (module note); the daily flows must be complete. */
function walletsToRun(engine: Engine, workspaceId: string, endTs: number | undefined): Set<string> {
  const wallets = walletsOffTheirRows(engine.db, workspaceId, endTs);
  const end = endTs ?? Number.MAX_SAFE_INTEGER;
  const rowsOf = dayRowsReader(engine.db);
  let key: string | undefined;
  let balance = new ExactSum();
  for (const d of balanceDays(engine.db, workspaceId, epochDay(end - 1))) {
    if (wallets.has(d.wallet_id)) continue;
    const token = `${d.wallet_id}\u0000${d.token_symbol}\u0000${d.token_address}`;
    if (token !== key) {
      key = token;
      balance = new ExactSum();
    }
    // The opening balance less all the day's outflows is the lowest it can be, whatever the rows' order.
    const low = d.outflow === '0' ? balance : balance.minus(d.outflow);
    if (low.negative) {
      const dayStart = d.day * DAY_SECONDS;
      if (belowZeroInASecond(balance, rowsOf(workspaceId, d.wallet_id, dayStart, Math.min(dayStart + DAY_SECONDS, end), d.token_symbol, d.token_address))) {
        wallets.add(d.wallet_id);
        continue;
      }
    }
    balance = low;
    if (d.inflow !== '0') balance.add(d.inflow);
  }
  return wallets;
}

/**
 * Whether a day's rows (in time order) take the balance below zero, the rows of one second in any
 * order (order.ts orders them by more than time): each second's outflows before its inflows.
 */
function belowZeroInASecond(opening: ExactSum, rows: DayRow[]): boolean {
  const balance = opening.minus('0');
  for (let i = 0; i < rows.length; ) {
    const ts = rows[i]![3];
    let j = i;
    for (; j < rows.length && rows[j]![3] === ts; j++) if (rows[j]![2] !== 1) balance.subtract(rows[j]![0], rows[j]![1]);
    if (balance.negative) return true;
    for (let k = i; k < j; k++) if (rows[k]![2] === 1) balance.add(rows[k]![0], rows[k]![1]);
    i = j;
  }
  return false;
}
