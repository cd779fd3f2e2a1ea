/**
 * Page flow of a report, in one pass: blocks go onto the current page or start a new one, and
 * pages stream to the file as they are finished. What is known only at the end ("Page N of M")
 * is written then, into a spot each page reserved (Canvas.later).
 */
import { COLORS, type Canvas } from './canvas.js';
import { CONTENT_BOTTOM, CONTENT_LEFT, CONTENT_TOP, CONTENT_WIDTH, type PageChrome } from './chrome.js';
import { drawHeader, drawRow, drawRule, type RowStyle, type TableSpec } from './table.js';

/** A report's layout and drawing. */
export type Render = (flow: Flow) => Promise<void>;

export const SECTION_HEIGHT = 22;
export const SECTION_GAP = 14;

export class Flow {
  page = 0;
  y = CONTENT_TOP;
  private table: TableSpec | null = null;
  private striped = 0;

  constructor(
    readonly canvas: Canvas,
    private readonly chrome: PageChrome,
  ) {}

  /** Height of the content area of a page, below any repeated table header. */
  static get pageRoom(): number {
    return CONTENT_BOTTOM - CONTENT_TOP;
  }

  /** Starts a new page unless `height` still fits on this one. */
  ensure(height: number): void {
    if (this.page === 0 || this.y + height > CONTENT_BOTTOM + 0.01) this.newPage();
  }

  /** A fixed-height block kept on one page; `draw` receives its top. */
  block(height: number, draw: (y: number) => void): void {
    this.ensure(height);
    draw(this.y);
    this.y += height;
  }

  gap(height: number): void {
    this.y = Math.min(this.y + height, CONTENT_BOTTOM);
  }

  /** A section title, kept on the page with at least `keep` points of what follows. */
  section(title: string, keep = 40, note?: string): void {
    this.ensure(SECTION_HEIGHT + keep);
    this.canvas.text(title, CONTENT_LEFT, this.y + 4, CONTENT_WIDTH / 2, { size: 11, bold: true, color: COLORS.brand });
    if (note) this.canvas.text(note, CONTENT_LEFT + CONTENT_WIDTH / 2, this.y + 7, CONTENT_WIDTH / 2, { size: 7, color: COLORS.muted }, 'right');
    this.y += SECTION_HEIGHT;
  }

  /** Opens a table: its header is drawn now and again at the top of every page it runs onto. */
  beginTable(spec: TableSpec, title?: string, note?: string): void {
    const keep = spec.headerHeight + spec.rowHeight;
    if (title !== undefined) this.section(title, keep, note);
    else this.ensure(keep);
    this.table = spec;
    this.striped = 0;
    drawHeader(this.canvas, spec, this.y);
    this.y += spec.headerHeight;
  }

  /** One body row of the open table. */
  row(cells: readonly string[], style: RowStyle = {}): void {
    const spec = this.requireTable();
    this.ensure(spec.rowHeight);
    const fill = style.fill ?? (this.striped++ % 2 === 1 ? COLORS.zebra : undefined);
    drawRow(this.canvas, spec, cells, this.y, { ...style, ...(fill ? { fill } : {}) });
    this.y += spec.rowHeight;
  }

  /** A row of free drawing inside the open table (variable-height records are a run of these). */
  rowBlock(height: number, draw: (y: number) => void): void {
    this.requireTable();
    this.block(height, draw);
  }

  endTable(): void {
    const spec = this.requireTable();
    drawRule(this.canvas, spec, this.y);
    this.table = null;
    this.gap(SECTION_GAP);
  }

  /** Writes what every page waited for (its "Page N of M"). */
  finish(): void {
    this.chrome.finish(this.canvas);
  }

  private newPage(): void {
    this.page++;
    this.canvas.addPage();
    this.chrome.draw(this.canvas);
    this.y = CONTENT_TOP;
    if (this.table) {
      drawHeader(this.canvas, this.table, this.y);
      this.y += this.table.headerHeight;
    }
  }

  private requireTable(): TableSpec {
    if (!this.table) throw new Error('no open table');
    return this.table;
  }
}
