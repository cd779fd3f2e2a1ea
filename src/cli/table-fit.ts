/**
 * Fitting a table to the terminal's width: which columns show and how wide, how a cell gives way,
 * and, when even that cannot fit, one record per row (`KEY  value` lines). Pure (text in, text
 * out); output.ts prints the result (docs/cli.md "Tables").
 */

/**
 * How a column gives way, in this order when the table is too wide: `end` (labels, names, types:
 * cut with `…`), `middle` (hashes, addresses, URLs: `…` in the middle, so both ends stay
 * recognisable), `money` (fiat values: thousands separators go, never a digit), `decimal`
 * (amounts: fraction digits cut with `…`, never the sign or integer digits), `date` (timestamps:
 * seconds, then the time of day). `keep` never (ids, which the next command needs whole).
 */
export type Fit = 'keep' | 'end' | 'middle' | 'money' | 'decimal' | 'date';

export interface Column {
  header: string;
  align?: 'left' | 'right';
  fit?: Fit;
  /** When even the narrowest cells do not fit, columns with `drop` hide, the lowest first; without it a column always shows. */
  drop?: number;
  /** The narrowest the column may become, whatever its fit: an `end` cell that starts with an id keeps the id whole. */
  min?: number;
  /**
   * Gives way to its hard limit before a droppable column hides, and before other columns go past
   * their soft limits (`tx list`: a day without its time beats a hidden or cut TAGS column).
   */
  yields?: boolean;
}

export interface Layout {
  /** Indexes of the columns shown, in order. */
  visible: number[];
  /** Content width of each shown column, in terminal cells. */
  widths: number[];
}

const GIVE_ORDER: Fit[] = ['end', 'middle', 'money', 'decimal', 'date'];
const DATE_FORMS = [16, 10]; // `YYYY-MM-DD HH:MM`, `YYYY-MM-DD`
const ELLIPSIS = '…';

/**
 * How narrow a cell may become: `hard` when nothing else helps, `soft` before a droppable column
 * hides instead (a label cut to `Treas…` says less than a column of whole ones).
 */
const LIMITS = {
  hard: { end: 6, middle: 13, separators: false, decimalDigits: 2, date: DATE_FORMS[1]! },
  soft: { end: 10, middle: 15, separators: true, decimalDigits: 6, date: DATE_FORMS[0]! },
};
type Limits = (typeof LIMITS)['hard'];

/** Between two columns: a borderless table (as `gh` prints one) spends no cell on a box. */
export const COLUMN_GAP = '  ';

/** A borderless table's width: its columns and a gap between each two. */
export function tableWidth(widths: number[]): number {
  return widths.reduce((sum, w) => sum + w, 0) + COLUMN_GAP.length * Math.max(0, widths.length - 1);
}

/** Terminal cells a character takes: 2 for East Asian wide and emoji, 0 for combining marks. */
function charWidth(cp: number): number {
  if ((cp >= 0x300 && cp <= 0x36f) || cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f)) return 0;
  const wide =
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd);
  return wide ? 2 : 1;
}

/** Width of text in terminal cells; colour codes take none. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text.replace(/\u001b\[[0-9;]*m/g, '')) width += charWidth(ch.codePointAt(0)!);
  return width;
}

/** The longest start of `text` that takes at most `width` cells. */
function head(text: string, width: number): string {
  let out = '';
  let used = 0;
  for (const ch of text) {
    used += charWidth(ch.codePointAt(0)!);
    if (used > width) break;
    out += ch;
  }
  return out;
}

function tail(text: string, width: number): string {
  return [...head([...text].reverse().join(''), width)].reverse().join('');
}

/** The narrowest a cell of this fit may become within `limits`. */
function cellMin(text: string, fit: Fit, limits: Limits): number {
  const natural = displayWidth(text);
  switch (fit) {
    case 'keep':
      return natural;
    case 'end':
      return Math.min(natural, limits.end);
    case 'middle':
      return Math.min(natural, limits.middle);
    case 'date':
      return Math.min(natural, limits.date);
    case 'money':
      return limits.separators ? natural : displayWidth(text.replace(/,/g, ''));
    case 'decimal': {
      // Sign and integer digits, the point and some fraction digits, then `…`; a magnitude below 1
      // keeps its first two significant digits (`-0.00042…`, never `-0.00…`).
      const point = text.indexOf('.');
      if (point < 0) return natural;
      const zeros = /^[+-]?0\.(0*)/.exec(text)?.[1]?.length;
      const digits = zeros === undefined ? limits.decimalDigits : Math.max(limits.decimalDigits, zeros + 2);
      return Math.min(natural, point + 1 + digits + 1);
    }
  }
}

/** `text` made to fit `width` cells the way its column gives way. */
export function shorten(text: string, width: number, fit: Fit): string {
  if (displayWidth(text) <= width) return text;
  switch (fit) {
    case 'middle': {
      const room = width - 1;
      return `${head(text, Math.ceil(room / 2))}${ELLIPSIS}${tail(text, Math.floor(room / 2))}`;
    }
    case 'date': {
      // A shorter timestamp is a coarser one, so it needs no `…`.
      const form = DATE_FORMS.find((f) => f <= width);
      if (form !== undefined) return text.slice(0, form);
      return `${head(text, width - 1)}${ELLIPSIS}`;
    }
    default:
      return `${head(text, width - 1)}${ELLIPSIS}`;
  }
}

/** The shown text of each shown cell; a money column too narrow for its separators drops them in every row alike. */
export function fitRows(columns: Column[], rows: string[][], { visible, widths }: Layout): string[][] {
  const plain = visible.map((c, k) => columns[c]!.fit === 'money' && rows.some((r) => displayWidth(r[c] ?? '') > widths[k]!));
  return rows.map((r) => visible.map((c, k) => (plain[k] ? (r[c] ?? '').replace(/,/g, '') : shorten(r[c] ?? '', widths[k]!, columns[c]!.fit ?? 'keep'))));
}

/**
 * Columns and widths so the table takes at most `total` cells: droppable columns hide, the lowest
 * first, while the others would have to give way past their soft limits; then columns give way in
 * GIVE_ORDER, the widest first, down to their soft limits, and only then down to their hard ones. Without a known width every column
 * shows at its natural width.
 */
export function fitColumns(columns: Column[], rows: string[][], total: number | undefined): Layout {
  const fits = columns.map((c) => c.fit ?? 'keep');
  const natural = columns.map((c, i) => Math.max(displayWidth(c.header), ...rows.map((r) => displayWidth(r[i] ?? ''))));
  // A header gives way like a label; the cells set the column's narrowest width.
  const minOf = (limits: Limits) =>
    columns.map((c, i) => Math.max(Math.min(displayWidth(c.header), LIMITS.hard.end), c.min ?? 0, ...rows.map((r) => cellMin(r[i] ?? '', fits[i]!, limits))));
  const min = minOf(LIMITS.hard);
  const soft = minOf(LIMITS.soft);
  // Whether droppable columns must hide is judged with the yielding columns at their hard limits;
  // the columns then still give way in the usual order, so a yielding one gives only what is needed.
  const beforeDropping = soft.map((w, i) => (columns[i]!.yields ? min[i]! : w));
  let visible = columns.map((_, i) => i);
  if (total === undefined) return { visible, widths: visible.map((i) => natural[i]!) };

  const droppable = () => visible.filter((i) => columns[i]!.drop !== undefined).sort((a, b) => columns[a]!.drop! - columns[b]!.drop!);
  while (tableWidth(visible.map((i) => beforeDropping[i]!)) > total && droppable().length > 0) {
    const gone = droppable()[0];
    visible = visible.filter((i) => i !== gone);
  }

  const widths = new Map(visible.map((i) => [i, natural[i]!]));
  let excess = tableWidth([...widths.values()]) - total;
  // Every column down to its soft limit before any goes further; past the soft limits the
  // yielding columns give first (`tx list`: a day without its time beats a tag name cut to `Staki…`).
  const passes: [number[], (i: number) => boolean][] = [
    [soft, () => true],
    [min, (i) => columns[i]!.yields === true],
    [min, () => true],
  ];
  for (const [limit, gives] of passes) {
    for (const fit of GIVE_ORDER) {
      const giving = visible.filter((i) => fits[i] === fit && gives(i));
      while (excess > 0) {
        const widest = giving.filter((i) => widths.get(i)! > limit[i]!).sort((a, b) => widths.get(b)! - widths.get(a)!)[0];
        if (widest === undefined) break;
        // A timestamp gives way a whole form at a time (seconds, then the time of day): a width between forms would show the shorter one anyway.
        const next = fit === 'date' ? Math.max(limit[widest]!, DATE_FORMS.find((f) => f < widths.get(widest)!) ?? limit[widest]!) : widths.get(widest)! - 1;
        excess -= widths.get(widest)! - next;
        widths.set(widest, next);
      }
    }
  }
  // What a timestamp's step gave beyond the excess goes back to the columns that gave way, labels first.
  for (const fit of GIVE_ORDER) {
    for (const i of visible.filter((k) => fits[k] === fit && fit !== 'date')) {
      while (excess < 0 && widths.get(i)! < natural[i]!) {
        widths.set(i, widths.get(i)! + 1);
        excess++;
      }
    }
  }
  return { visible, widths: visible.map((i) => widths.get(i)!) };
}

/**
 * How a table is shown in `total` cells: as a table when its columns fit (fitColumns), else one
 * record per row. The record form is for a table whose columns cannot give way enough (three
 * whole ids are 85 cells with their gaps): it shows every column, each value on its own line.
 */
export type Shape = { kind: 'table'; layout: Layout } | { kind: 'records' };

export function fitTable(columns: Column[], rows: string[][], total: number | undefined): Shape {
  const layout = fitColumns(columns, rows, total);
  if (total !== undefined && tableWidth(layout.widths) > total) return { kind: 'records' };
  return { kind: 'table', layout };
}

/**
 * One row as `KEY  value` lines, the keys padded to the longest header, each value given way to
 * fit `total` as its column gives way (a money value drops its separators, never a digit; an id
 * stays whole). `key` styles a header as printed (bold on a colour terminal).
 */
export function recordLines(columns: Column[], row: string[], total: number | undefined, key: (header: string) => string): string[] {
  const keyWidth = Math.max(...columns.map((c) => displayWidth(c.header)));
  const room = total === undefined ? Number.POSITIVE_INFINITY : Math.max(total - keyWidth - COLUMN_GAP.length, LIMITS.hard.end);
  return columns.map((c, i) => {
    const text = row[i] ?? '';
    const fit = c.fit ?? 'keep';
    const value = displayWidth(text) <= room || fit === 'keep' ? text : fit === 'money' ? text.replace(/,/g, '') : shorten(text, room, fit);
    const pad = ' '.repeat(keyWidth - displayWidth(c.header));
    return value === '' ? key(c.header) : `${key(c.header)}${pad}${COLUMN_GAP}${value}`;
  });
}
