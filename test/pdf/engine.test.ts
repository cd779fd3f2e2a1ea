/** The four reports through the real export pipeline, on a real SQLite ledger. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createExport, downloadExport } from '../../src/engine/exports.js';
import { createTag } from '../../src/engine/tags.js';
import { tagTransaction, updateTransaction } from '../../src/engine/transaction-edits.js';
import { listTransactions } from '../../src/engine/transactions.js';
import { addMany, addTxs, addWallets, tempLedger } from '../exports/seed.js';
import { pdfPages, pdfText } from './helpers.js';

describe('PDF reports from the export pipeline', () => {
  const { engine, ws, dir } = tempLedger('pro');
  const wallets = addWallets(engine, ws, ['Main', 'Café Ξ']);
  addMany(engine, ws, wallets, 120);
  addTxs(engine, ws, wallets, [
    { wallet: 1, day: '2024-02-01', amount: '7', fiat: null, direction: 'outflow', notes: 'Gift to 日本 partner', hash: `0x${'f'.repeat(64)}` },
  ]);

  const download = async (body: object, name: string) => {
    const rec = await createExport(engine, ws, body);
    expect(rec.status).toBe('completed');
    return downloadExport(engine, ws, rec.id, join(dir, name)).path;
  };

  it.each(['summary', 'detailed', 'tax', 'audit'])('writes a %s report whose footers agree with its page count', async (reportType) => {
    const file = await download({ format: 'pdf', report_type: reportType }, `${reportType}.pdf`);
    const pages = pdfPages(file);
    const text = pdfText(file);
    expect(text).toHaveLength(pages);
    text.forEach((page, i) => {
      expect(page).toContain('Workspace: Exports');
      expect(page).toContain(`Page ${i + 1} of ${pages}`);
    });
  });

  it('the tax report knows each tag’s type from the workspace', async () => {
    const salary = createTag(engine, ws, { name: 'Salary', type: 'income' });
    const [first] = listTransactions(engine, ws, { direction: 'inflow', limit: '1' }).data;
    tagTransaction(engine, ws, first!.id, { tag_ids: [salary.id] });
    const text = pdfText(await download({ format: 'pdf', report_type: 'tax' }, 'tax-types.pdf')).join('\n');
    expect(text).toMatch(/^\s*Income\s+[\d,]+\.\d\d/m);
    expect(text).not.toContain('Type unknown');
  });

  it('prints the SHA-256 that anyone can recompute from the JSON export of the same filter', async () => {
    const filters = { start_date: '2024-01-01', end_date: '2024-02-28' };
    const json = JSON.parse(readFileSync(await download({ format: 'json', filters }, 'same.json'), 'utf8')) as { transactions: unknown[] };
    const canon = (v: unknown): string =>
      Array.isArray(v)
        ? `[${v.map(canon).join(',')}]`
        : v && typeof v === 'object'
          ? `{${Object.keys(v)
              .sort()
              .map((k) => `${JSON.stringify(k)}:${canon((v as Record<string, unknown>)[k])}`)
              .join(',')}}`
          : JSON.stringify(v);
    const expected = createHash('sha256')
      .update(json.transactions.map((t) => canon(t) + '\n').join(''))
      .digest('hex');
    const text = pdfText(await download({ format: 'pdf', report_type: 'audit', filters }, 'audit.pdf'));
    expect(json.transactions).toHaveLength(121);
    expect(text[0]).toContain(`Data SHA-256: ${expected}`);
    expect(text.at(-1)).toContain(`Data SHA-256: ${expected}`);
    expect(text.join('\n')).toContain('Gift to 日本 partner');
  });

  it("lists each transaction's changes from the event log, oldest first", async () => {
    const filters = { start_date: '2024-02-01', end_date: '2024-02-02', min_amount: '7', max_amount: '7' };
    const gift = listTransactions(engine, ws, { workspace_id: ws, ...filters }).data.find((t) => t.notes === 'Gift to 日本 partner');
    const tag = createTag(engine, ws, { name: 'Gifts', type: 'expense' });
    updateTransaction(engine, ws, gift!.id, { notes: 'Gift to 日本 partner, approved' });
    tagTransaction(engine, ws, gift!.id, { tag_ids: [tag.id] });
    const text = pdfText(await download({ format: 'pdf', report_type: 'audit', filters }, 'history.pdf')).join('\n');
    expect(text).toMatch(
      /History\s+\S+ \S+ UTC\s+transaction\.updated by cli\n\s+notes: Gift to 日本 partner → Gift to 日本 partner, approved\n\s+\S+ \S+ UTC\s+transaction\.tagged by cli/,
    );
  });
});
