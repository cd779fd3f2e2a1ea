/**
 * Lots on the local backend (docs/lots.md), on the worked example of test/lots/seed.ts: open lots
 * at a date in each scope, the allocation by order and by hand with every refusal, picks with
 * theirs, and a tax report that takes the recorded allocation and the picks. Figures by hand:
 *
 * Pool at the start of 2025-01-01 (FIFO pooled years): L1 0.5 (cost 500 of 1,000: the 2024 sale
 * took its first half), L2 2 (3,000), L3 1 (2,500). Balances then: Alpha 0.5, Beta 2, Gamma 2
 * (L3 and the row G without value): 4.5 held, 3.5 in lots.
 * - fifo order (oldest lot first, wallets in the order added): Alpha L1 0.5 (500); Beta L2 2
 *   (3,000); Gamma L3 1 (2,500) and 1 missing cost basis.
 * - hifo order (L3 2,500/ETH, L2 1,500, L1 1,000): Alpha L3 0.5 (1,250); Beta L3 0.5 (1,250),
 *   L2 1.5 (2,250); Gamma L2 0.5 (750), L1 0.5 (500), 1 missing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalBackend } from '../../src/engine/local-backend.js';
import { createExport, downloadExport } from '../../src/engine/exports.js';
import { txaRejectionOf } from '../helpers/errors.js';
import { lotsLedger, type LotsLedger } from './seed.js';

let l: LotsLedger;
let b: LocalBackend;
beforeEach(() => {
  l = lotsLedger();
  b = LocalBackend.open(l.path);
});
afterEach(async () => {
  await b.close();
});

const lotsOf = (res: { lots: { wallet_label: string | null; lot: string; quantity: string; cost_basis: number }[] }) =>
  res.lots.map((x) => [x.wallet_label, x.lot, x.quantity, x.cost_basis]);
const linesOf = (a: { lines: { wallet_label: string; lot: string | null; quantity: string; cost_basis: number | null }[] }) =>
  a.lines.map((x) => [x.wallet_label, x.lot, x.quantity, x.cost_basis]);
const events = async (type: string) => (await b.listEvents(l.ws, { type })).data;

describe('open lots', () => {
  it('at the end of 2024: the pool, no wallet', async () => {
    const res = await b.listLots(l.ws, { at: '2024-12-31' });
    expect(res).toMatchObject({ at: '2024-12-31', scope: 'universal', allocation: null });
    expect(lotsOf(res)).toEqual([
      [null, l.ids.l1, '0.5', 500],
      [null, l.ids.l2, '2', 3000],
      [null, l.ids.l3, '1', 2500],
    ]);
    expect(res.lots[0]).toMatchObject({ wallet_id: null, asset: 'ETH', date_acquired: '2023-01-10' });
  });

  it('in 2025 without a recorded allocation: per wallet by the fifo order, and so said', async () => {
    const res = await b.listLots(l.ws, { at: '2025-01-31' });
    expect(res).toMatchObject({ scope: 'wallet', allocation: 'computed' });
    expect(lotsOf(res)).toEqual([
      ['Alpha', l.ids.l1, '0.5', 500],
      ['Beta', l.ids.l2, '2', 3000],
      ['Gamma', l.ids.l3, '1', 2500],
    ]);
    // After Gamma's sale of 1 on 2025-02-01, FIFO in its own book: L3 is gone.
    expect(lotsOf(await b.listLots(l.ws, { at: '2025-02-01', wallet_id: l.wallets.gamma }))).toEqual([]);
    expect(lotsOf(await b.listLots(l.ws, { at: '2025-02-01', asset: 'eth', wallet_id: l.wallets.beta }))).toEqual([['Beta', l.ids.l2, '2', 3000]]);
  });

  it('refuses a date that is not a day, an unknown wallet and an unknown method', async () => {
    for (const at of ['2025-02-30', '31/12/2024', '2024-12-31T00:00:00Z']) {
      expect(await txaRejectionOf(b.listLots(l.ws, { at }))).toMatchObject({ code: 'INVALID_PARAMETERS', field: 'at' });
    }
    expect(await txaRejectionOf(b.listLots(l.ws, { wallet_id: 'wal_nope' }))).toMatchObject({ code: 'WALLET_NOT_FOUND', field: 'wallet_id' });
    expect(await txaRejectionOf(b.listLots(l.ws, { cost_basis: 'average' }))).toMatchObject({ code: 'INVALID_PARAMETERS', field: 'cost_basis' });
  });
});

describe('allocation by order', () => {
  it('records the fifo order once, with its event and actor; a second is ALLOCATION_EXISTS until --replace', async () => {
    expect(await txaRejectionOf(b.getLotAllocation(l.ws))).toMatchObject({ code: 'NOT_FOUND' });
    const dry = await b.createLotAllocation(l.ws, { dry_run: true });
    expect(dry).toMatchObject({ at: '2025-01-01', order: 'fifo', cost_basis: 'fifo', recorded: false, recorded_at: null });
    expect(await txaRejectionOf(b.getLotAllocation(l.ws))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await events('lots.allocated')).toEqual([]);

    const fifo = await b.createLotAllocation(l.ws, {});
    const expected = [
      ['Alpha', l.ids.l1, '0.5', 500],
      ['Beta', l.ids.l2, '2', 3000],
      ['Gamma', l.ids.l3, '1', 2500],
      ['Gamma', null, '1', null],
    ];
    expect(linesOf(fifo)).toEqual(expected);
    expect(linesOf(dry)).toEqual(expected);
    expect(fifo).toMatchObject({ recorded: true, recorded_by: 'cli' });
    expect(fifo.lines[3]).toMatchObject({ date_acquired: null, wallet_id: l.wallets.gamma, asset: 'ETH' });
    expect(await b.getLotAllocation(l.ws)).toEqual(fifo);
    const [event] = await events('lots.allocated');
    expect(event!.payload).toMatchObject({ actor: 'cli', at: '2025-01-01', order: 'fifo', cost_basis: 'fifo', lines: 4, replaced: false });

    const again = await txaRejectionOf(b.createLotAllocation(l.ws, { order: 'hifo' }));
    expect([again.code, again.status, again.exitCode, again.field]).toEqual(['ALLOCATION_EXISTS', 409, 1, 'replace']);
    expect(await b.getLotAllocation(l.ws)).toEqual(fifo);

    const hifo = await b.as('key_test').createLotAllocation(l.ws, { order: 'hifo', replace: true });
    expect(linesOf(hifo)).toEqual([
      ['Alpha', l.ids.l3, '0.5', 1250],
      ['Beta', l.ids.l3, '0.5', 1250],
      ['Beta', l.ids.l2, '1.5', 2250],
      ['Gamma', l.ids.l2, '0.5', 750],
      ['Gamma', l.ids.l1, '0.5', 500],
      ['Gamma', null, '1', null],
    ]);
    expect(hifo.recorded_by).toBe('key_test');
    expect((await events('lots.allocated'))[0]!.payload).toMatchObject({ actor: 'key_test', order: 'hifo', replaced: true });
    // Open lots from 2025 follow the recorded allocation.
    const open = await b.listLots(l.ws, { at: '2025-01-31', wallet_id: l.wallets.gamma });
    expect(open.allocation).toBe('recorded');
    expect(lotsOf(open)).toEqual([
      ['Gamma', l.ids.l1, '0.5', 500],
      ['Gamma', l.ids.l2, '0.5', 750],
    ]);
  });

  it('an allocation recorded at another day moves the split there: lots per wallet from 2024-10-01', async () => {
    // At 2024-10-01 the pool and the balances are those of 2025-01-01 (no row in between).
    const a = await b.createLotAllocation(l.ws, { at: '2024-10-01' });
    expect(a.at).toBe('2024-10-01');
    const before = await b.listLots(l.ws, { at: '2024-09-30' });
    expect(before).toMatchObject({ scope: 'universal', allocation: null });
    const after = await b.listLots(l.ws, { at: '2024-12-31' });
    expect(after).toMatchObject({ scope: 'wallet', allocation: 'recorded' });
    expect(lotsOf(after)).toEqual([
      ['Alpha', l.ids.l1, '0.5', 500],
      ['Beta', l.ids.l2, '2', 3000],
      ['Gamma', l.ids.l3, '1', 2500],
    ]);
  });

  it('the method the pooled years were filed with decides the lots left: lifo leaves L1 whole and L2 1.5', async () => {
    // LIFO in 2024: the sale of 0.5 on 2024-06-10 took the newest lot then, L3 (0.5 of it, 1,250).
    const a = await b.createLotAllocation(l.ws, { cost_basis: 'lifo', dry_run: true });
    expect(linesOf(a)).toEqual([
      ['Alpha', l.ids.l1, '0.5', 500],
      ['Beta', l.ids.l1, '0.5', 500],
      ['Beta', l.ids.l2, '1.5', 2250],
      ['Gamma', l.ids.l2, '0.5', 750],
      ['Gamma', l.ids.l3, '0.5', 1250],
      ['Gamma', null, '1', null],
    ]);
  });

  it('refuses bad fields: a day that is not one, an unknown order or method, order with lines', async () => {
    expect(await txaRejectionOf(b.createLotAllocation(l.ws, { at: '2025-13-01' }))).toMatchObject({ code: 'INVALID_FIELD', field: 'at' });
    expect(await txaRejectionOf(b.createLotAllocation(l.ws, { order: 'newest' }))).toMatchObject({ code: 'INVALID_FIELD', field: 'order' });
    expect(await txaRejectionOf(b.createLotAllocation(l.ws, { cost_basis: 'specific' }))).toMatchObject({ code: 'INVALID_FIELD', field: 'cost_basis' });
    expect(await txaRejectionOf(b.createLotAllocation(l.ws, { order: 'fifo', lines: [{ wallet: 'Alpha', lot: l.ids.l1, quantity: '0.5' }] }))).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'order',
    });
    expect(await events('lots.allocated')).toEqual([]);
  });
});

describe('a hand-made allocation', () => {
  const good = () => [
    { wallet: 'Alpha', lot: l.ids.l3, quantity: '0.5', line: 2 },
    { wallet: l.wallets.beta, lot: l.ids.l2, quantity: '2', line: 3 },
    { wallet: ' gamma ', lot: l.ids.l1, quantity: '0.5', line: 4 },
    { wallet: 'Gamma', lot: l.ids.l3, quantity: '0.5', line: 5 },
  ];

  it('records lines that add up, costs as the lots’ shares, the rest no lot covers as missing cost basis', async () => {
    const a = await b.createLotAllocation(l.ws, { lines: good() });
    expect(a).toMatchObject({ order: 'specific', recorded: true });
    expect(linesOf(a)).toEqual([
      ['Alpha', l.ids.l3, '0.5', 1250],
      ['Beta', l.ids.l2, '2', 3000],
      ['Gamma', l.ids.l1, '0.5', 500],
      ['Gamma', l.ids.l3, '0.5', 1250],
      ['Gamma', null, '1', null],
    ]);
  });

  it('refuses, naming the line, and writes nothing', async () => {
    const refused = async (lines: object[]) => txaRejectionOf(b.createLotAllocation(l.ws, { lines }));
    const [g1, g2, g3, g4] = good();
    expect(await refused([g1, g2, { ...g3, wallet: 'Delta' }, g4])).toMatchObject({ code: 'INVALID_ALLOCATION', field: 'line 4' });
    expect(await refused([g1, { ...g2, quantity: 'two' }, g3, g4])).toMatchObject({ code: 'INVALID_ALLOCATION', field: 'line 3' });
    expect(await refused([g1, { ...g2, quantity: '-2' }, g3, g4])).toMatchObject({ code: 'INVALID_ALLOCATION', field: 'line 3' });
    const unknownLot = await refused([g1, g2, g3, { ...g4, lot: l.ids.s24 }]);
    expect(unknownLot).toMatchObject({ code: 'INVALID_ALLOCATION', field: 'line 5' });
    expect(unknownLot.message).toContain('is not in the pool at 2025-01-01');
    // L1 has 0.5 left in the pool: giving 0.5 to Alpha and 0.5 to Gamma takes 1.
    const overLot = await refused([{ ...g1, lot: l.ids.l1 }, g2, g3, g4]);
    expect(overLot).toMatchObject({ code: 'INVALID_ALLOCATION', field: 'line 4' });
    expect(overLot.message).toContain(`lot ${l.ids.l1} holds 0.5 ETH in the pool at 2025-01-01; the lines up to this one take 1`);
    // Beta holds 2: 1.5 leaves 0.5 of L2 in the pool, so Beta's lines do not add up.
    const short = await refused([g1, { ...g2, quantity: '1.5' }, g3, g4]);
    expect(short).toMatchObject({ code: 'INVALID_ALLOCATION', field: 'line 3' });
    expect(short.message).toBe('line 3: wallet Beta holds 2 ETH at 2025-01-01; its lines assign 1.5, and the pool still has 0.5 to give');
    // Alpha holds 0.5 and is given 1.
    const over = await refused([{ ...g1, quantity: '1' }, g2, g3]);
    expect(over).toMatchObject({ code: 'INVALID_ALLOCATION', field: 'line 2' });
    expect(over.message).toContain('wallet Alpha holds 0.5 ETH at 2025-01-01; its lines up to this one assign 1');
    // A wallet left out while the pool still has lots of its asset.
    expect(await refused([g2, g3, g4])).toMatchObject({ code: 'INVALID_ALLOCATION', field: 'lines' });
    // Lines without a file name their place.
    expect(await refused([{ wallet: 'Nobody', lot: l.ids.l1, quantity: '1' }])).toMatchObject({ field: 'line 1' });
    expect(await refused([{ wallet: 'Alpha', lot: l.ids.l1 }])).toMatchObject({ code: 'MISSING_REQUIRED_FIELD', field: 'lines.0.quantity' });

    expect(await txaRejectionOf(b.getLotAllocation(l.ws))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await events('lots.allocated')).toEqual([]);
  });
});

describe('picks', () => {
  it('records a pick of a lot in the disposal’s wallet from 2025, noted after the sale; unpick removes them', async () => {
    await b.createLotAllocation(l.ws, {});
    const picks = await b.as('key_p').createLotPicks(l.ws, { disposal_id: l.ids.s25, picks: [{ lot: l.ids.l3, quantity: '0.6' }] });
    expect(picks).toEqual([
      { disposal_id: l.ids.s25, lot: l.ids.l3, quantity: '0.6', recorded_at: expect.any(String), recorded_by: 'key_p', after_sale: true },
    ]);
    expect(await b.listLotPicks(l.ws, {})).toEqual(picks);
    expect(await b.listLotPicks(l.ws, { disposal_id: l.ids.s24 })).toEqual([]);
    expect((await events('lots.picked'))[0]!.payload).toMatchObject({ actor: 'key_p', disposal_id: l.ids.s25, picks: [{ lot: l.ids.l3, quantity: '0.6' }] });
    // Picked already: refused until unpicked.
    expect(await txaRejectionOf(b.createLotPicks(l.ws, { disposal_id: l.ids.s25, picks: [{ lot: l.ids.l3 }] }))).toMatchObject({
      code: 'INVALID_PICK',
      field: l.ids.l3,
    });
    expect(await b.deleteLotPicks(l.ws, l.ids.s25)).toEqual({ disposal_id: l.ids.s25, deleted: 1 });
    expect(await b.listLotPicks(l.ws, {})).toEqual([]);
    expect(await b.deleteLotPicks(l.ws, l.ids.s25)).toEqual({ disposal_id: l.ids.s25, deleted: 0 });
    expect((await events('lots.unpicked')).length).toBe(1);
  });

  it('before 2025 a disposal picks from the pool: any wallet’s lot', async () => {
    const picks = await b.createLotPicks(l.ws, { disposal_id: l.ids.s24, picks: [{ lot: l.ids.l3, quantity: '0.5' }] });
    expect(picks.map((p) => [p.lot, p.quantity])).toEqual([[l.ids.l3, '0.5']]);
  });

  it('refuses another wallet’s lot, more than a lot holds, more than the disposal, a row that is no disposal, an unknown one; nothing written', async () => {
    await b.createLotAllocation(l.ws, {});
    const pick = (disposal_id: string, picks: object[]) => txaRejectionOf(b.createLotPicks(l.ws, { disposal_id, picks }));
    const beta = await pick(l.ids.s25, [{ lot: l.ids.l2 }]);
    expect([beta.code, beta.status, beta.exitCode, beta.field]).toEqual(['INVALID_PICK', 400, 1, l.ids.l2]);
    expect(beta.message).toBe(`lot ${l.ids.l2} is not open in wallet Gamma's ETH at the disposal ${l.ids.s25}`);
    const more = await pick(l.ids.s25, [{ lot: l.ids.l3, quantity: '1.5' }]);
    expect(more).toMatchObject({ code: 'INVALID_PICK', field: l.ids.l3 });
    expect(more.message).toContain(`lot ${l.ids.l3} holds 1 ETH in wallet Gamma's ETH at the disposal; the pick takes 1.5`);
    expect(await pick(l.ids.s25, [{ lot: l.ids.l3, quantity: 'lots' }])).toMatchObject({ code: 'INVALID_PICK', field: l.ids.l3 });
    expect(await pick(l.ids.s25, [{ lot: 'tx_nope' }])).toMatchObject({ code: 'INVALID_PICK', field: 'tx_nope' });
    // Pooled: the pool holds 3.5; the sale of 0.5 cannot take 2 (L2 whole) and 0.5 more.
    const beyond = await pick(l.ids.s24, [{ lot: l.ids.l2 }, { lot: l.ids.l3, quantity: '0.5' }]);
    expect(beyond).toMatchObject({ code: 'INVALID_PICK', field: l.ids.l3 });
    expect(beyond.message).toContain('it disposes of 0.5');
    expect(await pick(l.ids.l1, [{ lot: l.ids.l1 }])).toMatchObject({ code: 'INVALID_PICK', field: 'disposal_id' });
    expect(await pick('tx_unknown', [{ lot: l.ids.l1 }])).toMatchObject({ code: 'TRANSACTION_NOT_FOUND', field: 'disposal_id' });
    expect(await pick(l.ids.s25, [])).toMatchObject({ code: 'INVALID_FIELD', field: 'picks' });
    expect(await b.listLotPicks(l.ws, {})).toEqual([]);
    expect(await events('lots.picked')).toEqual([]);
    expect(await txaRejectionOf(b.listLotPicks(l.ws, { disposal_id: 'tx_unknown' }))).toMatchObject({ code: 'TRANSACTION_NOT_FOUND' });
    expect(await txaRejectionOf(b.deleteLotPicks(l.ws, 'tx_unknown'))).toMatchObject({ code: 'TRANSACTION_NOT_FOUND' });
  });
});

describe('in reports', () => {
  async function taxLots(options: Record<string, unknown>) {
    const rec = await createExport(b.engine, l.ws, {
      format: 'json',
      report_type: 'tax',
      filters: { start_date: '2025-01-01', end_date: '2025-12-31' },
      options,
    });
    const doc = JSON.parse(readFileSync(downloadExport(b.engine, l.ws, rec.id, join(l.dir, `${rec.id}.json`)).path, 'utf8'));
    return (doc.lots as Record<string, unknown>[]).map((r) => [r.acquired_transaction_id, r.quantity, r.cost_basis, r.gain_loss, r.note]);
  }

  it('a 2025 sale takes the lots its wallet received by the recorded allocation, and the picks under specific', async () => {
    // fifo order recorded: Gamma holds L3 1 (2,500); its sale of 1 for 3,000 gains 500.
    await b.createLotAllocation(l.ws, {});
    expect(await taxLots({})).toEqual([[l.ids.l3, '1', 2500, 500, null]]);
    // hifo order recorded: Gamma holds L1 0.5 (500) and L2 0.5 (750); FIFO takes L1 first.
    await b.createLotAllocation(l.ws, { order: 'hifo', replace: true });
    expect(await taxLots({})).toEqual([
      [l.ids.l1, '0.5', 500, 1000, null],
      [l.ids.l2, '0.5', 750, 750, null],
    ]);
    // specific: the pick (recorded now, after the sale) first, the rest by FIFO.
    await b.createLotPicks(l.ws, { disposal_id: l.ids.s25, picks: [{ lot: l.ids.l2, quantity: '0.5' }] });
    expect(await taxLots({ cost_basis: 'specific' })).toEqual([
      [l.ids.l2, '0.5', 750, 750, 'identified after the sale'],
      [l.ids.l1, '0.5', 500, 1000, 'not identified'],
    ]);
  });
});

describe('txa check: unrecorded_allocation', () => {
  it('is a finding while lots were pooled before 2025, a disposal follows, and no allocation is recorded', async () => {
    const { runChecks } = await import('../../src/checks/index.js');
    const { CHECK_KINDS } = await import('../../src/core/check-kinds.js');
    const others = CHECK_KINDS.filter((k) => k !== 'unrecorded_allocation');
    const check = (period: { startTs?: number; endTs?: number } = {}) => runChecks(b.engine, l.ws, period, [...others]);
    expect(check()).toEqual({
      clean: false,
      findings: [
        {
          kind: 'unrecorded_allocation',
          count: 1,
          examples: [{ at: '2025-01-01', transaction_id: l.ids.s25, wallet_id: l.wallets.gamma, wallet_label: 'Gamma', timestamp: '2025-02-01T12:00:00Z' }],
        },
      ],
    });
    // 2024 alone has no disposal from 2025 on.
    expect(check({ startTs: Date.UTC(2024, 0, 1) / 1000, endTs: Date.UTC(2025, 0, 1) / 1000 })).toEqual({ clean: true, findings: [] });
    // The transition is the US's: a workspace of another jurisdiction has no such finding.
    const { updateWorkspace } = await import('../../src/engine/workspaces.js');
    updateWorkspace(b.engine, l.ws, { jurisdiction: 'uk' });
    expect(check()).toEqual({ clean: true, findings: [] });
    updateWorkspace(b.engine, l.ws, { jurisdiction: 'us' });
    await b.createLotAllocation(l.ws, { dry_run: true });
    expect(check().clean).toBe(false);
    await b.createLotAllocation(l.ws, {});
    expect(check()).toEqual({ clean: true, findings: [] });
  });
});

describe('a wallet removed', () => {
  it('takes its allocation lines and its disposals’ picks with it; the other wallets’ stay', async () => {
    await b.createLotAllocation(l.ws, {});
    await b.createLotPicks(l.ws, { disposal_id: l.ids.s25, picks: [{ lot: l.ids.l3 }] });
    await b.createLotPicks(l.ws, { disposal_id: l.ids.s24, picks: [{ lot: l.ids.l1 }] });
    await b.deleteWallet(l.ws, l.wallets.gamma);
    expect(linesOf(await b.getLotAllocation(l.ws))).toEqual([
      ['Alpha', l.ids.l1, '0.5', 500],
      ['Beta', l.ids.l2, '2', 3000],
    ]);
    expect((await b.listLotPicks(l.ws, {})).map((p) => p.disposal_id)).toEqual([l.ids.s24]);
  });
});

describe('computed in a snapshot, written under the lock', () => {
  it('computes again when an event of the workspace came in between, else writes what it computed', async () => {
    const { computeThenWrite } = await import('../../src/engine/lot-writes.js');
    const { Engine } = await import('../../src/engine/engine.js');
    const { createTag } = await import('../../src/engine/tags.js');
    const other = Engine.open(l.path);
    try {
      let calls = 0;
      const written = computeThenWrite(
        b.engine,
        l.ws,
        () => {
          calls++;
          // Another process changes the workspace while the first computation runs.
          if (calls === 1) createTag(other, l.ws, { name: 'Between', type: 'neutral' });
          return calls;
        },
        (computed) => computed,
      );
      expect([written, calls]).toEqual([2, 2]);
      let quiet = 0;
      expect(
        computeThenWrite(
          b.engine,
          l.ws,
          () => ++quiet,
          (c) => c,
        ),
      ).toBe(1);
      expect(quiet).toBe(1);
    } finally {
      other.close();
    }
  });
});
