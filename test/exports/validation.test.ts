/** Every bad export body is refused with the API's code and (dotted) field, before anything is stored. */
import { describe, test, expect } from 'vitest';
import { tempLedger, addWallets, addMany } from './seed.js';
import { createExport, listExports } from '../../src/engine/exports.js';
import { TxaError } from '../../src/core/errors.js';

const { engine, ws } = tempLedger('enterprise');
const wallets = addWallets(engine, ws, ['Main']);
addMany(engine, ws, wallets, 5);

async function failure(body: unknown): Promise<{ code: string; field: string | undefined }> {
  try {
    await createExport(engine, ws, body);
  } catch (err) {
    expect(err).toBeInstanceOf(TxaError);
    return { code: (err as TxaError).code, field: (err as TxaError).field };
  }
  throw new Error(`accepted ${JSON.stringify(body)}`);
}

const cases: [string, unknown, string, string | undefined][] = [
  ['format missing', {}, 'MISSING_REQUIRED_FIELD', 'format'],
  ['format unknown', { format: 'xlsx' }, 'INVALID_FIELD', 'format'],
  ['pdf without report_type', { format: 'pdf' }, 'MISSING_REPORT_TYPE', 'report_type'],
  ['unknown report_type', { format: 'pdf', report_type: 'weekly' }, 'INVALID_FIELD', 'report_type'],
  ['report_type on csv', { format: 'csv', report_type: 'summary' }, 'INVALID_FIELD', 'report_type'],
  ['columns on json', { format: 'json', columns: ['date'] }, 'INVALID_FIELD', 'columns'],
  ['columns on pdf', { format: 'pdf', report_type: 'detailed', columns: ['date'] }, 'INVALID_FIELD', 'columns'],
  ['unknown column', { format: 'csv', columns: ['date', 'price'] }, 'INVALID_FIELD', 'columns'],
  ['empty columns', { format: 'csv', columns: [] }, 'INVALID_FIELD', 'columns'],
  ['columns not an array', { format: 'csv', columns: 'date' }, 'INVALID_FIELD', 'columns'],
  ['end not after start', { format: 'csv', filters: { start_date: '2024-02-01', end_date: '2024-02-01' } }, 'INVALID_DATE_RANGE', 'filters.end_date'],
  ['end before start', { format: 'csv', filters: { start_date: '2024-02-02', end_date: '2024-02-01' } }, 'INVALID_DATE_RANGE', 'filters.end_date'],
  ['bad start date', { format: 'csv', filters: { start_date: '2024-13-01' } }, 'INVALID_FIELD', 'filters.start_date'],
  ['bad chain', { format: 'csv', filters: { chain: 'solana' } }, 'INVALID_FIELD', 'filters.chain'],
  ['bad direction', { format: 'csv', filters: { direction: 'sideways' } }, 'INVALID_FIELD', 'filters.direction'],
  ['negative min_amount', { format: 'csv', filters: { min_amount: -1 } }, 'INVALID_FIELD', 'filters.min_amount'],
  ['min_amount over 78 integer digits', { format: 'csv', filters: { min_amount: 1e99 } }, 'INVALID_FIELD', 'filters.min_amount'],
  ['max_amount over 78 integer digits', { format: 'csv', filters: { max_amount: '1' + '0'.repeat(78) } }, 'INVALID_FIELD', 'filters.max_amount'],
  ['has_tags not boolean', { format: 'csv', filters: { has_tags: 'yes' } }, 'INVALID_FIELD', 'filters.has_tags'],
  ['wallet_ids not array', { format: 'csv', filters: { wallet_ids: 'w1' } }, 'INVALID_FIELD', 'filters.wallet_ids'],
  ['unknown wallet', { format: 'csv', filters: { wallet_ids: ['wal_nope'] } }, 'WALLET_NOT_FOUND', 'filters.wallet_ids'],
  ['bad group_by', { format: 'csv', options: { group_by: 'day' } }, 'INVALID_FIELD', 'options.group_by'],
  ['bad date_format', { format: 'csv', options: { date_format: 'YYYY/MM/DD' } }, 'INVALID_FIELD', 'options.date_format'],
  ['bad time pattern', { format: 'csv', options: { date_format: 'DD/MM/YYYY hh:mm' } }, 'INVALID_FIELD', 'options.date_format'],
  ['bad currency', { format: 'csv', options: { currency: 'EURO' } }, 'INVALID_FIELD', 'options.currency'],
  ['include_summary not boolean', { format: 'csv', options: { include_summary: 'no' } }, 'INVALID_FIELD', 'options.include_summary'],
  ['bad cost_basis', { format: 'pdf', report_type: 'tax', options: { cost_basis: 'avg' } }, 'INVALID_FIELD', 'options.cost_basis'],
  ['bad cost_basis on a tax CSV', { format: 'csv', report_type: 'tax', options: { cost_basis: 'average' } }, 'INVALID_FIELD', 'options.cost_basis'],
  ['bad basis_scope', { format: 'csv', report_type: 'tax', options: { basis_scope: 'pool' } }, 'INVALID_FIELD', 'options.basis_scope'],
  ['basis_scope not a string', { format: 'pdf', report_type: 'tax', options: { basis_scope: 1 } }, 'INVALID_FIELD', 'options.basis_scope'],
  ['bad fee_treatment', { format: 'csv', report_type: 'tax', options: { fee_treatment: 'net' } }, 'INVALID_FIELD', 'options.fee_treatment'],
  ['income report as PDF', { format: 'pdf', report_type: 'income' }, 'INVALID_FIELD', 'report_type'],
  ['audit report as JSON', { format: 'json', report_type: 'audit' }, 'INVALID_FIELD', 'report_type'],
  ['columns on a tax CSV', { format: 'csv', report_type: 'tax', columns: ['date'] }, 'INVALID_FIELD', 'columns'],
  ['form8949 as JSON', { format: 'json', report_type: 'form8949' }, 'INVALID_FIELD', 'report_type'],
  ['turbotax as PDF', { format: 'pdf', report_type: 'turbotax' }, 'INVALID_FIELD', 'report_type'],
  ['taxact as JSON', { format: 'json', report_type: 'taxact' }, 'INVALID_FIELD', 'report_type'],
  ['reconciliation as PDF', { format: 'pdf', report_type: 'reconciliation' }, 'INVALID_FIELD', 'report_type'],
  ['at on a rollforward', { format: 'csv', report_type: 'rollforward', options: { at: '2025-01-01' } }, 'INVALID_FIELD', 'options.at'],
  ['at on transactions', { format: 'csv', options: { at: '2025-01-01' } }, 'INVALID_FIELD', 'options.at'],
  ['at not a day', { format: 'json', report_type: 'positions', options: { at: '2025-02-30' } }, 'INVALID_FIELD', 'options.at'],
  ['an unknown report option', { format: 'csv', report_type: 'positions', options: { as_of: '2025-01-01' } }, 'INVALID_FIELD', 'options'],
  ['columns on a form8949 CSV', { format: 'csv', report_type: 'form8949', columns: ['date'] }, 'INVALID_FIELD', 'columns'],
  ['group_by on an income JSON', { format: 'json', report_type: 'income', options: { group_by: 'month' } }, 'INVALID_FIELD', 'options.group_by'],
  ['bad delivery method', { format: 'csv', delivery: { method: 'fax' } }, 'INVALID_FIELD', 'delivery.method'],
  ['email without recipients', { format: 'csv', delivery: { method: 'email' } }, 'MISSING_REQUIRED_FIELD', 'delivery.email_recipients'],
  [
    'email with empty recipients',
    { format: 'csv', delivery: { method: 'email', email_recipients: [] } },
    'MISSING_REQUIRED_FIELD',
    'delivery.email_recipients',
  ],
  [
    'invalid address',
    { format: 'csv', delivery: { method: 'email', email_recipients: ['ok@example.com', 'not-an-address'] } },
    'INVALID_FIELD',
    'delivery.email_recipients',
  ],
  ['webhook without url', { format: 'csv', delivery: { method: 'webhook' } }, 'MISSING_REQUIRED_FIELD', 'delivery.webhook_url'],
  ['webhook ftp url', { format: 'csv', delivery: { method: 'webhook', webhook_url: 'ftp://example.com/x' } }, 'INVALID_FIELD', 'delivery.webhook_url'],
  ['webhook not a url', { format: 'csv', delivery: { method: 'webhook', webhook_url: 'example.com/hook' } }, 'INVALID_FIELD', 'delivery.webhook_url'],
];

describe('export body validation', () => {
  test.each(cases)('%s', async (_name, body, code, field) => {
    expect(await failure(body)).toEqual({ code, field });
  });

  test('a body that is not an object is INVALID_JSON', async () => {
    expect((await failure(['csv'])).code).toBe('INVALID_JSON');
  });

  test('e-mail delivery without an SMTP server is refused up front', async () => {
    const saved = process.env.TXA_SMTP_URL;
    delete process.env.TXA_SMTP_URL;
    try {
      expect(await failure({ format: 'csv', delivery: { method: 'email', email_recipients: ['a@example.com'] } })).toEqual({
        code: 'INVALID_FIELD',
        field: 'delivery.method',
      });
    } finally {
      if (saved !== undefined) process.env.TXA_SMTP_URL = saved;
    }
  });

  test('nothing was stored by the refused requests, and a valid body is accepted with the defaults', async () => {
    expect(listExports(engine, ws, {}).pagination.total).toBe(0);
    const rec = await createExport(engine, ws, { format: 'csv', filters: { start_date: '2024-01-01', end_date: '2024-01-02', wallet_ids: wallets } });
    expect(rec).toMatchObject({ status: 'completed', format: 'csv', transaction_count: 5, delivery: { method: 'download' } });
    const stored = JSON.parse(engine.db.prepare('SELECT request FROM exports WHERE id = ?').pluck().get(rec.id) as string);
    expect(stored.options).toEqual({
      currency: 'USD',
      date_format: 'YYYY-MM-DD',
      include_summary: true,
      include_logo: true,
      cost_basis: 'fifo',
      // No basis_scope: the scope follows each disposal's year (docs/accounting.md "Scope by year").
      fee_treatment: 'adjust',
    });
  });
});
