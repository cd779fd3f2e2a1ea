/**
 * Closed periods on a real ledger file (docs/periods.md): close, reopen and list with their
 * events; the guard refusing every kind of write into a closed period whole (nothing written)
 * and letting writes after it through; the errors of bad input.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { join } from 'node:path';
import { tempEngine } from '../helpers/engine.js';
import { txaErrorOf, txaRejectionOf } from '../helpers/errors.js';
import type { Engine } from '../../src/engine/engine.js';
import { insertNewWallet, removeWallet } from '../../src/engine/wallets.js';
import { importFile, importRecords } from '../../src/engine/imports.js';
import { getTransaction } from '../../src/engine/transactions.js';
import { attachFile, tagTransaction, untagTransaction, updateTransaction } from '../../src/engine/transaction-edits.js';
import { createTag, deleteTag } from '../../src/engine/tags.js';
import { matchTransfer, unmatchTransfer } from '../../src/engine/transfers.js';
import { markTokens } from '../../src/engine/spam-tokens.js';
import { assertOpen, closePeriod, listPeriods, reopenPeriod } from '../../src/engine/periods.js';
import { listEvents } from '../../src/engine/events.js';
import { runAllChecks } from '../../src/checks/index.js';
import { createExport, downloadExport } from '../../src/engine/exports.js';
import type { ImportRecord } from '../../src/importers/types.js';
import { transactionId } from '../../src/core/ids.js';
import { A, B, ETH, STRANGER, at, idOf, record } from '../helpers/period-records.js';

const SCAM = { symbol: 'SCAM', address: '0x' + '5'.repeat(40), decimals: 18 };

let engine: Engine;
let ws: string;
let dir: string;
let wallets: Record<'a' | 'b', string>;

const load = (wallet: 'a' | 'b', records: ImportRecord[]) => importRecords(engine, ws, records, { walletId: wallets[wallet], format: 'json' });

/** What a refused write must leave as it was. */
const state = () => ({
  rows: engine.db.prepare('SELECT count(*) FROM transactions').pluck().get(),
  events: engine.db.prepare('SELECT count(*) FROM events').pluck().get(),
  links: engine.db.prepare('SELECT count(*) FROM transaction_tags').pluck().get(),
  transfers: engine.db.prepare('SELECT count(*) FROM transfers').pluck().get(),
  values: engine.db
    .prepare("SELECT group_concat(id || ':' || ifnull(fiat_cents, '') || ':' || spam || ':' || ifnull(notes, ''), ',') FROM transactions")
    .pluck()
    .get(),
});

const r2024 = record(1, '2024-06-01T10:00:00Z');
const r2024b = record(2, '2024-11-30T10:00:00Z', { direction: 'outflow', from_address: A, to_address: STRANGER, fiat_value: '3500' });
const r2025 = record(3, '2025-02-01T10:00:00Z');
let id2024: string;
let id2025: string;

beforeEach(() => {
  ({ engine, ws, dir } = tempEngine('pro'));
  wallets = engine.write(() => ({
    a: insertNewWallet(engine, ws, { address: A, chain: 'ethereum', label: 'A' }).id,
    b: insertNewWallet(engine, ws, { address: B, chain: 'ethereum', label: 'B' }).id,
  }));
  load('a', [r2024, r2024b, r2025]);
  id2024 = idOf(wallets.a, r2024);
  id2025 = idOf(wallets.a, r2025);
});
afterEach(() => engine.close());

describe('period close, reopen and list', () => {
  it('closes through a day with a note, digests and a period.closed event carrying the actor', async () => {
    const period = await closePeriod(engine.as('key_1'), ws, { through: '2024-12-31', note: 'filed 2025-04-10' });
    expect(period).toMatchObject({ through: '2024-12-31', status: 'closed', from: null, note: 'filed 2025-04-10', closed_by: 'key_1', reason: null });
    expect(period.digests!.rows).toMatch(/^[0-9a-f]{64}$/);
    expect(period.digests!.reports.tax).toMatch(/^[0-9a-f]{64}$/);
    const event = listEvents(engine, ws, { type: 'period.closed' }).data[0]!;
    expect(event.payload).toMatchObject({ actor: 'key_1', period: { through: '2024-12-31', note: 'filed 2025-04-10' } });
  });

  it('reopens with a reason kept in the history and the period.reopened event; the history stays', async () => {
    await closePeriod(engine, ws, { through: '2024-12-31' });
    const reopened = reopenPeriod(engine.as('key_2'), ws, { through: '2024-12-31', reason: 'amended return' });
    expect(reopened).toMatchObject({ status: 'reopened', reopened_by: 'key_2', reason: 'amended return' });
    expect(listEvents(engine, ws, { type: 'period.reopened' }).data[0]!.payload).toMatchObject({ actor: 'key_2', reason: 'amended return' });
    await closePeriod(engine, ws, { through: '2024-12-31', note: 'amended' });
    const [p] = listPeriods(engine, ws);
    expect(p!.status).toBe('closed');
    expect(p!.history.map((h) => h.action)).toEqual(['close', 'reopen', 'close']);
  });

  it('a second close starts the day after the first; only the latest close reopens', async () => {
    await closePeriod(engine, ws, { through: '2023-12-31' });
    const second = await closePeriod(engine, ws, { through: '2024-12-31' });
    expect(second.from).toBe('2024-01-01');
    const e = txaErrorOf(() => reopenPeriod(engine, ws, { through: '2023-12-31', reason: 'x' }));
    expect([e.code, e.field]).toEqual(['PERIOD_CLOSED', 'through']);
    expect(e.message).toContain('2024-12-31');
  });

  it('refuses a date that is not a day, a missing reason, an unknown close and a day closed already', async () => {
    for (const through of ['2024-13-01', '2024-02-30', '31/12/2024', 2024]) {
      const e = await txaRejectionOf(closePeriod(engine, ws, { through }));
      expect([e.code, e.field]).toEqual(['INVALID_FIELD', 'through']);
    }
    expect((await txaRejectionOf(closePeriod(engine, ws, {}))).field).toBe('through');
    await closePeriod(engine, ws, { through: '2024-12-31' });
    const missing = txaErrorOf(() => reopenPeriod(engine, ws, { through: '2024-12-31' }));
    expect([missing.code, missing.field]).toEqual(['MISSING_REQUIRED_FIELD', 'reason']);
    const unknown = txaErrorOf(() => reopenPeriod(engine, ws, { through: '2024-06-30', reason: 'x' }));
    expect([unknown.code, unknown.field]).toEqual(['INVALID_FIELD', 'through']);
    const again = await txaRejectionOf(closePeriod(engine, ws, { through: '2024-06-30' }));
    expect([again.code, again.field, again.status]).toEqual(['PERIOD_CLOSED', 'through', 409]);
    expect(listPeriods(engine, ws)).toHaveLength(1);
  });
});

describe('the guard: every write into a closed period is refused whole', () => {
  beforeEach(async () => {
    await closePeriod(engine, ws, { through: '2024-12-31' });
  });

  /** Runs a write that must be refused: PERIOD_CLOSED (409, exit 1) naming `field`, and nothing changed. */
  function refused(write: () => unknown, field: string) {
    const before = state();
    const e = txaErrorOf(write);
    expect([e.code, e.status, e.exitCode, e.field]).toEqual(['PERIOD_CLOSED', 409, 1, field]);
    expect(state()).toEqual(before);
    return e;
  }

  it('a late import of a 2024 row is refused whole, saying how many; a 2025 row goes in (docs/accounting.md, example 14)', () => {
    const late = record(10, '2024-12-31T23:59:59Z');
    const e = refused(() => load('a', [record(11, '2025-03-01T00:00:00Z'), late]), idOf(wallets.a, late));
    expect(e.extra).toMatchObject({ count: 1, closed_through: '2024-12-31' });
    expect(e.message).toContain('1 row');
    const two = refused(
      () => load('b', [record(12, '2024-01-05T00:00:00Z', { to_address: B }), record(13, '2024-02-05T00:00:00Z', { to_address: B })]),
      idOf(wallets.b, record(12, '2024-01-05T00:00:00Z', { to_address: B })),
    );
    expect(two.extra).toMatchObject({ count: 2 });
    const summary = load('a', [record(14, '2025-01-01T00:00:00Z')]);
    expect(summary.imported).toBe(1);
  });

  it('a re-import of rows stored already is no write and passes', () => {
    const summary = load('a', [r2024, r2024b, r2025]);
    expect([summary.imported, summary.duplicates]).toEqual([0, 3]);
  });

  it('an import file with a 2024 row is refused whole', () => {
    const row = {
      tx_hash: `0x${'e'.repeat(64)}`,
      timestamp: '2024-05-01T00:00:00Z',
      amount: '2',
      token: ETH,
      direction: 'inflow',
      from_address: STRANGER,
      to_address: A,
    };
    writeFileSync(join(dir, 'late.ndjson'), `${JSON.stringify(row)}\n`);
    const e = refused(() => importFile(engine, ws, join(dir, 'late.ndjson'), { walletId: wallets.a }), transactionId(wallets.a, row.tx_hash, 't:ETH:inflow:0'));
    expect(e.extra).toMatchObject({ count: 1 });
  });

  it('tx update (notes, fiat value, spam) of a 2024 row is refused; of a 2025 row it goes through', () => {
    refused(() => updateTransaction(engine, ws, id2024, { notes: 'late note' }), id2024);
    refused(() => updateTransaction(engine, ws, id2024, { fiat_value: 1 }), id2024);
    refused(() => updateTransaction(engine, ws, id2024, { spam: true }), id2024);
    expect(updateTransaction(engine, ws, id2025, { notes: 'fine', fiat_value: 12.5 }).notes).toBe('fine');
  });

  it('tx tag and untag of a 2024 row are refused; deleting a tag linked to one too', async () => {
    const tag = createTag(engine, ws, { name: 'Income', type: 'income' });
    refused(() => tagTransaction(engine, ws, id2024, { tag_ids: [tag.id] }), id2024);
    reopenPeriod(engine, ws, { through: '2024-12-31', reason: 'tag it' });
    tagTransaction(engine, ws, id2024, { tag_ids: [tag.id] });
    await closePeriod(engine, ws, { through: '2024-12-31' });
    refused(() => untagTransaction(engine, ws, id2024, tag.id), id2024);
    refused(() => deleteTag(engine, ws, tag.id), id2024);
    expect(tagTransaction(engine, ws, id2025, { tag_ids: [tag.id] }).tags).toHaveLength(1);
  });

  it('an attachment on a 2024 row is refused', () => {
    refused(() => attachFile(engine, ws, id2024, { file_name: 'r.pdf', content_type: 'application/pdf', data: Buffer.from('%PDF-1.4') }), id2024);
  });

  it('transfers match and unmatch touching a 2024 leg are refused', async () => {
    reopenPeriod(engine, ws, { through: '2024-12-31', reason: 'load a pair' });
    const out = record(20, '2024-08-01T00:00:00Z', { direction: 'outflow', from_address: A, to_address: STRANGER });
    const into = record(21, '2024-08-01T00:05:00Z', { to_address: B });
    load('a', [out]);
    load('b', [into]);
    await closePeriod(engine, ws, { through: '2024-12-31' });
    refused(() => matchTransfer(engine, ws, { transaction_id: idOf(wallets.a, out), counterpart_id: idOf(wallets.b, into) }), idOf(wallets.a, out));
    reopenPeriod(engine, ws, { through: '2024-12-31', reason: 'match' });
    const transfer = matchTransfer(engine, ws, { transaction_id: idOf(wallets.a, out), counterpart_id: idOf(wallets.b, into) });
    await closePeriod(engine, ws, { through: '2024-12-31' });
    refused(() => unmatchTransfer(engine, ws, transfer.id!), idOf(wallets.a, out));
  });

  it('removing a wallet with 2024 rows is refused', () => {
    refused(() => removeWallet(engine, ws, wallets.a), id2024);
    load('b', [record(30, '2025-05-01T00:00:00Z', { to_address: B })]);
    expect(removeWallet(engine, ws, wallets.b)).toMatchObject({ deleted: true });
  });

  it('tokens spam and unspam flipping 2024 rows are refused; a token whose rows are all later goes through', () => {
    reopenPeriod(engine, ws, { through: '2024-12-31', reason: 'load' });
    load('a', [record(40, '2024-03-01T00:00:00Z', { token: SCAM, fiat_value: null })]);
    return closePeriod(engine, ws, { through: '2024-12-31' })
      .then(() => {
        refused(
          () => markTokens(engine, ws, [{ chain: 'ethereum', address: SCAM.address }], true),
          idOf(wallets.a, record(40, '2024-03-01T00:00:00Z', { token: SCAM })),
        );
        // Marked spam while open, then closed: unspam would flip the 2024 row back.
        reopenPeriod(engine, ws, { through: '2024-12-31', reason: 'mark it' });
        markTokens(engine, ws, [{ chain: 'ethereum', address: SCAM.address }], true);
        return closePeriod(engine, ws, { through: '2024-12-31' });
      })
      .then(() => {
        refused(
          () => markTokens(engine, ws, [{ chain: 'ethereum', address: SCAM.address }], false),
          idOf(wallets.a, record(40, '2024-03-01T00:00:00Z', { token: SCAM })),
        );
        const other = { ...SCAM, address: '0x' + '6'.repeat(40) };
        load('a', [record(41, '2025-03-01T00:00:00Z', { token: other, fiat_value: null })]);
        expect(markTokens(engine, ws, [{ chain: 'ethereum', address: other.address }], true)).toHaveLength(1);
      });
  });

  it('assertOpen refuses days, times and rows on or before the closed day, naming the flag or the row', () => {
    expect(txaErrorOf(() => assertOpen(engine, ws, { dates: ['2024-12-31'], field: 'at' })).field).toBe('at');
    expect(txaErrorOf(() => assertOpen(engine, ws, { timestamps: [at('2024-12-31T23:59:59Z')] })).code).toBe('PERIOD_CLOSED');
    const rows = txaErrorOf(() => assertOpen(engine, ws, { rowIds: [id2025, id2024] }));
    expect([rows.field, rows.extra?.count]).toEqual([id2024, 1]);
    assertOpen(engine, ws, { dates: ['2025-01-01'], timestamps: [at('2025-01-01T00:00:00Z')], rowIds: [id2025] });
  });

  it('after a reopen the same writes go through', () => {
    reopenPeriod(engine, ws, { through: '2024-12-31', reason: 'late invoice' });
    expect(updateTransaction(engine, ws, id2024, { notes: 'late note' }).notes).toBe('late note');
    expect(load('a', [record(50, '2024-10-01T00:00:00Z')]).imported).toBe(1);
    expect(getTransaction(engine, ws, id2024).notes).toBe('late note');
  });
});

describe('digests and check closed_period_changed', () => {
  const changed = async () => (await runAllChecks(engine, ws, {}, [])).findings.find((f) => f.kind === 'closed_period_changed');

  it('a fresh close is clean; an edit behind txa (the guard dropped, a value changed in SQLite) is found, rows and tax', async () => {
    await closePeriod(engine, ws, { through: '2024-12-31' });
    expect(await changed()).toBeUndefined();
    const triggers = engine.db.prepare("SELECT name FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'period_guard_%'").pluck().all() as string[];
    for (const t of triggers) engine.db.exec(`DROP TRIGGER ${t}`);
    engine.db.prepare('UPDATE transactions SET fiat_cents = 350001 WHERE id = ?').run(idOf(wallets.a, r2024b));
    const f = await changed();
    // The sale's proceeds changed: its rows, tax and Form 8949 digests; the roll-forward (costs) is the same.
    expect(f?.examples.map((e) => [e.through, e.digest])).toEqual([
      ['2024-12-31', 'rows'],
      ['2024-12-31', 'tax'],
      ['2024-12-31', 'form8949'],
    ]);
    expect(f?.count).toBe(3);
  });

  it('the rows digest depends on what the rows are, not on their ids or the order they were written in (the tax CSV names ids, so its digest does)', async () => {
    const first = (await closePeriod(engine, ws, { through: '2024-12-31' })).digests;
    const other = tempEngine('pro');
    try {
      const w = other.engine.write(() => ({
        b: insertNewWallet(other.engine, other.ws, { address: B, chain: 'ethereum', label: 'B' }).id,
        a: insertNewWallet(other.engine, other.ws, { address: A, chain: 'ethereum', label: 'A' }).id,
      }));
      importRecords(other.engine, other.ws, [r2025, r2024b], { walletId: w.a, format: 'json' });
      importRecords(other.engine, other.ws, [r2024], { walletId: w.a, format: 'json' });
      const second = (await closePeriod(other.engine, other.ws, { through: '2024-12-31' })).digests;
      expect(second!.rows).toBe(first!.rows);
      expect(second!.reports.tax).not.toBe(first!.reports.tax);
    } finally {
      other.engine.close();
    }
  });

  it('reopened, changed and closed again: the new close differs from the first one, and check says by whom and why', async () => {
    await closePeriod(engine, ws, { through: '2024-12-31' });
    reopenPeriod(engine.as('key_9'), ws, { through: '2024-12-31', reason: 'amended' });
    updateTransaction(engine, ws, id2024, { fiat_value: 3100 });
    await closePeriod(engine, ws, { through: '2024-12-31' });
    const f = await changed();
    // The purchase's cost changed: every report of the period with it.
    expect(f?.examples.map((e) => e.digest)).toEqual(['rows', 'tax', 'form8949', 'rollforward']);
    expect(f?.examples[0]).toMatchObject({ since: { reopened_by: 'key_9', reason: 'amended' } });
    // Allowed, it is neither run nor reported.
    expect((await runAllChecks(engine, ws, {}, ['closed_period_changed'])).findings.find((x) => x.kind === 'closed_period_changed')).toBeUndefined();
  });
});

describe('docs/accounting.md', () => {
  /**
   * 21. A closed 2024 refuses a late 2024 row and takes a 2025 row. Wallet A buys 1 ETH for
   * 2,000.00 on 2024-03-01 and sells 0.5 ETH for 1,500.00 on 2024-09-01: cost 2,000.00 × 0.5 =
   * 1,000.00, gain 500.00, short. 2024 is closed. A late file brings a sale of 0.25 ETH for 900.00
   * on 2024-12-20: refused (1 row), nothing written, 2024's gain stays 500.00 and its digests
   * match. A 2025-02-01 sale of 0.25 ETH for 1,000.00 goes in: cost 2,000.00 × 0.25 = 500.00, gain
   * 500.00, short (held 2024-03-01 to 2025-02-01, under a year).
   */
  it('21. A closed 2024 refuses a late 2024 row and takes a 2025 row', async () => {
    const fresh = tempEngine('pro');
    const e = fresh.engine;
    try {
      const w = e.write(() => insertNewWallet(e, fresh.ws, { address: A, chain: 'ethereum', label: 'A' }).id);
      const sale = (n: number, iso: string, amount: string, value: string) =>
        record(n, iso, { direction: 'outflow', from_address: A, to_address: STRANGER, amount, fiat_value: value });
      const put = (rs: ImportRecord[]) => importRecords(e, fresh.ws, rs, { walletId: w, format: 'json' });
      put([record(1, '2024-03-01T12:00:00Z', { amount: '1', fiat_value: '2000.00' }), sale(2, '2024-09-01T12:00:00Z', '0.5', '1500.00')]);
      const taxCsv = async (start: string, end: string) => {
        const rec = await createExport(e, fresh.ws, { format: 'csv', report_type: 'tax', filters: { start_date: start, end_date: end } });
        return parse(readFileSync(downloadExport(e, fresh.ws, rec.id, join(fresh.dir, `${rec.id}.csv`)).path, 'utf8')) as string[][];
      };
      const gains = (rows: string[][]) =>
        rows
          .slice(1)
          .filter((r) => r[1] !== '' && r[0] !== '')
          .map((r) => [r[2], r[3], r[4], r[5], r[6]]);
      expect(gains(await taxCsv('2024-01-01', '2024-12-31'))).toEqual([['2024-09-01', '1500.00', '1000.00', '500.00', 'short']]);
      await closePeriod(e, fresh.ws, { through: '2024-12-31', note: 'filed' });

      const rows = () => e.db.prepare('SELECT count(*) FROM transactions').pluck().get();
      const late = txaErrorOf(() => put([sale(3, '2024-12-20T12:00:00Z', '0.25', '900.00')]));
      expect([late.code, late.extra?.count, rows()]).toEqual(['PERIOD_CLOSED', 1, 2]);
      expect(gains(await taxCsv('2024-01-01', '2024-12-31'))).toEqual([['2024-09-01', '1500.00', '1000.00', '500.00', 'short']]);

      expect(put([sale(4, '2025-02-01T12:00:00Z', '0.25', '1000.00')]).imported).toBe(1);
      expect(gains(await taxCsv('2025-01-01', '2025-12-31'))).toEqual([['2025-02-01', '1000.00', '500.00', '500.00', 'short']]);
      expect((await runAllChecks(e, fresh.ws, {}, [])).findings.find((f) => f.kind === 'closed_period_changed')).toBeUndefined();
    } finally {
      e.close();
    }
  });
});
