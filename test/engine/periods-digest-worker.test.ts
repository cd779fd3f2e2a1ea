/**
 * The digests of a close made with worker threads (the compiled dist/, where the workers' modules
 * exist; `npm run build` first) equal the ones made in this thread, on a ledger large enough for
 * the workers (docs/periods.md, "Digests"): the rows' (and the worker keeps the rows' hashes) and
 * the reports'.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { tempEngine } from '../helpers/engine.js';
import { insertNewWallet } from '../../src/engine/wallets.js';
import { importRecords } from '../../src/engine/imports.js';
import { hashedRowsDigest } from '../../src/engine/rows-digest.js';
import { reportDigestsOneByOne } from '../../src/engine/periods.js';
import type { ImportRecord } from '../../src/importers/types.js';
import type { Engine } from '../../src/engine/engine.js';

const compiled = (await import('../../dist/engine/periods.js')) as {
  periodDigests: (
    e: Engine,
    ws: string,
    through: string,
    from: string | null,
  ) => Promise<{ rows: string; rows_version?: number; reports: Record<string, string> }>;
};

const { engine, ws } = tempEngine('enterprise');
afterAll(() => engine.close());

describe('rows digest off thread', () => {
  it('equals the digest made in this thread, over 21,000 rows several to a second', async () => {
    const A = `0x${'a'.repeat(40)}`;
    const wallet = engine.write(() => insertNewWallet(engine, ws, { address: A, chain: 'ethereum', label: 'A' }).id);
    const start = Date.parse('2024-01-01T00:00:00Z') / 1000;
    const records: ImportRecord[] = Array.from({ length: 21_000 }, (_, i) => ({
      line: i + 1,
      tx_hash: `0x${i.toString(16).padStart(64, '0')}`,
      from_address: `0x${'b'.repeat(40)}`,
      to_address: A,
      token: { symbol: 'ETH', address: null, decimals: 18 },
      amount: `${(i % 97) + 1}`,
      fiat_value: i % 5 === 0 ? null : `${i}.5`,
      // Every tenth a sale, so the reports have lines.
      direction: i % 10 === 9 ? 'outflow' : 'inflow',
      type: 'transfer',
      timestamp: start + Math.floor(i / 3) * 600,
      notes: i % 7 === 0 ? `note ${i}` : null,
    }));
    importRecords(engine, ws, records, { walletId: wallet, format: 'json' });
    const unhashed = () => engine.db.prepare('SELECT count(*) FROM transactions WHERE row_hash IS NULL').pluck().get();
    // Made here in a transaction, so nothing is kept: every row is hashed from its line.
    const here = engine.db.transaction(() => hashedRowsDigest(engine.db, ws, '2024-12-31'))();
    expect([here.made.rowids.length, unhashed()]).toEqual([21_000, 21_000]);
    const off = await compiled.periodDigests(engine, ws, '2024-12-31', null);
    expect(off).toMatchObject({ rows: here.digest, rows_version: 2 });
    expect(unhashed()).toBe(0);
    expect(off.rows).not.toBe(hashedRowsDigest(engine.db, ws, '2024-01-31').digest);
    // The reports' digests off the thread (the tax CSV hashed on the report's thread, the file
    // worker reading the rows only) equal each report's file written here, one by one.
    expect(off.reports).toEqual(await reportDigestsOneByOne(engine, ws, '2024-12-31', null));
  });
});
