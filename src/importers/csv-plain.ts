/**
 * The common case of a CSV stream read without csv-parse: lines of plain fields, each unquoted
 * without a quote in it, or quoted and closed on its line (`""` a quote), ended all by `\n` or all
 * by `\r\n`. Such lines are split here, over ten times faster than csv-parse fed the same text
 * (0.1 s against 2.0 s of CPU for 100,000 Kraken lines, the largest JavaScript cost of an
 * exchange import; bench/RESULTS.md "Session 13: exchange file import"). At the first line that
 * is anything else (a quoted field spanning lines, a stray quote or `\r`, a byte-order mark left
 * in the text, mixed line ends), the rest of the stream goes to `fallback` (csv-parse, csv.ts),
 * after as many empty lines as were read, so its lines, records and errors are exactly those it
 * gives for the whole text. test/importers/csv-plain.test.ts holds the two to the same answers
 * on random texts cut at random places.
 */
import type { CsvRow } from './types.js';

const QUOTE = 34;
const COMMA = 44;
const CR = 13;

/**
 * The cells of one line (without its line end), or undefined when it is not plain. A record
 * whose cells are all blank is kept here: csv-parse's `skip_records_with_empty_values` is applied
 * by the caller.
 */
function cellsOf(line: string): string[] | undefined {
  const cells: string[] = [];
  const n = line.length;
  let i = 0;
  for (;;) {
    if (line.charCodeAt(i) === QUOTE) {
      let value = '';
      let from = i + 1;
      for (;;) {
        const q = line.indexOf('"', from);
        if (q < 0) return undefined; // a quoted field going on past the line
        if (line.charCodeAt(q + 1) === QUOTE) {
          value += line.slice(from, q + 1);
          from = q + 2;
          continue;
        }
        value += line.slice(from, q);
        i = q + 1;
        break;
      }
      cells.push(value);
      if (i === n) return cells;
      if (line.charCodeAt(i) !== COMMA) return undefined; // csv-parse's "Invalid Closing Quote"
      i++;
    } else {
      const comma = line.indexOf(',', i);
      const end = comma < 0 ? n : comma;
      const value = line.slice(i, end);
      if (value.includes('"')) return undefined; // csv-parse's "Invalid Opening Quote"
      cells.push(value);
      if (comma < 0) return cells;
      i = comma + 1;
    }
  }
}

const blank = (cells: string[]): boolean => cells.every((c) => c.trim() === '');

/**
 * The records of a CSV text given in pieces, as csv-parse with csv.ts's options gives them
 * (header first, each with the line it ends on), plain lines split here and the rest by `fallback`.
 */
export function* plainCsvRows(pieces: Iterable<string>, fallback: (pieces: Iterable<string>) => Iterable<CsvRow>): Generator<CsvRow> {
  const it = pieces[Symbol.iterator]();
  /** `\r\n` or `\n` once the first line told; undefined before. */
  let ending: string | undefined;
  let line = 0;
  let text = '';
  let from = 0;
  /** The line at `from` is not plain: csv-parse reads the text from there on, after `line` empty lines. */
  const rest = (): Iterable<CsvRow> => {
    const tail = text.slice(from);
    return fallback({
      *[Symbol.iterator]() {
        yield (ending ?? '').repeat(line) + tail;
        for (let next = it.next(); !next.done; next = it.next()) yield next.value;
      },
    });
  };
  /** Takes one complete line (`end` excluded; `last`: no line end follows); false when it is not plain. */
  const take = (end: number, last: boolean): CsvRow | false | undefined => {
    let stop = end;
    if (!last) {
      if (ending === undefined) ending = text.charCodeAt(end - 1) === CR && end > from ? '\r\n' : '\n';
      if (ending === '\r\n') {
        if (text.charCodeAt(end - 1) !== CR || end === from) return false;
        stop = end - 1;
      }
    }
    const body = text.slice(from, stop);
    if (body.includes('\r') || (line === 0 && body.charCodeAt(0) === 0xfeff)) return false;
    const number = line + 1;
    if (body === '') return undefined; // an empty line: skipped, counted
    const cells = cellsOf(body);
    if (cells === undefined) return false;
    return blank(cells) ? undefined : { line: number, cells };
  };
  for (let next = it.next(); !next.done; next = it.next()) {
    text = from < text.length ? text.slice(from) + next.value : next.value;
    from = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
      const row = take(nl, false);
      if (row === false) {
        yield* rest();
        return;
      }
      if (row !== undefined) yield row;
      line++;
      from = nl + 1;
    }
  }
  if (from < text.length) {
    const row = take(text.length, true);
    if (row === false) {
      yield* rest();
      return;
    }
    if (row !== undefined) yield row;
  }
}
