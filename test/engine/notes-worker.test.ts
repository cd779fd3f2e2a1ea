/**
 * A report's notes counted by a worker thread on its own snapshot (the compiled dist/, where the
 * worker's module exists; `npm run build` first) equal those counted on the report's thread, and
 * when a commit came in since the report's snapshot, or the worker stopped (its heap's limit), the
 * report's thread counts them itself.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { tempEngine } from '../helpers/engine.js';
import { insertNewWallet } from '../../src/engine/wallets.js';
import { importRecords } from '../../src/engine/imports.js';
import { reportNotes } from '../../src/engine/report-notes.js';
import type { ImportRecord } from '../../src/importers/types.js';
import type { ReportNote } from '../../src/core/types.js';
import type { TxFilter } from '../../src/core/filters.js';

const compiled = (await import('../../dist/engine/report-notes.js')) as {
  notesOffThread: (
    path: string,
    unchanged: () => boolean,
    ws: string,
    filter: TxFilter,
    jurisdiction: string | undefined,
    onThread: () => ReportNote[],
    heap?: { maxOldGenerationSizeMb?: number; maxYoungGenerationSizeMb?: number },
  ) => () => ReportNote[];
};

const { engine, ws } = tempEngine('enterprise');
afterAll(() => engine.close());

const A = `0x${'a'.repeat(40)}`;
const B = `0x${'b'.repeat(40)}`;
const row = (i: number, to: string, from: string, direction: 'inflow' | 'outflow', fiat: string | null): ImportRecord => ({
  line: i + 1,
  tx_hash: `0x${i.toString(16).padStart(64, '0')}`,
  from_address: from,
  to_address: to,
  token: { symbol: 'ETH', address: null, decimals: 18 },
  amount: '1',
  fiat_value: fiat,
  direction,
  type: 'transfer',
  timestamp: Date.parse('2024-03-01T00:00:00Z') / 1000 + i * 600,
  notes: null,
});

describe('report notes off thread', () => {
  it('counts what the report thread counts; after a commit the report thread counts', () => {
    const [a, b] = engine.write(() => [A, B].map((address, i) => insertNewWallet(engine, ws, { address, chain: 'ethereum', label: `W${i}` }).id));
    // Sends to the other wallet, inflows without a value (unpriced).
    importRecords(engine, ws, [row(0, B, A, 'outflow', '10'), row(1, B, A, 'outflow', '12')], { walletId: a!, format: 'json' });
    importRecords(engine, ws, [row(2, B, `0x${'c'.repeat(40)}`, 'inflow', null), row(3, B, `0x${'d'.repeat(40)}`, 'inflow', null)], {
      walletId: b!,
      format: 'json',
    });
    const here = reportNotes(engine.db, ws, {}, 'us');
    expect(here.map((n) => [n.kind, n.count])).toEqual([['unpriced', 2]]);
    const refused = () => {
      throw new Error('counted on the report thread');
    };
    expect(compiled.notesOffThread(engine.ledgerPath, () => true, ws, {}, 'us', refused)()).toEqual(here);
    // A commit since the report's snapshot: the worker's snapshot may be another one.
    const counted = compiled.notesOffThread(
      engine.ledgerPath,
      () => false,
      ws,
      {},
      'us',
      () => [],
    )();
    expect(counted).toEqual([]);
  });

  it('a worker its heap limit stops tells nothing: the report thread counts the notes', async () => {
    const here = reportNotes(engine.db, ws, {}, 'us');
    let onThread = 0;
    // 2 MB of old generation: V8 stops the worker while it loads its modules, and no finally runs.
    const notes = compiled.notesOffThread(
      engine.ledgerPath,
      () => true,
      ws,
      {},
      'us',
      () => {
        onThread++;
        return reportNotes(engine.db, ws, {}, 'us');
      },
      {
        maxOldGenerationSizeMb: 2,
        maxYoungGenerationSizeMb: 1,
      },
    );
    // The worker's exit reaches this thread while it is idle.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(notes()).toEqual(here);
    expect(onThread).toBe(1);
  }, 20_000);
});
