/** Format pdf is wired to the PDF writer (src/exporters/pdf); runs once that module exists. */
import { test, expect } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempLedger, addWallets, addMany } from './seed.js';
import { createExport, downloadExport } from '../../src/engine/exports.js';

const PDF_WRITER = join(import.meta.dirname, '../../src/exporters/pdf/index.ts');

test.skipIf(!existsSync(PDF_WRITER))('a detailed PDF export completes and yields a PDF file', async () => {
  const { engine, ws, dir } = tempLedger('pro');
  addMany(engine, ws, addWallets(engine, ws, ['Main']), 30);
  const rec = await createExport(engine, ws, { format: 'pdf', report_type: 'detailed', options: { pdf_title: 'Ledger' } });
  expect(rec).toMatchObject({ status: 'completed', format: 'pdf', report_type: 'detailed', transaction_count: 30 });
  const bytes = readFileSync(downloadExport(engine, ws, rec.id, join(dir, 'r.pdf')).path);
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(bytes.length).toBe(rec.file_size);
});
