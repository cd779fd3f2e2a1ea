/**
 * What every page carries: the header (product mark, title, workspace, period, currency,
 * generated-at) and the footer with "Page N of M", written once M is known (Canvas.later). Both
 * have fixed heights, so the content area is the same on every page.
 */
import { COLORS, MARGIN, PAGE_HEIGHT, PAGE_WIDTH, type Canvas, type Later } from './canvas.js';
import { dateTime, period, reportTitle } from './format.js';
import type { ExportJob } from '../types.js';

const TOP = 28;
export const CONTENT_TOP = 76;
export const CONTENT_BOTTOM = PAGE_HEIGHT - 36;
export const CONTENT_LEFT = MARGIN;
export const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const MARK = 28;
const FOOTER_Y = PAGE_HEIGHT - 28;

export interface PageChrome {
  /** Draws the current page's header and footer; its "Page N of M" waits for `finish`. */
  draw(canvas: Canvas): void;
  /** Writes every page's "Page N of M", once the document has all its pages. */
  finish(canvas: Canvas): void;
}

export function pageChrome(job: ExportJob): PageChrome {
  const title = reportTitle(job);
  const meta = [
    `Workspace: ${job.workspace.name}`,
    `Period: ${period(job.period)}`,
    `Currency: ${job.options.currency}`,
    `Generated: ${dateTime(job.createdAt)}`,
  ].join('     ');
  const footer = `txa · export ${job.exportId}`;
  const logo = job.options.include_logo !== false;
  const pageNumbers: Later[] = [];
  let paintFixed: (() => void) | null = null;
  return {
    draw(canvas) {
      // Everything but the page number is the same on every page: drawn once, painted on each.
      paintFixed ??= canvas.shared(() => {
        const x = logo ? MARGIN + MARK + 10 : MARGIN;
        if (logo) drawProductMark(canvas, MARGIN, TOP, MARK);
        canvas.text(title, x, TOP, CONTENT_WIDTH - (x - MARGIN), { size: 15, bold: true, color: COLORS.brand });
        canvas.text(meta, x, TOP + 21, CONTENT_WIDTH - (x - MARGIN), { size: 8, color: COLORS.muted });
        canvas.line(MARGIN, TOP + 36, PAGE_WIDTH - MARGIN, TOP + 36, COLORS.brand, 0.8);
        canvas.line(MARGIN, FOOTER_Y - 4, PAGE_WIDTH - MARGIN, FOOTER_Y - 4);
        canvas.text(footer, MARGIN, FOOTER_Y, CONTENT_WIDTH / 2, { size: 7, color: COLORS.muted });
      });
      paintFixed();
      pageNumbers.push(canvas.later());
    },
    finish(canvas) {
      const pages = pageNumbers.length;
      pageNumbers.forEach((later, i) => {
        canvas.fill(later, () =>
          canvas.text(`Page ${i + 1} of ${pages}`, MARGIN + CONTENT_WIDTH / 2, FOOTER_Y, CONTENT_WIDTH / 2, { size: 7, color: COLORS.muted }, 'right'),
        );
      });
      pageNumbers.length = 0;
    },
  };
}

/** The txa product mark, drawn as vectors: a ledger card with three entry lines and a check dot. */
function drawProductMark(canvas: Canvas, x: number, y: number, size: number): void {
  canvas.vector((doc) => {
    doc.save();
    doc.roundedRect(x, y, size, size, size * 0.22).fill(COLORS.brand);
    const unit = size / 28;
    for (const [i, w] of [16, 11, 13].entries()) {
      doc.roundedRect(x + 6 * unit, y + (7 + i * 6) * unit, w * unit, 2.6 * unit, 1.3 * unit).fill('#ffffff');
    }
    doc.circle(x + 21.5 * unit, y + 20.5 * unit, 3.2 * unit).fill(COLORS.accent);
    doc.restore();
  });
}
