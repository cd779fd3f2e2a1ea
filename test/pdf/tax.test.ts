import { describe, expect, it } from 'vitest';
import { USDC, makeJob, render, tagRef, tx } from './helpers.js';

// ETH lots: L1 2 ETH for 2,000.00 (1,000/ETH, Revenue), L2 1 ETH for 3,000.00, L3 1 ETH for 500.00 (Internal).
// Disposal D: 2.5 ETH for 7,500.00 (Payroll). Then 100 USDC leave with no USDC ever acquired.
const rows = [
  tx({ timestamp: '2024-01-01T00:00:00Z', amount: '2', direction: 'inflow', fiat_value: 2000, tags: [tagRef('tag_rev')] }),
  tx({ timestamp: '2024-02-01T00:00:00Z', amount: '1', direction: 'inflow', fiat_value: 3000 }),
  tx({ timestamp: '2024-03-01T00:00:00Z', amount: '1', direction: 'inflow', fiat_value: 500, tags: [tagRef('tag_int')] }),
  tx({ timestamp: '2024-04-01T00:00:00Z', amount: '2.5', direction: 'outflow', fiat_value: 7500, tags: [tagRef('tag_pay')] }),
  tx({ timestamp: '2024-05-01T00:00:00Z', amount: '100', direction: 'outflow', fiat_value: 100, token: USDC }),
];

async function taxText(method?: 'fifo' | 'lifo' | 'hifo') {
  const pdf = await render(makeJob({ rows, reportType: 'tax', options: method ? { cost_basis: method } : {} }));
  pdf.text.forEach((page, i) => expect(page).toContain(`Page ${i + 1} of ${pdf.pages}`));
  return pdf.text.join('\n');
}

describe('tax report', () => {
  it('splits income and expenses by tag type and by tag', async () => {
    const text = await taxText();
    expect(text).toContain('Transaction report — Tax');
    expect(text).toMatch(/Income\s+2,000\.00\s+0\.00\s+2,000\.00\s+1/);
    expect(text).toMatch(/Expense\s+0\.00\s+7,500\.00\s+-7,500\.00\s+1/);
    expect(text).toMatch(/Neutral\s+500\.00\s+0\.00\s+500\.00\s+1/);
    expect(text).toMatch(/Untagged\s+3,000\.00\s+100\.00\s+2,900\.00\s+2/);
    expect(text).toMatch(/Payroll\s+Expense\s+0\.00\s+7,500\.00\s+-7,500\.00\s+1/);
    expect(text).toMatch(/Revenue\s+Income\s+2,000\.00\s+0\.00\s+2,000\.00\s+1/);
  });

  it('reports a tag missing from the tag list (deleted meanwhile) as "Type unknown", rather than guessing', async () => {
    const job = { ...makeJob({ rows, reportType: 'tax' }), tags: [] };
    const pdf = await render(job);
    const text = pdf.text.join('\n');
    expect(text).toMatch(/Type unknown\s+2,500\.00\s+7,500\.00\s+-5,000\.00\s+3/);
    expect(text).not.toMatch(/^\s*Income\s+[\d,]/m);
  });

  it('uses FIFO by default', async () => {
    // FIFO: L1 all 2 ETH (cost 2,000.00) + L2 0.5 ETH (3,000 × 0.5/1 = 1,500.00) = cost 3,500.00.
    // Proceeds 7,500.00 split 2/2.5 → 6,000.00 and 1,500.00; gains 4,000.00 and 0.00; total 4,000.00.
    const text = await taxText();
    expect(text).toContain('Realised gains (FIFO, per wallet)');
    expect(text).toMatch(/ETH\s+2\.5\s+7,500\.00\s+3,500\.00\s+4,000\.00\s+—/);
    expect(text).toMatch(/Total\s+7,500\.00\s+3,500\.00\s+4,000\.00/);
    expect(text).toMatch(/2024-04-01\s+2024-01-01\s+ETH\s+Treasury\s+2\s+6,000\.00\s+2,000\.00\s+4,000\.00/);
    expect(text).toMatch(/2024-04-01\s+2024-02-01\s+ETH\s+Treasury\s+0\.5\s+1,500\.00\s+1,500\.00\s+0\.00/);
  });

  it('a period report meets the lots its history leaves open: earlier buys are cost basis, earlier sells used some up', async () => {
    // Before the period: buy 2 ETH for 2,000.00 (Jan), buy 1 ETH for 3,000.00 (Feb), sell 1.5 ETH for 3,000.00 (Mar, not reported).
    // FIFO: the March sale used 1.5 ETH of the January lot, leaving 0.5 ETH (cost 500.00) and the February lot.
    // In the period: sell 1 ETH for 2,500.00 → 0.5 ETH of Jan (500.00) + 0.5 ETH of Feb (1,500.00) = cost 2,000.00, gain 500.00.
    const priorRows = [
      tx({ timestamp: '2024-01-01T00:00:00Z', amount: '2', direction: 'inflow', fiat_value: 2000 }),
      tx({ timestamp: '2024-02-01T00:00:00Z', amount: '1', direction: 'inflow', fiat_value: 3000 }),
      tx({ timestamp: '2024-03-01T00:00:00Z', amount: '1.5', direction: 'outflow', fiat_value: 3000 }),
    ];
    const inPeriod = [tx({ timestamp: '2024-07-01T00:00:00Z', amount: '1', direction: 'outflow', fiat_value: 2500 })];
    const pdf = await render(makeJob({ rows: inPeriod, priorRows, reportType: 'tax', period: { start: '2024-07-01', end: '2024-12-31' } }));
    const text = pdf.text.join('\n');
    expect(text).toMatch(/ETH\s+1\s+2,500\.00\s+2,000\.00\s+500\.00/);
    expect(text).toMatch(/2024-07-01\s+2024-01-01\s+ETH\s+Treasury\s+0\.5\s+1,250\.00\s+500\.00\s+750\.00/);
    expect(text).toMatch(/2024-07-01\s+2024-02-01\s+ETH\s+Treasury\s+0\.5\s+1,250\.00\s+1,500\.00\s+-250\.00/);
    expect(text).not.toContain('2024-03-01'); // the earlier sale is history, not in the report
    expect(text).toMatch(/Missing cost basis[\s\S]*None: all covered/);
  });

  it('uses LIFO when asked', async () => {
    // LIFO: L3 1 ETH (500.00) + L2 1 ETH (3,000.00) + L1 0.5 ETH (2,000 × 0.5/2 = 500.00) = 4,000.00.
    // Proceeds 3,000.00 + 3,000.00 + 1,500.00; gain 7,500.00 − 4,000.00 = 3,500.00.
    const text = await taxText('lifo');
    expect(text).toContain('Realised gains (LIFO, per wallet)');
    expect(text).toMatch(/ETH\s+2\.5\s+7,500\.00\s+4,000\.00\s+3,500\.00/);
    expect(text).toMatch(/2024-04-01\s+2024-03-01\s+ETH\s+Treasury\s+1\s+3,000\.00\s+500\.00\s+2,500\.00/);
  });

  it('uses HIFO when asked', async () => {
    // HIFO: L2 (3,000/ETH) 1 ETH (3,000.00), then L1 (1,000/ETH) 1.5 ETH (2,000 × 1.5/2 = 1,500.00) = 4,500.00.
    // Proceeds 3,000.00 + 4,500.00; gain 3,000.00.
    const text = await taxText('hifo');
    expect(text).toContain('Realised gains (HIFO, per wallet)');
    expect(text).toMatch(/ETH\s+2\.5\s+7,500\.00\s+4,500\.00\s+3,000\.00/);
    expect(text).toMatch(/2024-04-01\s+2024-01-01\s+ETH\s+Treasury\s+1\.5\s+4,500\.00\s+1,500\.00\s+3,000\.00/);
  });

  it('lists a disposal without acquired lots as missing cost basis, not as a zero-cost gain', async () => {
    const text = await taxText();
    expect(text).toMatch(/USDC\s+100\s+0\.00\s+0\.00\s+0\.00\s+100/);
    const missing = text.slice(text.lastIndexOf('Missing cost basis')); // the section, after the gains table's column
    expect(missing).toMatch(/2024-05-01\s+USDC\s+Treasury\s+ethereum\s+100\s+100\.00\s+0x0005/);
  });

  it('splits gains into short- and long-term, with totals per term, and lists income', async () => {
    // Lot: 2 ETH on 2024-01-01 for 2,000.00 (Revenue, income). 0.5 ETH sold 2024-06-01 for 800.00:
    // cost 500.00, +300.00 short. 1 ETH sold 2025-03-01 for 1,500.00: cost 1,000.00, +500.00 long.
    const split = [
      tx({ timestamp: '2024-01-01T00:00:00Z', amount: '2', direction: 'inflow', fiat_value: 2000, tags: [tagRef('tag_rev')] }),
      tx({ timestamp: '2024-06-01T00:00:00Z', amount: '0.5', direction: 'outflow', fiat_value: 800 }),
      tx({ timestamp: '2025-03-01T00:00:00Z', amount: '1', direction: 'outflow', fiat_value: 1500 }),
    ];
    const text = (await render(makeJob({ rows: split, reportType: 'tax' }))).text.join('\n');
    expect(text).toMatch(/Short-term gain\s+800\.00\s+500\.00\s+300\.00/);
    expect(text).toMatch(/Long-term gain\s+1,500\.00\s+1,000\.00\s+500\.00/);
    expect(text).toMatch(/Total gain\s+2,300\.00\s+1,500\.00\s+800\.00/);
    const short = text.slice(text.indexOf('Short-term disposals'), text.indexOf('Long-term disposals'));
    expect(short).toMatch(/2024-06-01\s+2024-01-01\s+ETH\s+Treasury\s+0\.5\s+800\.00\s+500\.00\s+300\.00/);
    expect(short).not.toContain('2025-03-01');
    const long = text.slice(text.indexOf('Long-term disposals'), text.indexOf('Income', text.indexOf('Long-term disposals')));
    expect(long).toMatch(/2025-03-01\s+2024-01-01\s+ETH\s+Treasury\s+1\s+1,500\.00\s+1,000\.00\s+500\.00/);
    expect(long).toMatch(/Total\s+1,500\.00\s+1,000\.00\s+500\.00/);
    expect(text).toMatch(/2024-01-01\s+ETH\s+Treasury\s+ethereum\s+2\s+2,000\.00\s+Revenue/);
  });

  it('leaves own transfers out of income and expenses, says so, and moves their lots instead of selling', async () => {
    // Treasury buys 1 ETH for 1,000.00 (Revenue), sends it to Cold (both legs tagged Internal, worth 3,000.00);
    // Cold sells it for 3,500.00: cost 1,000.00, +2,500.00; the transfer is no sale.
    const transfer = { id: 'trf_1', counterpart_id: null, kind: 'internal' as const, matched_by: 'user' as const };
    const legs = [
      tx({ timestamp: '2024-01-01T00:00:00Z', amount: '1', direction: 'inflow', fiat_value: 1000, tags: [tagRef('tag_rev')] }),
      tx({ timestamp: '2024-02-01T00:00:00Z', amount: '1', direction: 'outflow', fiat_value: 3000, tags: [tagRef('tag_int')], transfer }),
      tx({
        timestamp: '2024-02-01T00:00:00Z',
        amount: '1',
        direction: 'inflow',
        fiat_value: 3000,
        tags: [tagRef('tag_int')],
        transfer,
        wallet_id: 'wal_2',
        wallet_label: 'Cold',
      }),
      tx({ timestamp: '2024-03-01T00:00:00Z', amount: '1', direction: 'outflow', fiat_value: 3500, wallet_id: 'wal_2', wallet_label: 'Cold' }),
    ];
    // Each leg names the other, as the ledger's rows do.
    legs[1]!.transfer = { ...transfer, counterpart_id: legs[2]!.id };
    legs[2]!.transfer = { ...transfer, counterpart_id: legs[1]!.id };
    const text = (await render(makeJob({ rows: legs, reportType: 'tax' }))).text.join('\n');
    // The whole sentence is on the page, not cut short by the table's heading.
    expect(text).toContain('2 own-transfer leg(s) are left out of these tables: moving between own wallets is neither income nor expense.');
    expect(text).not.toMatch(/^\s*Neutral\s+[\d,]/m);
    expect(text).not.toMatch(/^\s*Internal\s/m);
    expect(text).toMatch(/Untagged\s+0\.00\s+3,500\.00\s+-3,500\.00\s+1/);
    expect(text).toMatch(/2024-03-01\s+2024-01-01\s+ETH\s+Cold\s+1\s+3,500\.00\s+1,000\.00\s+2,500\.00/);
    expect(text).toMatch(/Total gain\s+3,500\.00\s+1,000\.00\s+2,500\.00/);
  });
});
