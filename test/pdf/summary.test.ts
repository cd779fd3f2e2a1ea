import { describe, expect, it } from 'vitest';
import { COLORS } from '../../src/exporters/pdf/canvas.js';
import { ETH, USDC, countColor, makeJob, rasterize, render, tagRef, tx } from './helpers.js';

// Three months, two chains, two tokens, three tags (one transaction carries two).
const rows = [
  tx({ timestamp: '2024-01-10T09:00:00Z', amount: '1.25', direction: 'inflow', fiat_value: 2500, tags: [tagRef('tag_rev')] }),
  tx({ timestamp: '2024-01-20T09:00:00Z', amount: '0.5', direction: 'inflow', fiat_value: 1000.1, tags: [tagRef('tag_rev')] }),
  tx({
    timestamp: '2024-02-05T09:00:00Z',
    amount: '800',
    direction: 'outflow',
    fiat_value: 800,
    token: USDC,
    chain: 'polygon',
    tags: [tagRef('tag_pay'), tagRef('tag_int')],
  }),
  tx({ timestamp: '2024-02-25T09:00:00Z', amount: '0.1', direction: 'outflow', fiat_value: 250.55, token: ETH }),
  tx({
    timestamp: '2024-03-01T09:00:00Z',
    amount: '1200.5',
    direction: 'inflow',
    fiat_value: 1200.5,
    token: USDC,
    chain: 'polygon',
    wallet_label: '日本 Wallet',
  }),
  tx({ timestamp: '2024-03-02T09:00:00Z', amount: '3', direction: 'inflow', fiat_value: null, token: USDC, chain: 'polygon' }),
];
// Inflow: 2500 + 1000.10 + 1200.50 = 4700.60; outflow: 800 + 250.55 = 1050.55; net 3650.05; 6 rows.

describe('summary report', () => {
  it('prints totals and the breakdowns by month, tag, chain and token', async () => {
    const pdf = await render(makeJob({ rows, reportType: 'summary' }));
    const text = pdf.text.join('\n');
    expect(pdf.text[0]).toContain('Transaction report — Summary');
    expect(pdf.text[0]).toContain(`Page 1 of ${pdf.pages}`);
    expect(pdf.text.at(-1)).toContain(`Page ${pdf.pages} of ${pdf.pages}`);
    expect(text).toMatch(/Total inflow \(USD\)\s+Total outflow \(USD\)\s+Net flow \(USD\)\s+Transactions/);
    expect(text).toMatch(/4,700\.60\s+1,050\.55\s+3,650\.05\s+6/);
    expect(text).toContain('1 transaction(s) have no fiat value');
    // By month: inflow, outflow, net, count.
    expect(text).toMatch(/2024-01\s+3,500\.10\s+0\.00\s+3,500\.10\s+2/);
    expect(text).toMatch(/2024-02\s+0\.00\s+1,050\.55\s+-1,050\.55\s+2/);
    expect(text).toMatch(/2024-03\s+1,200\.50\s+0\.00\s+1,200\.50\s+2/);
    expect(text).toMatch(/Total\s+4,700\.60\s+1,050\.55\s+3,650\.05\s+6/);
    // By tag, with the tag type; the double-tagged payment counts under both tags.
    expect(text).toMatch(/Revenue\s+income\s+3,500\.10\s+0\.00\s+3,500\.10\s+2/);
    expect(text).toMatch(/Payroll\s+expense\s+0\.00\s+800\.00\s+-800\.00\s+1/);
    expect(text).toMatch(/Internal\s+neutral\s+0\.00\s+800\.00\s+-800\.00\s+1/);
    expect(text).toMatch(/\(untagged\)\s+1,200\.50\s+250\.55\s+949\.95\s+3/);
    // By chain and by token (exact token amounts).
    expect(text).toMatch(/ethereum\s+3,500\.10\s+250\.55\s+3,249\.55\s+3/);
    expect(text).toMatch(/polygon\s+1,200\.50\s+800\.00\s+400\.50\s+3/);
    expect(text).toMatch(/ETH\s+ethereum\s+1\.75\s+0\.1\s+3,500\.10\s+250\.55\s+3/);
    expect(text).toMatch(/USDC\s+polygon\s+1,203\.5\s+800\s+1,200\.50\s+800\.00\s+3/);
    for (const heading of ['By month', 'By tag', 'By chain', 'By token', 'Monthly inflow and outflow (USD)', 'By tag (USD)']) expect(text).toContain(heading);
  });

  it('leaves own-transfer legs out of every total and table, and says how many', async () => {
    // The rows above plus one own transfer of 0.4 ETH worth 900.00 (both legs tagged Internal): the totals stay
    // 4,700.60 in, 1,050.55 out, over 6 rows, and the Internal tag keeps only the USDC payment.
    const transfer = { id: 'trf_1', counterpart_id: null, kind: 'internal' as const, matched_by: 'auto' as const };
    const legs = [
      tx({ timestamp: '2024-02-10T09:00:00Z', amount: '0.4', direction: 'outflow', fiat_value: 900, tags: [tagRef('tag_int')], transfer }),
      tx({ timestamp: '2024-02-10T09:01:00Z', amount: '0.4', direction: 'inflow', fiat_value: 900, tags: [tagRef('tag_int')], transfer, wallet_label: 'Cold' }),
    ];
    const text = (await render(makeJob({ rows: [...rows, ...legs], reportType: 'summary' }))).text.join('\n');
    expect(text).toMatch(/4,700\.60\s+1,050\.55\s+3,650\.05\s+6/);
    expect(text).toContain('2 own-transfer leg(s) are left out of every total and table');
    expect(text).toMatch(/2024-02\s+0\.00\s+1,050\.55\s+-1,050\.55\s+2/);
    expect(text).toMatch(/Internal\s+neutral\s+0\.00\s+800\.00\s+-800\.00\s+1/);
    expect(text).toMatch(/ETH\s+ethereum\s+1\.75\s+0\.1\s+3,500\.10\s+250\.55\s+3/);
  });

  it('draws the charts and the product mark as vector graphics', async () => {
    const withLogo = await render(makeJob({ rows, reportType: 'summary' }));
    const page = rasterize(withLogo.file, 1);
    // The chart band sits under the totals cards: monthly bars on the left, tag bars on the right.
    const monthly = { x: 80, y: 170, w: 400, h: 170 };
    const byTag = { x: 520, y: 170, w: 285, h: 170 };
    expect(countColor(page, monthly, COLORS.inflow)).toBeGreaterThan(20);
    expect(countColor(page, monthly, COLORS.outflow)).toBeGreaterThan(20);
    expect(countColor(page, byTag, COLORS.inflow)).toBeGreaterThan(10);
    expect(countColor(page, byTag, COLORS.outflow)).toBeGreaterThan(10);
    // The mark's accent dot is a colour nothing else on the page uses.
    const mark = { x: 36, y: 28, w: 28, h: 28 };
    expect(countColor(rasterize(withLogo.file, 1, 144), mark, COLORS.accent, 30)).toBeGreaterThan(50);

    const noLogo = await render(makeJob({ rows, reportType: 'summary', options: { include_logo: false } }));
    expect(countColor(rasterize(noLogo.file, 1, 144), mark, COLORS.accent, 30)).toBe(0);
    expect(noLogo.text[0]).toContain('Transaction report — Summary');
  });

  it('says so when there is nothing to chart', async () => {
    const pdf = await render(makeJob({ rows: [], reportType: 'summary', period: { start: null, end: null } }));
    expect(pdf.text[0]).toContain('No transactions in the period');
    expect(pdf.text[0]).toContain('No tagged transactions');
    expect(pdf.text[0]).toContain('Period: all dates');
    expect(pdf.text.join('\n').match(/No transactions\n/g)).toHaveLength(4);
    pdf.text.forEach((page, i) => expect(page).toContain(`Page ${i + 1} of ${pdf.pages}`));
  });
});
