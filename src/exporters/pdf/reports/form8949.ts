/**
 * `form8949`: the disposals laid out as Form 8949 (docs/reports.md "Form 8949 and tax software"):
 * Part I (short-term) then Part II (long-term), each box on its own pages (the form takes one box
 * per page), columns (a)–(h) as the form names them, and the box's totals, which go to Schedule D.
 */
import type { Box, Part } from '../../../accounting/form8949.js';
import { formDate } from '../../../accounting/form8949.js';
import { quantityText } from '../../../accounting/quantity.js';
import { BoxTotalsBook, FormLines, type FormDisposal, type FormPiece } from '../../disposal-forms.js';
import type { ExportJob } from '../../types.js';
import { COLORS } from '../canvas.js';
import { CONTENT_LEFT, CONTENT_WIDTH } from '../chrome.js';
import { Flow, type Render } from '../flow.js';
import { groupDigits, money } from '../format.js';
import { tableSpec } from '../table.js';
import { assetLabel } from '../../../accounting/assets.js';

const PARTS: Record<Part, string> = {
  I: 'Part I — Short-Term. Transactions involving capital assets you held 1 year or less',
  II: 'Part II — Long-Term. Transactions involving capital assets you held more than 1 year',
};

/** What each box stands for, in the form's words. */
export const BOX_TITLES: Record<Box, string> = {
  A: 'Box A: short-term transactions reported on Form(s) 1099-B showing basis was reported to the IRS',
  B: "Box B: short-term transactions reported on Form(s) 1099-B showing basis wasn't reported to the IRS",
  C: 'Box C: short-term transactions not reported to you on Form 1099-B',
  D: 'Box D: long-term transactions reported on Form(s) 1099-B showing basis was reported to the IRS',
  E: "Box E: long-term transactions reported on Form(s) 1099-B showing basis wasn't reported to the IRS",
  F: 'Box F: long-term transactions not reported to you on Form 1099-B',
  G: 'Box G: short-term transactions reported on Form(s) 1099-DA showing basis was reported to the IRS',
  H: "Box H: short-term transactions reported on Form(s) 1099-DA showing basis wasn't reported to the IRS",
  I: 'Box I: short-term transactions not reported to you on Form 1099-DA',
  J: 'Box J: long-term transactions reported on Form(s) 1099-DA showing basis was reported to the IRS',
  K: "Box K: long-term transactions reported on Form(s) 1099-DA showing basis wasn't reported to the IRS",
  L: 'Box L: long-term transactions not reported to you on Form 1099-DA',
};

const cents = (c: bigint | null) => (c === null ? '' : money(c));

function collect(job: ExportJob): { pieces: Map<Box, FormPiece[]>; totals: BoxTotalsBook } {
  const form = new FormLines(job);
  const pieces = new Map<Box, FormPiece[]>();
  const totals = new BoxTotalsBook();
  const take = (disposals: FormDisposal[]) => {
    for (const d of disposals) {
      for (const p of d.pieces) {
        totals.add(p);
        const list = pieces.get(p.box);
        if (list) list.push(p);
        else pieces.set(p.box, [p]);
      }
    }
  };
  for (const { tx, reported } of job.ledgerRows()) take(form.add(tx, reported));
  // The ledger holds back its last second until the end.
  take(form.end());
  return { pieces, totals };
}

export function form8949Report(job: ExportJob): Render {
  const { pieces, totals } = collect(job);
  const spec = tableSpec(CONTENT_LEFT, CONTENT_WIDTH, [
    { label: '(a) Description of property', weight: 2.0 },
    { label: '(b) Date acquired', weight: 1.2 },
    { label: '(c) Date sold or disposed of', weight: 1.8 },
    { label: '(d) Proceeds', weight: 1.2, align: 'right' },
    { label: '(e) Cost or other basis', weight: 1.6, align: 'right' },
    { label: '(f) Code(s)', weight: 0.8 },
    { label: '(g) Adjustment', weight: 1.3, align: 'right' },
    { label: '(h) Gain or (loss)', weight: 1.4, align: 'right' },
  ]);
  return async (flow) => {
    const boxes = totals.list();
    if (boxes.length === 0) {
      flow.section('Form 8949: no disposals in the period');
      return;
    }
    for (const t of boxes) {
      // One box per page group, as the form is filed.
      flow.ensure(Flow.pageRoom + 1);
      flow.block(20, (y) => flow.canvas.text(PARTS[t.part], CONTENT_LEFT, y + 4, CONTENT_WIDTH, { size: 11, bold: true, color: COLORS.brand }));
      flow.block(14, (y) => flow.canvas.text(BOX_TITLES[t.box], CONTENT_LEFT, y, CONTENT_WIDTH, { size: 8.5, bold: true, color: COLORS.text }));
      flow.beginTable(spec);
      for (const p of pieces.get(t.box) ?? []) {
        const c = p.columns;
        flow.row([
          `${groupDigits(quantityText(p.line.quantity))} ${assetLabel(p.line.asset)}`,
          p.line.acquired ? formDate(p.line.acquired.at) : '',
          formDate(p.line.tx.timestamp),
          cents(c.proceeds),
          cents(c.basis),
          c.code,
          cents(c.adjustment),
          cents(c.gain),
        ]);
      }
      flow.row(
        [`Totals, box ${t.box} (${t.rows} row${t.rows === 1 ? '' : 's'})`, '', '', money(t.proceeds), money(t.basis), '', money(t.adjustment), money(t.gain)],
        {
          bold: true,
          fill: COLORS.headerFill,
        },
      );
      flow.endTable();
    }
  };
}
