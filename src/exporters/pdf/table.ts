/** Fixed-height table rows: a header band and body rows with right-aligned figures. */
import { COLORS, type Canvas } from './canvas.js';

export interface Column {
  label: string;
  width: number;
  align?: 'left' | 'right';
}

export interface TableSpec {
  columns: Column[];
  x: number;
  /** Font size of body rows. */
  size: number;
  rowHeight: number;
  headerHeight: number;
}

export interface RowStyle {
  bold?: boolean;
  fill?: string;
  /** Per-cell text colours (e.g. gains green, losses red). */
  colors?: (string | undefined)[];
}

const PAD = 3;

/** A table whose columns share `width`; `weights` are relative column widths. */
export function tableSpec(x: number, width: number, columns: (Omit<Column, 'width'> & { weight: number })[], size = 7.5): TableSpec {
  const total = columns.reduce((s, c) => s + c.weight, 0);
  return {
    x,
    size,
    rowHeight: Math.round(size * 1.5 * 10) / 10,
    headerHeight: Math.round(size * 1.9 * 10) / 10,
    columns: columns.map(({ weight, ...c }) => ({ ...c, width: (width * weight) / total })),
  };
}

export function tableWidth(spec: TableSpec): number {
  return spec.columns.reduce((s, c) => s + c.width, 0);
}

export function drawHeader(canvas: Canvas, spec: TableSpec, y: number): void {
  canvas.rect(spec.x, y, tableWidth(spec), spec.headerHeight, COLORS.headerFill);
  const ty = y + (spec.headerHeight - spec.size) / 2 - 0.5;
  let x = spec.x;
  for (const col of spec.columns) {
    canvas.text(col.label, x + PAD, ty, col.width - 2 * PAD, { size: spec.size, bold: true, color: COLORS.brand }, col.align);
    x += col.width;
  }
}

export function drawRow(canvas: Canvas, spec: TableSpec, cells: readonly string[], y: number, style: RowStyle = {}): void {
  if (style.fill) canvas.rect(spec.x, y, tableWidth(spec), spec.rowHeight, style.fill);
  const ty = y + (spec.rowHeight - spec.size) / 2 - 0.5;
  // One cell in a table of several is a message ("No disposals in the period"): it spans the row, uncut.
  if (cells.length === 1 && spec.columns.length > 1) {
    canvas.text(cells[0]!, spec.x + PAD, ty, tableWidth(spec) - 2 * PAD, {
      size: spec.size,
      bold: style.bold ?? false,
      color: style.colors?.[0] ?? COLORS.text,
    });
    return;
  }
  let x = spec.x;
  spec.columns.forEach((col, i) => {
    const text = cells[i] ?? '';
    const textStyle = { size: spec.size, bold: style.bold ?? false, color: style.colors?.[i] ?? COLORS.text };
    canvas.text(text, x + PAD, ty, col.width - 2 * PAD, textStyle, col.align);
    x += col.width;
  });
}

/** A rule under the last row, so a table reads as closed. */
export function drawRule(canvas: Canvas, spec: TableSpec, y: number): void {
  canvas.line(spec.x, y, spec.x + tableWidth(spec), y);
}
