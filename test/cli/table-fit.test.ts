/** Fitting tables to the terminal: how cells give way, which columns hide, and that the result fits. */
import { describe, expect, it } from 'vitest';
import { displayWidth, fitColumns, fitRows, fitTable, recordLines, shorten, tableWidth, type Column } from '../../src/cli/table-fit.js';

describe('shorten', () => {
  it('cuts hashes and addresses in the middle, keeping both ends', () => {
    expect(shorten('0x140c2a1b9d3e4f5a6b7c8d9e0f1a2b3c4dfaa966', 13, 'middle')).toBe('0x140c…faa966');
  });
  it('cuts labels at the end, by display width (a CJK character takes two cells)', () => {
    expect(shorten('Treasury Safe', 8, 'end')).toBe('Treasur…');
    expect(shorten('日本の財務ウォレット', 7, 'end')).toBe('日本の…');
    expect(displayWidth(shorten('日本の財務ウォレット', 7, 'end'))).toBeLessThanOrEqual(7);
  });
  it('cuts only fraction digits of an amount', () => {
    expect(shorten('+0.063128820034167869', 10, 'decimal')).toBe('+0.063128…');
  });
  it('makes a timestamp coarser instead of cutting it', () => {
    expect(shorten('2026-10-31 20:42:55', 18, 'date')).toBe('2026-10-31 20:42');
    expect(shorten('2026-10-31 20:42:55', 12, 'date')).toBe('2026-10-31');
  });
  it('leaves what fits alone, whatever the fit', () => {
    for (const fit of ['keep', 'end', 'middle', 'decimal', 'date'] as const) expect(shorten('abc', 3, fit)).toBe('abc');
  });
});

describe('fitColumns', () => {
  const columns: Column[] = [
    { header: 'DATE', fit: 'date' },
    { header: 'ID' },
    { header: 'WALLET', fit: 'end', drop: 2 },
    { header: 'TYPE', fit: 'end', drop: 1 },
    { header: 'AMOUNT', fit: 'decimal' },
    { header: 'TAGS', fit: 'end', drop: 3 },
  ];
  const rows = [
    ['2026-10-31 20:42:55', 'tx_057cbc84d475a9c551d077ca', 'Treasury Safe (Ethereum)', 'contract_call', '+0.063128820034167869', 'Staking rewards, Airdrop'],
    ['2026-10-30 12:02:32', 'tx_724483153c63499a85c61e3f', 'Vendor payments (BSC)', 'approval', '+1187561.78', ''],
  ];

  it('without a known width, shows everything at its natural width', () => {
    expect(fitColumns(columns, rows, undefined)).toEqual({ visible: [0, 1, 2, 3, 4, 5], widths: [19, 27, 24, 13, 21, 24] });
  });

  it.each([60, 80, 100, 120, 160, 200])('at %i columns the table fits, ids stay whole, integer digits stay', (total) => {
    const { visible, widths } = fitColumns(columns, rows, total);
    expect(tableWidth(widths)).toBeLessThanOrEqual(total);
    expect(widths[visible.indexOf(1)]).toBe(27);
    expect(widths[visible.indexOf(4)]).toBeGreaterThanOrEqual('+1187561.78'.length);
  });

  it('hides droppable columns, lowest first, before cutting labels to nothing', () => {
    expect(fitColumns(columns, rows, 200).visible).toEqual([0, 1, 2, 3, 4, 5]);
    expect(fitColumns(columns, rows, 90).visible).toEqual([0, 1, 2, 4, 5]);
    expect(fitColumns(columns, rows, 75).visible).toEqual([0, 1, 4, 5]);
    expect(fitColumns(columns, rows, 60).visible).toEqual([0, 1, 4]);
  });

  it('columns that never give way keep their width even when that cannot fit', () => {
    const { widths } = fitColumns([{ header: 'ID' }], [['x'.repeat(50)]], 20);
    expect(widths).toEqual([50]);
  });

  it('a column with `min` gives way no further than that: a cell that starts with an id keeps it whole', () => {
    const cell = 'tx_057cbc84d475a9c551d077ca Treasury Safe -1 ETH (ethereum)';
    const columns: Column[] = [{ header: 'OUT', fit: 'end', min: 28 }];
    const layout = fitColumns(columns, [[cell]], 20);
    expect(layout.widths).toEqual([28]);
    expect(fitRows(columns, [[cell]], layout)).toEqual([['tx_057cbc84d475a9c551d077ca…']]);
    expect(fitColumns([{ header: 'OUT', fit: 'end' }], [[cell]], 20).widths).toEqual([20]);
  });
});

describe('fitRows', () => {
  it('a money column too narrow for its separators drops them in every row, never a digit', () => {
    const columns: Column[] = [{ header: 'VALUE', fit: 'money' }];
    const rows = [['1,187,999.99'], ['2,375.04'], ['5.00']];
    const layout = fitColumns(columns, rows, 10);
    expect(layout.widths).toEqual([10]);
    expect(fitRows(columns, rows, layout)).toEqual([['1187999.99'], ['2375.04'], ['5.00']]);
    expect(fitRows(columns, rows, fitColumns(columns, rows, 80))).toEqual(rows);
  });
});

describe('fitTable', () => {
  const columns: Column[] = [
    { header: 'ID' },
    { header: 'OUT', fit: 'end', min: 27 },
    { header: 'IN', fit: 'end', min: 27 },
    { header: 'VALUE', fit: 'money', align: 'right' },
  ];
  const row = ['trf_01cad0a9d29376ed24df', `tx_a14ae01d25dfa73f6e763456 ${'Treasury Safe '.repeat(5)}`, 'tx_efee99ded5db8d41792bc20f', '1,187,999.99'];

  it('a table whose narrowest columns are wider than the terminal becomes records; one that fits stays a table', () => {
    expect(fitTable(columns, [row], 80)).toEqual({ kind: 'records' });
    expect(fitTable(columns, [row], 200).kind).toBe('table');
    expect(fitTable(columns, [row], undefined).kind).toBe('table');
  });

  it('a record is `KEY  value` lines within the width: a label cut with …, an id whole, a money value without separators before a digit goes', () => {
    const lines = recordLines(columns, row, 40, (h) => h);
    expect(lines).toEqual([
      'ID     trf_01cad0a9d29376ed24df',
      `OUT    ${shorten(row[1]!, 33, 'end')}`,
      'IN     tx_efee99ded5db8d41792bc20f',
      'VALUE  1,187,999.99',
    ]);
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(40);
    expect(recordLines(columns, row, 18, (h) => h)[3]).toBe('VALUE  1187999.99');
  });
});
