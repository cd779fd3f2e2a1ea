/**
 * Everything the CLI prints. stdout carries results: bordered tables on a TTY, tab-separated rows
 * without a header otherwise (so `cut` and `awk` work), or with `--json` exactly the API's body.
 * stderr carries progress, notices and errors. Colour only on a TTY and never with NO_COLOR/--no-color.
 */
import { createRequire } from 'node:module';
import { TxaError } from '../core/errors.js';

const require = createRequire(import.meta.url);

export interface OutputOptions {
  json: boolean;
  color: boolean;
}

export class Output {
  readonly stdoutTty = Boolean(process.stdout.isTTY);
  readonly stderrTty = Boolean(process.stderr.isTTY);
  readonly color: boolean;

  constructor(readonly opts: OutputOptions) {
    const noColor = (process.env.NO_COLOR ?? '') !== '' || process.env.TERM === 'dumb' || !opts.color;
    this.color = !noColor && this.stdoutTty;
  }

  get json(): boolean {
    return this.opts.json;
  }

  /** The API's success body, one JSON document on stdout. */
  body(body: unknown): void {
    process.stdout.write(`${JSON.stringify(body, null, this.stdoutTty ? 2 : undefined)}\n`);
  }

  /** A table of rows; headers are shown only on a TTY. */
  table(headers: string[], rows: (string | number | null | undefined)[][], align: ('left' | 'right')[] = []): void {
    const cells = rows.map((r) => r.map(cellText));
    if (!this.stdoutTty) {
      for (const r of cells) process.stdout.write(`${r.map(oneField).join('\t')}\n`);
      return;
    }
    const Table = require('cli-table3') as typeof import('cli-table3');
    const table = new Table({
      head: headers.map((h) => this.bold(h)),
      colAligns: headers.map((_, i) => align[i] ?? 'left'),
      style: { head: [], border: this.color ? ['grey'] : [] },
      wordWrap: true,
    });
    table.push(...cells);
    process.stdout.write(`${table.toString()}\n`);
  }

  /** One record as `key  value` lines (TTY) or `key\tvalue` (pipe). */
  record(pairs: [string, string | number | null | undefined][]): void {
    const width = Math.max(...pairs.map(([k]) => k.length));
    for (const [k, v] of pairs) {
      process.stdout.write(this.stdoutTty ? `${this.bold(k.padEnd(width))}  ${cellText(v)}\n` : `${k}\t${oneField(cellText(v))}\n`);
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
    process.stdout.write(`${text}\n`);
  }

  /** A notice for humans on stderr (never with --json, to keep scripts' stderr clean). */
  notice(text: string): void {
    if (!this.json) process.stderr.write(`${text}\n`);
  }

  warn(text: string): void {
    process.stderr.write(`${this.paint('33', 'warning:')} ${text}\n`);
  }

  error(err: TxaError): void {
    if (this.json) {
      process.stderr.write(`${JSON.stringify(err.toBody())}\n`);
      return;
    }
    const field = err.field ? ` (${err.field})` : '';
    process.stderr.write(`${this.paintErr('31', 'error:')} ${err.code}${field}: ${err.message}\n`);
    if (err.hint) process.stderr.write(`${err.hint}\n`);
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

function cellText(value: string | number | null | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}

/** A value as one TSV field: tabs and line breaks inside it would split the row. */
function oneField(value: string): string {
  return value.replace(/[\t\n\r]/g, ' ');
}
