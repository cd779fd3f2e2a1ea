import { describe, expect, it } from 'vitest';
import { CONTENT_BOTTOM, CONTENT_TOP } from '../../src/exporters/pdf/chrome.js';
import { SECTION_GAP, SECTION_HEIGHT } from '../../src/exporters/pdf/flow.js';
import { ETH, USDC, makeJob, render, rightEdges, tagRef, tx } from './helpers.js';

const HEADERS = ['Date', 'Wallet', 'Chain', 'Type', 'Direction', 'Amount', 'Token', 'Value (USD)', 'Tags', 'Hash'];

// Layout of the detailed table, from the page geometry: 7 pt rows 10.5 pt high, header 13.3 pt.
const ROW = 10.5;
const HEADER = 13.3;
const TOTALS = 22 + 54; // section title + four total lines

/** Pages for n rows: the first page also holds the section title; totals follow the table. */
function predictPages(n: number): number {
  const room = CONTENT_BOTTOM - CONTENT_TOP;
  const first = Math.floor((room - SECTION_HEIGHT - HEADER) / ROW);
  const per = Math.floor((room - HEADER) / ROW);
  let pages = 1;
  let y = CONTENT_TOP + SECTION_HEIGHT + HEADER + Math.min(n, first) * ROW;
  if (n > first) {
    pages += Math.ceil((n - first) / per);
    y = CONTENT_TOP + HEADER + (((n - first - 1) % per) + 1) * ROW;
  }
  y = Math.min(y + SECTION_GAP, CONTENT_BOTTOM);
  return y + TOTALS > CONTENT_BOTTOM ? pages + 1 : pages;
}

describe('detailed report', () => {
  const rows = [
    tx({ timestamp: '2024-01-05T10:00:00Z', amount: '1.5', direction: 'inflow', fiat_value: 3000.5, wallet_label: 'Café Ledger €', tags: [tagRef('tag_rev')] }),
    tx({
      timestamp: '2024-02-10T11:00:00Z',
      amount: '1234567.891',
      direction: 'outflow',
      fiat_value: 1234567.89,
      token: USDC,
      wallet_label: '日本 Wallet',
      tags: [tagRef('tag_pay'), tagRef('tag_int')],
    }),
    tx({
      timestamp: '2024-03-15T12:00:00Z',
      amount: '0.25',
      direction: 'inflow',
      fiat_value: null,
      wallet_label: 'Grants Ξ',
      chain: 'arbitrum',
      token: ETH,
      type: 'bridge',
    }),
    tx({ timestamp: '2024-04-20T13:00:00Z', amount: '42', direction: 'outflow', fiat_value: 42.1, token: USDC, chain: 'polygon' }),
  ];

  it('has the header, the figures right-aligned, Unicode names and the totals', async () => {
    const job = makeJob({ rows, reportType: 'detailed' });
    const pdf = await render(job);
    expect(pdf.pages).toBe(predictPages(rows.length));
    expect(pdf.pages).toBe(1);
    const page = pdf.text[0]!;
    expect(page).toContain('Transaction report — Detailed');
    expect(page).toContain('Workspace: Acme Café Treasury');
    expect(page).toContain('Period: 2024-01-01 – 2024-12-31');
    expect(page).toContain('Currency: USD');
    expect(page).toContain('Generated: 2025-02-03 04:05:06 UTC');
    expect(page).toContain('Page 1 of 1');
    for (const h of HEADERS) expect(page).toContain(h);
    for (const name of ['Café Ledger €', '日本 Wallet', 'Grants Ξ']) expect(page).toContain(name);
    // Every figure of a column ends at the same place: right-aligned.
    const values = rightEdges(page, [
      ['2024-01-05', '3,000.50'],
      ['2024-02-10', '1,234,567.89'],
      ['2024-04-20', '42.10'],
      ['2024-03-15', '—'],
    ]);
    expect(Math.max(...values) - Math.min(...values)).toBeLessThanOrEqual(1);
    const amounts = rightEdges(page, [
      ['2024-01-05', ' 1.5 '],
      ['2024-02-10', ' 1,234,567.891 '],
      ['2024-03-15', ' 0.25 '],
      ['2024-04-20', ' 42 '],
    ]);
    expect(Math.max(...amounts) - Math.min(...amounts)).toBeLessThanOrEqual(1);
    // Left-aligned text columns start together instead; the check above would catch a left-aligned figure.
    const starts = ['1.5', '1,234,567.891'].map((f) =>
      page
        .split('\n')
        .find((l) => l.includes(f))!
        .indexOf(f),
    );
    expect(starts[0]).not.toBe(starts[1]);
    // A missing price is a dash, never 0.00; totals leave it out.
    expect(page).toMatch(/0\.25\s+ETH\s+—/);
    expect(page).toMatch(/Total inflow \(USD\)\s+3,000\.50/);
    expect(page).toMatch(/Total outflow \(USD\)\s+1,234,609\.99/);
    expect(page).toMatch(/Net flow \(USD\)\s+-1,231,609\.49/);
    expect(page).toMatch(/Transaction count\s+4/);
    expect(page).toContain('Revenue');
    expect(page).toContain('Payroll, Internal');
  });

  it('uses pdf_title and repeats the table header on every page of a long report', async () => {
    const n = 600;
    const many = Array.from({ length: n }, (_, i) =>
      tx({
        timestamp: new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString(),
        amount: `${i}.${String(i % 97).padStart(2, '0')}`,
        direction: i % 3 ? 'inflow' : 'outflow',
        fiat_value: i * 1.25,
      }),
    );
    const job = makeJob({ rows: many, reportType: 'detailed', options: { pdf_title: 'Q1 ledger for the auditors' } });
    const pdf = await render(job);
    const m = predictPages(n);
    expect(pdf.pages).toBe(m);
    expect(pdf.text).toHaveLength(m);
    pdf.text.forEach((page, i) => {
      expect(page).toContain('Q1 ledger for the auditors');
      expect(page).toContain(`Page ${i + 1} of ${m}`);
      if (i < m - 1 || page.includes('2024-')) expect(page).toMatch(/Date\s+Wallet\s+Chain\s+Type\s+Direction\s+Amount\s+Token\s+Value \(USD\)\s+Tags\s+Hash/);
    });
    expect(pdf.text[m - 1]).toContain(`Page ${m} of ${m}`);
    // Every row made it: count the data lines.
    const dataLines = pdf.text
      .join('\n')
      .split('\n')
      .filter((l) => /^\s*2024-\d\d-\d\d\s+Treasury/.test(l));
    expect(dataLines).toHaveLength(n);
    expect(job.progress.at(-1)).toBe(n);
    expect(job.progress.slice(0, 2)).toEqual([250, 500]);
  });

  it('refuses to mislabel pages when the rows do not match the count', async () => {
    const job = { ...makeJob({ rows, reportType: 'detailed' }), transactionCount: 3 };
    await expect(render(job)).rejects.toThrow(/expected 3 rows/);
  });
});
