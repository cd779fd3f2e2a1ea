import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Transaction } from '../../src/core/types.js';
import { makeJob, rasterize, render, tagRef, tx, type Raster } from './helpers.js';
import { COLORS } from '../../src/exporters/pdf/canvas.js';

const dir = mkdtempSync(join(tmpdir(), 'txa-audit-'));
const receipt = join(dir, 'receipt.pdf');
writeFileSync(receipt, '%PDF-1.4 a tiny receipt, bytes the audit must embed unchanged\n');
const invoice = join(dir, 'invoice.txt');
writeFileSync(invoice, 'Invoice 2024-001 — 日本 customer, 1,500.00 USD\n');

const attachment = (id: string, name: string, size: number) => ({
  id,
  file_name: name,
  file_url: `https://x/${id}`,
  file_size: size,
  uploaded_at: '2024-01-02T00:00:00Z',
});

/** Independent of the writer: keys sorted at every level, JSON.stringify for leaves, one line each. */
function sortedJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${sortedJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}
const sha256 = (rows: Transaction[]) =>
  createHash('sha256')
    .update(rows.map((r) => sortedJson(r) + '\n').join(''))
    .digest('hex');

/** Pixel rows of page 1 where `hex` spans most of the content width: the horizontal rules drawn there. */
function ruleRows(r: Raster, hex: string): number[] {
  const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const [from, to] = [Math.ceil(40 * r.scale), Math.floor(800 * r.scale)];
  const rows: number[] = [];
  for (let py = 0; py < r.height; py++) {
    let n = 0;
    for (let px = from; px < to; px++) {
      const o = (py * r.width + px) * 3;
      if (want.every((c, i) => Math.abs(r.data[o + i]! - c) <= 12)) n++; // tight: the header band's fill is a near grey
    }
    if (n > 0.9 * (to - from)) rows.push(py);
  }
  return rows;
}

describe('audit report', () => {
  const rows = [
    tx({
      timestamp: '2024-01-02T08:30:00Z',
      amount: '1.5',
      direction: 'inflow',
      fiat_value: 3000,
      tags: [tagRef('tag_rev')],
      notes: 'Customer payment for invoice 2024-001 (日本 branch). Checked against the bank statement by the finance team on the second of January.',
      attachments: [attachment('att_1', 'receipt.pdf', 64), attachment('att_2', 'invoice.txt', 48)],
    }),
    tx({
      timestamp: '2024-01-03T09:00:00Z',
      amount: '250',
      direction: 'outflow',
      fiat_value: 250,
      wallet_label: 'Café €',
      attachments: [attachment('att_3', 'receipt.pdf', 10), attachment('att_gone', 'lost.png', 5)],
    }),
    tx({ timestamp: '2024-01-04T10:00:00Z', amount: '0.1', direction: 'outflow', fiat_value: null, tx_hash: 'manual-entry-7', explorer_url: '' }),
  ];
  const history = {
    [rows[0]!.id]: [
      {
        event_id: 'evt_1',
        event: 'transaction.created',
        created_at: '2024-01-02T08:31:00Z',
        actor: 'cli',
        changes: {},
        source: { file_name: 'etherscan-2024.csv', sha256: 'ab'.repeat(32), format: 'etherscan' },
      },
      {
        event_id: 'evt_2',
        event: 'transaction.tagged',
        created_at: '2024-01-05T12:00:00Z',
        actor: 'key_3f9c',
        changes: { tags: { old: [], new: ['Revenue'] } },
      },
      {
        event_id: 'evt_3',
        event: 'transaction.updated',
        created_at: '2024-01-06T12:00:00Z',
        actor: 'cli',
        changes: { fiat_value: { old: 2999.5, new: 3000 }, fiat_value_source: { old: 'import', new: 'manual' } },
      },
    ],
  };
  const files = { att_1: receipt, att_2: invoice, att_3: receipt };

  it('prints the data hash on the first and last page, equal to an independent SHA-256', async () => {
    const pdf = await render(makeJob({ rows, reportType: 'audit', history, files }));
    const expected = sha256(rows);
    expect(pdf.text[0]).toContain(`Data SHA-256: ${expected}`);
    expect(pdf.text.at(-1)).toContain(`Data SHA-256: ${expected}`);
    expect(pdf.text.at(-1)).toContain(`Page ${pdf.pages} of ${pdf.pages}`);
  });

  it('shows hash, explorer link, tags, wrapped notes and the change history', async () => {
    const pdf = await render(makeJob({ rows, reportType: 'audit', history, files }));
    const text = pdf.text.join('\n');
    expect(text).toContain(rows[0]!.tx_hash);
    expect(text).toContain(rows[0]!.explorer_url);
    expect(text).toMatch(/Tags\s+Revenue/);
    expect(text).toContain('Customer payment for invoice 2024-001 (日本 branch).');
    expect(text).toContain('on the second of January.');
    expect(text).toMatch(/History\s+2024-01-02 08:31:00 UTC\s+transaction\.created by cli/);
    expect(text).toContain(`from etherscan-2024.csv (etherscan), SHA-256 ${'ab'.repeat(32)}`);
    expect(text).toMatch(/2024-01-05 12:00:00 UTC\s+transaction\.tagged by key_3f9c\s+tags: — → Revenue/);
    // Each change prints old → new and who made it.
    expect(text).toMatch(/transaction\.updated by cli\s+fiat_value: 2999\.5 → 3000\s+fiat_value_source: import → manual/);
    expect(text).toMatch(/History\s+no recorded changes/);
    expect(text).toContain('manual-entry-7');
    expect(text).toMatch(/Explorer\s+—/);
    expect(text).toContain('Café €');
    expect(text).toContain('lost.png (5 B): file missing from the store, not embedded');
  });

  it('draws a rule above every record, and the header and footer rules, where the layout puts them', async () => {
    const pdf = await render(makeJob({ rows, reportType: 'audit', history, files }));
    const page = rasterize(pdf.file, 1, 144);
    const at = (points: number) => Math.round(points * page.scale);
    const near = (found: number[], points: number) => found.some((py) => Math.abs(py - at(points)) <= 1);
    // The header's brand rule (TOP + 36) and the footer's (page height − 32), from the shared page form.
    expect(near(ruleRows(page, COLORS.brand), 64)).toBe(true);
    const grey = ruleRows(page, COLORS.rule);
    expect(near(grey, 595.28 - 32)).toBe(true);
    // One rule above each of the three records, and none elsewhere (consecutive pixel rows are one rule).
    const rules = grey.filter((py, i) => grey[i - 1] !== py - 1);
    expect(rules).toHaveLength(3 + 1 + 1); // records, the table's closing rule, the footer's
    expect(rules[0]).toBeGreaterThan(at(76));
  });

  it('embeds each attachment as a PDF file attachment, byte for byte', async () => {
    const pdf = await render(makeJob({ rows, reportType: 'audit', history, files }));
    const list = execFileSync('pdfdetach', ['-list', pdf.file], { encoding: 'utf8' });
    expect(list).toMatch(/^3 embedded files/m);
    expect(list).toContain('receipt.pdf');
    expect(list).toContain('invoice.txt');
    expect(list).toContain('att_3-receipt.pdf');
    const out = mkdtempSync(join(tmpdir(), 'txa-detach-'));
    execFileSync('pdfdetach', ['-saveall', '-o', out, pdf.file]);
    expect(readFileSync(join(out, 'invoice.txt'))).toEqual(readFileSync(invoice));
    expect(readFileSync(join(out, 'att_3-receipt.pdf'))).toEqual(readFileSync(receipt));
  });

  it('writes every page\'s "Page N of M" and the first page\'s data hash once the last record is drawn', async () => {
    // Many times the rows the audit reads histories for at a time (32).
    const many = Array.from({ length: 300 }, (_, i) =>
      tx({
        timestamp: new Date(Date.UTC(2024, 0, 1) + i * 86_400_000).toISOString(),
        amount: String(i + 1),
        direction: i % 2 ? 'inflow' : 'outflow',
        fiat_value: i * 10,
        notes: i % 3 === 0 ? `Note ${i}: ${'long explanation '.repeat(i % 40)}` : null,
      }),
    );
    const longHistory = Object.fromEntries(
      many
        .filter((_, i) => i % 5 === 0)
        .map((t, i) => [
          t.id,
          Array.from({ length: (i % 4) + 1 }, (_, k) => ({
            event_id: `e${k}`,
            event: 'transaction.updated',
            created_at: '2024-06-01T00:00:00Z',
            actor: 'cli',
            changes: { notes: { old: null, new: `edit ${k}` } },
          })),
        ]),
    );
    const job = makeJob({ rows: many, reportType: 'audit', history: longHistory });
    const pdf = await render(job);
    expect(pdf.text).toHaveLength(pdf.pages);
    expect(pdf.pages).toBeGreaterThan(5);
    pdf.text.forEach((page, i) => {
      expect(page).toContain(`Page ${i + 1} of ${pdf.pages}`);
      // Every page with a record carries the table header.
      if (/UTC\s+Hash\s+0x/.test(page)) expect(page).toMatch(/Transaction\s+Details/);
    });
    expect(pdf.text.join('\n').match(/^\s*2024-\d\d-\d\d 00:00:00 UTC\s+Hash/gm)).toHaveLength(300);
    expect(pdf.text[0]).toContain(`Data SHA-256: ${sha256(many)}`);
    expect(pdf.text.at(-1)).toContain(`Data SHA-256: ${sha256(many)}`);
    // Each footer says its own page number, once, and the final page count.
    pdf.text.forEach((page, i) => expect(page.match(/Page \d+ of \d+/g)).toEqual([`Page ${i + 1} of ${pdf.pages}`]));
    expect(job.progress.at(-1)).toBe(300);
    // Every row's own history, across the batches: each edit printed once.
    const edits = Object.values(longHistory).flat().length;
    expect(pdf.text.join('\n').match(/transaction\.updated by cli/g)).toHaveLength(edits);
    expect(pdf.text.join('\n').match(/no recorded changes/g)).toHaveLength(300 - Object.keys(longHistory).length);
  });
});
