/**
 * Vector charts of the summary report: monthly inflow/outflow bars and inflow/outflow by tag.
 * Pixel geometry uses floating point; every printed figure comes from exact cents.
 */
import { COLORS, type Canvas } from './canvas.js';
import { money } from './format.js';

export interface Series {
  label: string;
  inflow: number;
  outflow: number;
  color?: string;
}

const TITLE = 18;
const TICK = { size: 6, color: COLORS.muted };

/** Inflow/outflow bars per month on a 0-based axis with gridlines. */
export function monthlyBars(canvas: Canvas, x: number, y: number, w: number, h: number, title: string, months: Series[]): void {
  chartTitle(canvas, x, y, w, title);
  const axisW = 40;
  const plot = { x: x + axisW, y: y + TITLE + 4, w: w - axisW - 4, h: h - TITLE - 20 };
  const max = Math.max(0, ...months.map((m) => Math.max(m.inflow, m.outflow)));
  const { step, top } = niceScale(max);
  for (let v = 0; v <= top; v += step) {
    const gy = plot.y + plot.h - (v / top) * plot.h;
    canvas.line(plot.x, gy, plot.x + plot.w, gy, v === 0 ? COLORS.muted : '#e3e6eb', v === 0 ? 0.7 : 0.4);
    canvas.text(compact(v), x, gy - 3, axisW - 4, TICK, 'right');
  }
  if (months.length === 0) {
    canvas.text('No transactions in the period', plot.x + 8, plot.y + plot.h / 2 - 4, plot.w - 16, { size: 8, color: COLORS.muted });
    return;
  }
  const slot = plot.w / months.length;
  const bar = Math.min(slot * 0.36, 16);
  const every = Math.ceil(months.length / Math.max(1, Math.floor(plot.w / 28)));
  months.forEach((m, i) => {
    const cx = plot.x + slot * i + slot / 2;
    for (const [value, color, dx] of [
      [m.inflow, COLORS.inflow, -bar],
      [m.outflow, COLORS.outflow, 0],
    ] as const) {
      const bh = (value / top) * plot.h;
      if (bh > 0) canvas.rect(cx + dx, plot.y + plot.h - bh, bar, bh, color);
    }
    if (i % every === 0) canvas.text(m.label, cx - (slot * every) / 2, plot.y + plot.h + 4, slot * every, TICK, 'center');
  });
}

/** Inflow and outflow per tag as pairs of horizontal bars, largest first. */
export function tagBars(canvas: Canvas, x: number, y: number, w: number, h: number, title: string, tags: Series[]): void {
  chartTitle(canvas, x, y, w, title);
  const top = y + TITLE + 4;
  if (tags.length === 0) {
    canvas.text('No tagged transactions', x + 8, top + 20, w - 16, { size: 8, color: COLORS.muted });
    return;
  }
  const labelW = Math.min(110, w * 0.3);
  const valueW = 56;
  const barArea = w - labelW - valueW - 8;
  const rowH = Math.min(22, (h - TITLE - 4) / tags.length);
  const bar = Math.min(6, rowH / 2 - 1.5);
  const max = Math.max(1, ...tags.map((t) => Math.max(t.inflow, t.outflow)));
  tags.forEach((t, i) => {
    const ry = top + i * rowH;
    canvas.rect(x, ry + rowH / 2 - 3, 6, 6, t.color ?? COLORS.muted);
    canvas.text(t.label, x + 9, ry + rowH / 2 - 3.5, labelW - 12, { size: 7 });
    for (const [value, color, dy] of [
      [t.inflow, COLORS.inflow, rowH / 2 - bar - 0.5],
      [t.outflow, COLORS.outflow, rowH / 2 + 0.5],
    ] as const) {
      const bw = (value / max) * barArea;
      if (bw > 0) canvas.rect(x + labelW, ry + dy, Math.max(bw, 0.8), bar, color);
      canvas.text(money(value), x + labelW + bw + 3, ry + dy + bar / 2 - 2.6, valueW + barArea - bw, { size: 5.5, color: COLORS.muted });
    }
  });
}

function chartTitle(canvas: Canvas, x: number, y: number, w: number, title: string): void {
  canvas.text(title, x, y, w * 0.62, { size: 8.5, bold: true, color: COLORS.brand });
  // Legend, right-aligned on the title line.
  let lx = x + w;
  for (const [label, color] of [
    ['Outflow', COLORS.outflow],
    ['Inflow', COLORS.inflow],
  ] as const) {
    const tw = canvas.width(label, { size: 7 });
    lx -= tw;
    canvas.text(label, lx, y + 1, tw + 1, { size: 7, color: COLORS.muted });
    lx -= 10;
    canvas.rect(lx, y + 2, 7, 7, color);
    lx -= 10;
  }
}

/** Axis step of 1, 2, 2.5 or 5 × 10^n cents giving four or five gridlines above zero. */
export function niceScale(maxCents: number): { step: number; top: number } {
  if (maxCents <= 0) return { step: 100, top: 400 };
  const rough = maxCents / 5;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((k) => k * magnitude).find((s) => s >= rough) ?? 10 * magnitude;
  return { step, top: Math.ceil(maxCents / step) * step };
}

/** Axis label of a cents value: 0, 950, 1.5k, 2M (labels only; figures elsewhere are exact). */
function compact(cents: number): string {
  const units = cents / 100;
  const abs = Math.abs(units);
  const [div, suffix] = abs >= 1e9 ? [1e9, 'B'] : abs >= 1e6 ? [1e6, 'M'] : abs >= 1e3 ? [1e3, 'k'] : [1, ''];
  const value = units / div;
  return `${Number.isInteger(value) ? value : value.toFixed(1).replace(/\.0$/, '')}${suffix}`;
}
