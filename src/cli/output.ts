/**
 * Everything the CLI prints. stdout carries results: borderless tables on a TTY, tab-separated rows
 * without a header otherwise (so `cut` and `awk` work), or with `--json` exactly the API's body.
 * stderr carries progress, notices and errors. Colour only on a TTY and never with NO_COLOR/--no-color.
 * Every human line passes its data through `terminalSafe`, so a tag name or a server's message
 * cannot drive the terminal; `--json` bodies are printed exactly.
 */
import type { TxaError } from '../core/errors.js';
import { COLUMN_GAP, displayWidth, fitRows, fitTable, recordLines, shorten, type Column } from './table-fit.js';

/**
 * Characters a terminal acts on instead of showing: C0 controls but tab and line feed, DEL, C1
 * controls (U+009B is a CSI on its own), and the bidi embeddings, overrides and isolates that
 * reorder what follows them.
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Text for a terminal: each unsafe character shown as its `\uXXXX` escape (CRLF line ends become LF first). */
export function terminalSafe(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A cell Output styled itself from safe parts (a colour swatch): printed as it is. */
export class Styled {
  constructor(readonly text: string) {}
}

type Cell = string | number | null | undefined | Styled;

export type { Column } from './table-fit.js';

/** The terminal's width: `COLUMNS` when set, else what the terminal reports (unknown: no fitting). */
function terminalWidth(stdout: Sink): number | undefined {
  const fromEnv = Number(process.env.COLUMNS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return (stdout.columns ?? 0) > 0 ? stdout.columns : undefined;
}

/**
 * Parts joined by `separator`, starting a new line (after `indent`) where the next part would
 * pass `width` (none: one line); a part wider than the width stays whole on its own line.
 */
function fillLines(parts: string[], separator: string, width: number | undefined, indent = ''): string {
  if (width === undefined) return parts.join(separator);
  const lines: string[] = [];
  for (const part of parts) {
    const last = lines.at(-1);
    if (last !== undefined && displayWidth(last + separator + part) <= width) lines[lines.length - 1] = last + separator + part;
    else lines.push(last === undefined ? part : indent + part);
  }
  return lines.join('\n');
}

/** cli-table3 without a box (docs/cli.md "Tables"): columns COLUMN_GAP apart, as `gh` prints lists. */
const NO_BORDER = {
  ...Object.fromEntries(
    [
      'top',
      'top-mid',
      'top-left',
      'top-right',
      'bottom',
      'bottom-mid',
      'bottom-left',
      'bottom-right',
      'left',
      'left-mid',
      'mid',
      'mid-mid',
      'right',
      'right-mid',
    ].map((k) => [k, '']),
  ),
  middle: COLUMN_GAP,
};

export interface OutputOptions {
  json: boolean;
  color: boolean;
  /** Where stdout and stderr go: the process's by default; a test that runs a command in process passes its own. */
  streams?: Streams;
}

/** The part of a stream Output writes to. */
export interface Sink {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface Streams {
  stdout: Sink;
  stderr: Sink;
}

export class Output {
  readonly stdout: Sink;
  readonly stderr: Sink;
  readonly stdoutTty: boolean;
  readonly stderrTty: boolean;
  readonly color: boolean;

  constructor(readonly opts: OutputOptions) {
    this.stdout = opts.streams?.stdout ?? process.stdout;
    this.stderr = opts.streams?.stderr ?? process.stderr;
    this.stdoutTty = Boolean(this.stdout.isTTY);
    this.stderrTty = Boolean(this.stderr.isTTY);
    const noColor = (process.env.NO_COLOR ?? '') !== '' || process.env.TERM === 'dumb' || !opts.color;
    this.color = !noColor && this.stdoutTty;
  }

  get json(): boolean {
    return this.opts.json;
  }

  /** The API's success body, one JSON document on stdout. */
  body(body: unknown): void {
    this.stdout.write(`${JSON.stringify(body, null, this.stdoutTty ? 2 : undefined)}\n`);
  }

  /** A command's answer: with `--json` the API's success body `{ success: true, data }`, else its human form. */
  result(data: unknown, human: () => void): void {
    if (this.json) this.body({ success: true, data });
    else human();
  }

  /** A list page's answer: with `--json` the API's page body (`data` and `pagination`), else its human form. */
  page(page: object, human: () => void): void {
    if (this.json) this.body({ success: true, ...page });
    else human();
  }

  /**
   * A table of rows. In a pipe: every column, tab-separated, no header, nothing cut. On a TTY:
   * borderless, as `gh` prints lists (a header line, then one line per row, columns two spaces
   * apart, no box), fitted to the terminal's width as each column allows (table-fit.ts); columns
   * hidden to fit are named on stderr. When even the narrowest columns are wider than the
   * terminal, each row prints as a record of `KEY  value` lines instead (docs/cli.md "Tables").
   * A plain string column never gives way.
   */
  table(columns: (string | Column)[], rows: Cell[][], align: ('left' | 'right')[] = []): void {
    if (!this.stdoutTty) {
      for (const r of rows) this.stdout.write(`${r.map((v) => cellText(v, true)).join('\t')}\n`);
      return;
    }
    const cols = columns.map((c, i): Column => (typeof c === 'string' ? { header: c, align: align[i] } : c));
    const texts = rows.map((r) => r.map((v) => cellText(v, true)));
    const width = terminalWidth(this.stdout);
    const shape = fitTable(cols, texts, width);
    if (shape.kind === 'records') {
      const records = texts.map((r) => recordLines(cols, r, width, (h) => this.bold(h)));
      this.stdout.write(`${records.map((lines) => lines.join('\n')).join('\n\n')}\n`);
      return;
    }
    const { visible, widths } = shape.layout;
    const Table = require('cli-table3') as typeof import('cli-table3');
    const table = new Table({
      head: visible.map((c, k) => this.bold(shorten(cols[c]!.header, widths[k]!, 'end'))),
      colAligns: visible.map((c) => cols[c]!.align ?? 'left'),
      colWidths: widths,
      chars: NO_BORDER,
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
    });
    // A styled cell (a colour swatch) is never cut: its column is `keep`.
    const shown = fitRows(cols, texts, { visible, widths });
    table.push(...rows.map((r, j) => visible.map((c, k) => (r[c] instanceof Styled ? r[c].text : shown[j]![k]!))));
    this.stdout.write(`${table.toString().replace(/ +$/gm, '')}\n`);
    const hidden = cols.filter((_, i) => !visible.includes(i)).map((c) => c.header);
    if (hidden.length > 0) this.notice(`(hidden to fit: ${hidden.join(', ')}; --json shows all)`);
  }

  /**
   * Parts joined by `separator`, starting a new line (after `indent`) where the next part would
   * pass the terminal's width.
   */
  joinToWidth(parts: string[], separator: string, indent = ''): string {
    return fillLines(parts, separator, this.stdoutTty ? terminalWidth(this.stdout) : undefined, indent);
  }

  /** One record as `key  value` lines (TTY) or `key\tvalue` (pipe). */
  record(pairs: [string, Cell][]): void {
    const width = Math.max(...pairs.map(([k]) => k.length));
    for (const [k, v] of pairs) {
      this.stdout.write(this.stdoutTty ? `${this.bold(k.padEnd(width))}  ${cellText(v)}\n` : `${k}\t${cellText(v, true)}\n`);
    }
  }

  /** A fiat value to two decimals; thousands separators only on a TTY, so piped rows stay numbers for `awk`. */
  money(value: number | null): string {
    if (value === null) return '';
    const fixed = value.toFixed(2);
    if (!this.stdoutTty) return fixed;
    const [int, frac] = fixed.split('.');
    return `${int!.replace(/\B(?=(\d{3})+$)/g, ',')}.${frac}`;
  }

  /** A plain line of result text on stdout. */
  line(text = ''): void {
    this.stdout.write(`${terminalSafe(text)}\n`);
  }

  /** A bold line of result text (a section heading). */
  heading(text: string): void {
    this.stdout.write(`${this.bold(terminalSafe(text))}\n`);
  }

  /** A notice for humans on stderr (never with --json, to keep scripts' stderr clean), wrapped at words on a terminal. */
  notice(text: string): void {
    if (this.json) return;
    const width = this.stderrTty ? terminalWidth(this.stderr) : undefined;
    const lines = terminalSafe(text).split('\n');
    this.stderr.write(`${lines.map((line) => fillLines(line.split(' '), ' ', width)).join('\n')}\n`);
  }

  warn(text: string): void {
    this.stderr.write(`${this.paint('33', 'warning:')} ${terminalSafe(text)}\n`);
  }

  /** A remote server's message and field are data too, so the human line is made safe whole. */
  error(err: TxaError): void {
    if (this.json) {
      this.stderr.write(`${JSON.stringify(err.toBody())}\n`);
      return;
    }
    const field = err.field ? ` (${err.field})` : '';
    // One line, whatever a message echoes: a value's line feed is shown as `\n`.
    const line = terminalSafe(`${err.code}${field}: ${err.message}`).replaceAll('\n', '\\n');
    this.stderr.write(`${this.paintErr('31', 'error:')} ${line}\n`);
    if (err.hint) this.stderr.write(`${terminalSafe(err.hint)}\n`);
  }

  bold(text: string): string {
    return this.paint('1', text);
  }

  paint(code: string, text: string): string {
    return this.color ? `\u001b[${code}m${text}\u001b[0m` : text;
  }

  private paintErr(code: string, text: string): string {
    return this.color && this.stderrTty ? `\u001b[${code}m${text}\u001b[0m` : text;
  }
}

/** A cell's text; as one TSV field (`oneField`), tabs and line breaks inside it would split the row. */
function cellText(value: Cell, oneField = false): string {
  if (value instanceof Styled) return value.text;
  if (value === null || value === undefined) return '';
  const text = String(value);
  return terminalSafe(oneField ? text.replace(/[\t\n\r]/g, ' ') : text);
}
