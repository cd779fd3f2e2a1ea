/**
 * The unmatched-transfer count a report notes (engine/row-findings.ts unmatchedTransferCount, read
 * by report-notes.ts) on a ledger of every case, counted by hand: a matched own transfer (none),
 * one sent to another own wallet and not matched (1), a confirmed bridge (none), a proposed bridge
 * (its 2 legs), a proposed bridge whose outflow is also sent to an own wallet (2, not 3), spam rows
 * of both kinds (none) and a fee sent to an own wallet (none): 5. The count equals `txa check`'s,
 * over the whole ledger, a period and each wallet's scope, whatever the count's chunks and batches.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { tempEngine } from '../helpers/engine.js';
import { insertNewWallet } from '../../src/engine/wallets.js';
import { insertTransactions } from '../../src/store/insert-transactions.js';
import { insertTransfer } from '../../src/store/transfers.js';
import type { NewTransaction } from '../../src/store/transactions.js';
import { unmatchedTransferCount, unmatchedTransfers } from '../../src/engine/row-findings.js';
import { reportNotes } from '../../src/engine/report-notes.js';
import { newRow } from '../helpers/new-row.js';
import type { CheckPeriod } from '../../src/store/checks.js';

const USDC = { symbol: 'USDC', address: null, decimals: 6 };
const DAY = 86_400;
const T0 = Date.parse('2024-05-01T10:00:00Z') / 1000;
const A_ADDR = `0x${'a'.repeat(40)}`;
const B_ADDR = `0x${'b'.repeat(40)}`;
const C_ADDR = `0x${'c'.repeat(40)}`;
const BRIDGE_IN = `0x${'8'.repeat(40)}`;
const BRIDGE_OUT = `0x${'9'.repeat(40)}`;

const { engine, ws } = tempEngine();
afterAll(() => engine.close());

const [a, b, c] = engine.write(() => [
  insertNewWallet(engine, ws, { address: A_ADDR, chain: 'ethereum', label: 'A' }).id,
  insertNewWallet(engine, ws, { address: B_ADDR, chain: 'polygon', label: 'B' }).id,
  insertNewWallet(engine, ws, { address: C_ADDR, chain: 'ethereum', label: 'C' }).id,
]) as [string, string, string];

let n = 0;
function row(
  wallet: string,
  chain: string,
  direction: 'inflow' | 'outflow',
  amount: string,
  from: string,
  to: string,
  ts: number,
  over: Partial<NewTransaction> = {},
): NewTransaction {
  const tx_hash = `0x${(++n).toString(16).padStart(64, '0')}`;
  const fields = { workspace_id: ws, wallet_id: wallet, chain, tx_hash, from_address: from, to_address: to, amount, direction, ts };
  return newRow({ ...fields, id: `tx_${wallet.slice(-6)}_${n}`, token: USDC, fiat_cents: Number.parseInt(amount, 10) * 100, ...over });
}

const day = (d: number) => T0 + d * DAY;
// Day 1: A → C on ethereum, both legs in the ledger, matched.
const matchedOut = row(a, 'ethereum', 'outflow', '100', A_ADDR, C_ADDR, day(1));
const matchedIn = { ...row(c, 'ethereum', 'inflow', '100', A_ADDR, C_ADDR, day(1)), tx_hash: matchedOut.tx_hash };
// Day 2: A → C, the inflow not in the ledger, not matched: 1.
const byAddress = row(a, 'ethereum', 'outflow', '200', A_ADDR, C_ADDR, day(2));
// Day 3: a bridge ethereum → polygon, confirmed.
const confirmedOut = row(a, 'ethereum', 'outflow', '300', A_ADDR, BRIDGE_OUT, day(3));
const confirmedIn = row(b, 'polygon', 'inflow', '299', BRIDGE_IN, B_ADDR, day(3) + 600);
// Day 4: a bridge proposed, not confirmed: 2.
const proposedOut = row(a, 'ethereum', 'outflow', '400', A_ADDR, BRIDGE_OUT, day(4));
const proposedIn = row(b, 'polygon', 'inflow', '399', BRIDGE_IN, B_ADDR, day(4) + 600);
// Day 5: a bridge proposed whose outflow names C as its recipient: counted once, 2.
const bothOut = row(a, 'ethereum', 'outflow', '500', A_ADDR, C_ADDR, day(5));
const bothIn = row(b, 'polygon', 'inflow', '499', BRIDGE_IN, B_ADDR, day(5) + 600);
// Day 6: spam to C, and a spam pair that would be a bridge: none.
const spamToC = row(a, 'ethereum', 'outflow', '600', A_ADDR, C_ADDR, day(6), { spam: 1 });
const spamOut = row(a, 'ethereum', 'outflow', '700', A_ADDR, BRIDGE_OUT, day(6) + 3600, { spam: 1 });
const spamIn = row(b, 'polygon', 'inflow', '699', BRIDGE_IN, B_ADDR, day(6) + 4200, { spam: 1 });
// Day 7: a fee row whose recipient is C: no transfer.
const fee = row(a, 'ethereum', 'outflow', '1', A_ADDR, C_ADDR, day(7), { type: 'fee' });

engine.write(() => {
  insertTransactions(
    engine.db,
    [matchedOut, matchedIn, byAddress, confirmedOut, confirmedIn, proposedOut, proposedIn, bothOut, bothIn, spamToC, spamOut, spamIn, fee],
    0,
  );
  const created_at = '2024-06-01T00:00:00Z';
  insertTransfer(engine.db, { id: 'tr_matched', workspace_id: ws, kind: 'internal', matched_by: 'auto', created_at }, [matchedOut.id, matchedIn.id]);
  insertTransfer(engine.db, { id: 'tr_bridge', workspace_id: ws, kind: 'bridge', matched_by: 'user', created_at }, [confirmedOut.id, confirmedIn.id]);
});

describe('the unmatched-transfer count of report notes', () => {
  const cases: [string, CheckPeriod, number][] = [
    ['the whole ledger', {}, 5],
    ['day 4 only (the proposed bridge)', { startTs: day(4), endTs: day(5) }, 2],
    ['days 1 to 3 (matched, by address, confirmed)', { startTs: day(1), endTs: day(4) }, 1],
    // A's rows: day 2, day 4's outflow, day 5's outflow; B's: the inflows of days 4 and 5; C's: none.
    ['wallet A', { walletIds: [a] }, 3],
    ['wallet B', { walletIds: [b] }, 2],
    ['wallet C', { walletIds: [c] }, 0],
  ];
  for (const [name, period, expected] of cases) {
    it(`${name}: ${expected}, as txa check counts`, () => {
      expect(unmatchedTransferCount(engine.db, ws, period)).toBe(expected);
      expect(unmatchedTransfers(engine.db, ws, period).count).toBe(expected);
    });
    // The count streams the free rows in chunks and tests the legs in batches: at a row per chunk
    // and a leg per batch every chunk and batch boundary falls between rows and legs of one pair.
    it(`${name}: ${expected} with the smallest chunks and batches`, () => {
      expect(unmatchedTransferCount(engine.db, ws, period, { chunk: 1, batch: 1 })).toBe(expected);
      expect(unmatchedTransferCount(engine.db, ws, period, { chunk: 2, batch: 3 })).toBe(expected);
    });
  }

  it("txa check's examples are the unmatched rows, oldest first, each once", () => {
    const { examples } = unmatchedTransfers(engine.db, ws, {});
    expect(examples.map((e) => e.transaction_id)).toEqual([byAddress.id, proposedOut.id, proposedIn.id, bothOut.id, bothIn.id]);
  });

  it('the note says the count, and a report of a scope without any says nothing of them', () => {
    const notes = reportNotes(engine.db, ws, {});
    expect(notes.find((x) => x.kind === 'unmatched_transfer')).toEqual({
      kind: 'unmatched_transfer',
      count: 5,
      message: '5 rows look like own transfers not matched (unmatched_transfer): each is taxed as a disposal or income until matched; txa check lists them',
    });
    expect(reportNotes(engine.db, ws, { walletIds: [c] }).some((x) => x.kind === 'unmatched_transfer')).toBe(false);
  });
});
