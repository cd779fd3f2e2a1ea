/**
 * The rows digest of version 2 (docs/periods.md "Digests"): each row's hash kept with the row
 * (migration 32) and cleared by the triggers on any change to what its line holds, so the digest
 * made from the kept hashes always equals one made from scratch; closes recorded with version 1
 * (before it) still verify the old way; `check` finds every kind of change under both versions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { tempEngine } from '../helpers/engine.js';
import { Engine } from '../../src/engine/engine.js';
import { insertNewWallet } from '../../src/engine/wallets.js';
import { importRecords } from '../../src/engine/imports.js';
import { attachFile, tagTransaction, updateTransaction } from '../../src/engine/transaction-edits.js';
import { createTag, updateTag } from '../../src/engine/tags.js';
import { closePeriod, reopenPeriod } from '../../src/engine/periods.js';
import { hashedRowsDigest, keptRowsDigest, rowsDigest, rowsDigestOf } from '../../src/engine/rows-digest.js';
import { digestRows, endOfDay } from '../../src/store/periods.js';
import { runAllChecks } from '../../src/checks/index.js';
import { A, B, STRANGER, at, idOf, record } from '../helpers/period-records.js';

const THROUGH = '2024-12-31';

/**
 * Version 2 by its definition, from the version-1 lines alone (nothing kept): per second, the
 * SHA-256 of each line, sorted, concatenated in time order, hashed.
 */
function fromScratch(e: Engine, ws: string, through: string): string {
  const bySecond = new Map<number, string[]>();
  for (const [ts, line] of digestRows(e.db, ws, endOfDay(through)))
    bySecond.set(ts, [...(bySecond.get(ts) ?? []), createHash('sha256').update(line).digest('hex')]);
  const all = createHash('sha256');
  for (const ts of [...bySecond.keys()].sort((x, y) => x - y)) for (const h of bySecond.get(ts)!.sort()) all.update(h, 'hex');
  return all.digest('hex');
}

const unhashed = (e: Engine) => e.db.prepare('SELECT count(*) FROM transactions WHERE row_hash IS NULL').pluck().get() as number;

describe('kept row hashes', () => {
  const { engine, ws } = tempEngine('pro');
  let wa: string;
  let wb: string;
  const out = record(10, '2024-05-01T00:00:00Z', { direction: 'outflow', from_address: A, to_address: B });
  const into = record(11, '2024-05-01T00:00:00Z', { from_address: A, to_address: B });
  beforeAll(() => {
    ({ a: wa, b: wb } = engine.write(() => ({
      a: insertNewWallet(engine, ws, { address: A, chain: 'ethereum', label: 'A' }).id,
      b: insertNewWallet(engine, ws, { address: B, chain: 'ethereum', label: 'B' }).id,
    })));
    // Three rows in one second, so the order within a second counts.
    const same = '2024-03-01T12:00:00Z';
    importRecords(engine, ws, [record(1, same), record(2, same, { amount: '2' }), record(3, same, { amount: '3' }), record(4, '2024-04-01T00:00:00Z'), out], {
      walletId: wa,
      format: 'json',
    });
    importRecords(engine, ws, [into], { walletId: wb, format: 'json' });
  });
  afterAll(() => engine.close());

  /** After each change: some hash was cleared, the digest moved, and the kept digest equals the one from scratch (no stale hash). */
  const changes = (what: string, change: () => void) =>
    it(what, () => {
      const before = keptRowsDigest(engine.db, ws, THROUGH);
      expect(unhashed(engine)).toBe(0);
      change();
      expect(unhashed(engine)).toBeGreaterThan(0);
      const now = keptRowsDigest(engine.db, ws, THROUGH);
      expect(now).not.toBe(before);
      expect(now).toBe(fromScratch(engine, ws, THROUGH));
      expect(unhashed(engine)).toBe(0);
    });

  it('a first digest hashes every row and keeps the hashes; the second reads them; both equal the definition', () => {
    expect(unhashed(engine)).toBe(6);
    const first = keptRowsDigest(engine.db, ws, THROUGH);
    expect(unhashed(engine)).toBe(0);
    expect(keptRowsDigest(engine.db, ws, THROUGH)).toBe(first);
    expect(first).toBe(fromScratch(engine, ws, THROUGH));
    expect(first).not.toBe(rowsDigest(engine.db, ws, THROUGH));
    // Computed without keeping (inside a transaction, as check does): the same.
    expect(engine.db.transaction(() => hashedRowsDigest(engine.db, ws, THROUGH).digest)()).toBe(first);
  });

  changes('a fiat value changed by SQL', () =>
    engine.db.prepare('UPDATE transactions SET fiat_cents = 1 WHERE id = ?').run(idOf(wa, record(4, '2024-04-01T00:00:00Z'))),
  );
  changes('a note changed by txa', () => updateTransaction(engine, ws, idOf(wa, record(4, '2024-04-01T00:00:00Z')), { notes: 'n' }));
  changes('a row added', () => importRecords(engine, ws, [record(5, '2024-06-01T00:00:00Z')], { walletId: wa, format: 'json' }));
  changes('a tag linked', () => {
    const tag = createTag(engine, ws, { name: 'Gift', type: 'income' });
    tagTransaction(engine, ws, idOf(wa, record(1, '2024-03-01T12:00:00Z')), { tag_ids: [tag.id] });
  });
  changes('a tag renamed', () => {
    const tag = engine.db.prepare("SELECT id FROM tags WHERE name = 'Gift'").pluck().get() as string;
    updateTag(engine, ws, tag, { name: 'Present' });
  });
  changes('an attachment added', () =>
    attachFile(engine, ws, idOf(wa, record(2, '2024-03-01T12:00:00Z')), { file_name: 'r.pdf', content_type: 'application/pdf', data: Buffer.from('%PDF-1.4') }),
  );
  changes('the two legs joined in one transfer by SQL', () =>
    engine.db
      .prepare('UPDATE transactions SET transfer_id = (SELECT transfer_id FROM transactions WHERE id = ?) WHERE id = ?')
      .run(idOf(wa, out), idOf(wb, into)),
  );
  changes("an own transfer's kind changed by SQL", () => engine.db.prepare("UPDATE transfers SET kind = 'bridge'").run());
  changes("the other leg's hash changed by SQL", () => engine.db.prepare("UPDATE transactions SET tx_hash = '0xfeed' WHERE id = ?").run(idOf(wb, into)));
  changes("a wallet's address changed by SQL", () => engine.db.prepare('UPDATE wallets SET address = ? WHERE id = ?').run(`0x${'c'.repeat(40)}`, wb));
  changes('a row removed by SQL (the other leg of a transfer)', () => engine.db.prepare('DELETE FROM transactions WHERE wallet_id = ?').run(wb));

  it('a hash set by hand to another value moves the digest (found by check), it does not hide a change', () => {
    const before = keptRowsDigest(engine.db, ws, THROUGH);
    engine.db.prepare("UPDATE transactions SET row_hash = X'00' WHERE id = ?").run(idOf(wa, record(1, '2024-03-01T12:00:00Z')));
    expect(keptRowsDigest(engine.db, ws, THROUGH)).not.toBe(before);
  });
});

describe('closes of both versions and check', () => {
  let engine: Engine;
  let ws: string;
  let wa: string;
  const sale = record(2, '2024-11-30T10:00:00Z', { direction: 'outflow', from_address: A, to_address: STRANGER, fiat_value: '3500' });
  beforeAll(() => {
    ({ engine, ws } = tempEngine('pro'));
    wa = engine.write(() => insertNewWallet(engine, ws, { address: A, chain: 'ethereum', label: 'A' }).id);
    importRecords(engine, ws, [record(1, '2024-06-01T10:00:00Z'), sale, record(3, '2025-02-01T10:00:00Z')], { walletId: wa, format: 'json' });
  });
  afterAll(() => engine.close());
  const changed = async () => (await runAllChecks(engine, ws, {}, [])).findings.find((f) => f.kind === 'closed_period_changed');

  it('a close records version 2 and keeps the hashes; a later close reads the closed rows’ hashes through the guard', async () => {
    const p = await closePeriod(engine, ws, { through: THROUGH });
    expect(p.digests).toMatchObject({ rows_version: 2, rows: fromScratch(engine, ws, THROUGH) });
    expect(await changed()).toBeUndefined();
    // Hashes cleared by SQL on closed rows: the guard lets row_hash alone be written, so the next close keeps them again.
    engine.db.exec('UPDATE transactions SET row_hash = NULL');
    const later = await closePeriod(engine, ws, { through: '2025-12-31' });
    expect(later.digests?.rows).toBe(fromScratch(engine, ws, '2025-12-31'));
    expect(unhashed(engine)).toBe(0);
    reopenPeriod(engine, ws, { through: '2025-12-31', reason: 'test' });
  });

  it('a close recorded with version 1 (no rows_version) verifies the old way: clean, then an SQL edit is found', async () => {
    const digests = JSON.parse(engine.db.prepare("SELECT digests FROM period_records WHERE through = ? AND action = 'close'").pluck().get(THROUGH) as string);
    const v1 = { rows: rowsDigest(engine.db, ws, THROUGH), reports: digests.reports };
    expect(rowsDigestOf(engine.db, ws, THROUGH, undefined)).toBe(v1.rows);
    engine.db.prepare("UPDATE period_records SET digests = ? WHERE through = ? AND action = 'close'").run(JSON.stringify(v1), THROUGH);
    expect(await changed()).toBeUndefined();
    for (const t of engine.db.prepare("SELECT name FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'period_guard_%'").pluck().all() as string[])
      engine.db.exec(`DROP TRIGGER ${t}`);
    engine.db.prepare('UPDATE transactions SET fiat_cents = 350001 WHERE id = ?').run(idOf(wa, sale));
    const f = await changed();
    expect(f?.examples.map((e) => [e.through, e.digest, e.recorded === v1.rows])).toEqual([
      [THROUGH, 'rows', true],
      [THROUGH, 'tax', false],
      [THROUGH, 'form8949', false],
    ]);
  });

  it('reopened and closed again after a version-1 close: the reports are compared, the rows of two versions are not', async () => {
    engine.db.prepare('UPDATE transactions SET fiat_cents = 350000 WHERE id = ?').run(idOf(wa, sale));
    const reopened = engine.as('key_2');
    reopenPeriod(reopened, ws, { through: THROUGH, reason: 'amended' });
    await closePeriod(engine, ws, { through: THROUGH });
    expect(await changed()).toBeUndefined();
  });
});

describe('a guard made before migration 31', () => {
  it('is made again on open, so a close can keep the hashes of closed rows', async () => {
    const { engine, ws, dir } = tempEngine('pro');
    const wa = engine.write(() => insertNewWallet(engine, ws, { address: A, chain: 'ethereum', label: 'A' }).id);
    importRecords(engine, ws, [record(1, '2024-06-01T10:00:00Z'), record(3, '2025-02-01T10:00:00Z')], { walletId: wa, format: 'json' });
    await closePeriod(engine, ws, { through: THROUGH });
    // The guard's update trigger as it was: every column.
    engine.db.exec('UPDATE transactions SET row_hash = NULL');
    const sql = engine.db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'period_guard_tx_update'").pluck().get() as string;
    engine.db.exec('DROP TRIGGER period_guard_tx_update');
    engine.db.exec(sql.replace(/AFTER UPDATE OF .* ON transactions/, 'AFTER UPDATE ON transactions'));
    engine.close();
    const again = Engine.open(`${dir}/ledger.db`);
    try {
      expect((await closePeriod(again, ws, { through: '2025-12-31' })).digests?.rows).toBe(fromScratch(again, ws, '2025-12-31'));
      expect(unhashed(again)).toBe(0);
      // The guard still refuses a change to a closed row.
      expect(() => again.db.prepare('UPDATE transactions SET notes = ? WHERE ts < ?').run('x', at('2025-01-01T00:00:00Z'))).toThrow(/PERIOD_CLOSED/);
    } finally {
      again.close();
    }
  });
});
