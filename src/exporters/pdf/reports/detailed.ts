/** `detailed`: every transaction on fixed-height rows, then the totals. */
import { addTo, emptyTotals, net } from '../aggregate.js';
import { COLORS } from '../canvas.js';
import { CONTENT_LEFT, CONTENT_WIDTH } from '../chrome.js';
import type { Render } from '../flow.js';
import { day, fiat, groupDigits, money, shortHash } from '../format.js';
import { progress } from '../progress.js';
import { tableSpec } from '../table.js';
import type { Transaction } from '../../../core/types.js';
import type { ExportJob } from '../../types.js';

const TOTALS_HEIGHT = 4 * 13 + 24;

export function detailedReport(job: ExportJob): Render {
  const currency = job.options.currency;
  const spec = tableSpec(
    CONTENT_LEFT,
    CONTENT_WIDTH,
    [
      { label: 'Date', weight: 1.3 },
      { label: 'Wallet', weight: 2.2 },
      { label: 'Chain', weight: 1.2 },
      { label: 'Type', weight: 1.4 },
      { label: 'Direction', weight: 1.2 },
      { label: 'Amount', weight: 2.6, align: 'right' },
      { label: 'Token', weight: 1.1 },
      { label: `Value (${currency})`, weight: 1.8, align: 'right' },
      { label: 'Tags', weight: 2.9 },
      { label: 'Hash', weight: 1.7 },
    ],
    7,
  );
  return async (flow) => {
    const count = job.transactionCount;
    flow.beginTable(spec, 'Transactions', `${count} transaction${count === 1 ? '' : 's'}, oldest first`);
    const totals = emptyTotals();
    const tick = progress(job);
    for (const tx of job.rows()) {
      flow.row(cells(tx), tx.direction === 'outflow' ? { colors: OUTFLOW_COLORS } : {});
      addTo(totals, tx);
      tick.tick();
      await flow.canvas.drain();
    }
    tick.done();
    if (totals.count !== count) throw new Error(`detailed report expected ${count} rows, the export yielded ${totals.count}`);
    flow.endTable();
    flow.section('Totals', TOTALS_HEIGHT - 22);
    flow.block(TOTALS_HEIGHT - 22, (y) => {
      const lines: [string, string][] = [
        [`Total inflow (${currency})`, money(totals.inflow)],
        [`Total outflow (${currency})`, money(totals.outflow)],
        [`Net flow (${currency})`, money(net(totals))],
        ['Transaction count', String(totals.count)],
      ];
      lines.forEach(([label, value], i) => {
        flow.canvas.text(label, CONTENT_LEFT, y + i * 13, 160, { size: 8.5, bold: i < 3 });
        flow.canvas.text(value, CONTENT_LEFT + 160, y + i * 13, 120, { size: 8.5, bold: i < 3 }, 'right');
      });
      if (totals.unpriced > 0) {
        flow.canvas.text(`${totals.unpriced} transaction(s) without a fiat value are not in the totals.`, CONTENT_LEFT + 300, y, 400, {
          size: 7,
          color: COLORS.muted,
        });
      }
    });
  };
}

// The value column of outflows in red, like an accounting ledger.
const OUTFLOW_COLORS = [undefined, undefined, undefined, undefined, undefined, undefined, undefined, COLORS.outflow];

function cells(tx: Transaction): string[] {
  return [
    day(tx.timestamp),
    tx.wallet_label,
    tx.chain ?? 'exchange',
    tx.type,
    tx.direction,
    groupDigits(tx.amount),
    tx.token.symbol,
    fiat(tx.fiat_value),
    tx.tags.map((t) => t.name).join(', '),
    shortHash(tx.tx_hash),
  ];
}
