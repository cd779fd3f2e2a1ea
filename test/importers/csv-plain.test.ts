/**
 * The plain-line CSV reader (src/importers/csv-plain.ts) against csv-parse alone: the same records,
 * lines and errors for any text cut into any pieces, so an import reads every file as before.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { csvRows, parsedCsvRows } from '../../src/importers/csv.js';
import { plainCsvRows } from '../../src/importers/csv-plain.js';

/** The records, or the error's message, of a reader over `pieces`. */
function answer(read: (pieces: Iterable<string>) => Iterable<unknown>, pieces: string[]): unknown {
  try {
    return { rows: [...read(pieces)] };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** A text cut at the given places (as read-file.ts hands it over, in pieces of any length). */
function cut(text: string, at: number[]): string[] {
  const places = [...new Set(at.map((a) => a % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const p of places) {
    pieces.push(text.slice(from, p));
    from = p;
  }
  pieces.push(text.slice(from));
  return pieces;
}

const same = (text: string, at: number[] = []) => {
  const pieces = cut(text, at);
  expect(answer(csvRows, pieces)).toEqual(answer(parsedCsvRows, pieces));
};

describe('plain CSV lines', () => {
  it('reads plain lines itself and gives what csv-parse gives', () => {
    same('"txid","refid","amount"\n"L1","T1",-1500.0000\n"L2","T1",1.5\n');
    same('a,b,c\r\n1,"x, y",3\r\n\r\n4,"say ""hi""",\r\n', [3, 17]);
    same('a,b\n\n  ,\n"",""\n1,2');
    const never = () => {
      throw new Error('csv-parse was asked');
    };
    expect([...plainCsvRows(['"a","b"\r\n1,"x ""y"""\r', '\n\r\n  , \r\n2,'], never)]).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 2, cells: ['1', 'x "y"'] },
      { line: 5, cells: ['2', ''] },
    ]);
  });

  it('hands the rest to csv-parse at the first line that is not plain, with the same lines and errors', () => {
    same('a,b\n1,"two\nlines"\n3,4\n'); // a quoted field spanning lines
    same('a,b\n1,2\n3,x"y\n'); // a quote inside an unquoted field: csv-parse's error, its line
    same('a,b\n1,2\n"3"x,4\n'); // a character after a closing quote
    same('a,b\n1,2\n3,"4\n'); // a quote never closed
    same('a,b\r\n1,2\n3,4\r\n'); // mixed line ends
    same('\ufeffa,b\n1,2\n'); // a byte-order mark left in the text
    same('a,b\r1,2\r'); // old Mac line ends
  });

  it('agrees with csv-parse on random texts cut anywhere', () => {
    const char = fc.constantFrom('a', 'b', ' ', ',', ',', '"', '"', '\n', '\n', '\r', '\r\n', 'é', '\ufeff');
    const text = fc.array(char, { maxLength: 60 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 4 }), (t, at) => {
        same(t, at);
      }),
      { numRuns: 1000 },
    );
  });

  it('agrees on random files of plain-looking rows with a few flaws', () => {
    const cell = fc.oneof(
      fc.constantFrom('', 'x', '1.5', ' ', '-2'),
      fc.constantFrom('"a"', '"a,b"', '"say ""hi"""', '""', '"L1-A"'),
      fc.constantFrom('x"y', '"a"b', '"open', 'multi"\n"line'),
    );
    const row = fc.array(cell, { minLength: 1, maxLength: 4 }).map((cs) => cs.join(','));
    const file = fc
      .tuple(fc.array(row, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
      .map(([rows, end, last]) => rows.join(end) + (last ? end : ''));
    fc.assert(
      fc.property(file, fc.array(fc.nat(), { maxLength: 3 }), (t, at) => {
        same(t, at);
      }),
      { numRuns: 500 },
    );
  });
});
