/**
 * Specific identification (docs/lots.md "Specific identification"): the picks of a disposal,
 * each checked against the lots its book holds at the disposal, recorded with when and by whom.
 */
import type { Engine } from './engine.js';
import { TxaError } from '../core/errors.js';
import { nowIso } from '../core/clock.js';
import { fromBaseUnits, normalizeDecimal } from '../core/money.js';
import { validateBody } from '../core/validate.js';
import type { QueryParams } from '../core/types.js';
import { picksCreateSchema, type LotPick, type PicksDeleted } from '../core/lots.js';
import { deletePicks, insertPicks, listPicks, type PickRow } from '../store/lots.js';
import { selectById } from '../store/transactions.js';
import { loadAssetTable } from './ledger-rows.js';
import { openLotsAt, type HeldLot } from './lot-ledger.js';
import { assertLotDateOpen, computeThenWrite, positive, scaleOfText, units } from './lot-writes.js';

function pickOf(p: PickRow, disposalTs: number | undefined): LotPick {
  return {
    disposal_id: p.disposal_id,
    lot: p.lot_id,
    quantity: p.quantity,
    recorded_at: p.recorded_at,
    recorded_by: p.actor,
    after_sale: disposalTs !== undefined && Date.parse(p.recorded_at) / 1000 > disposalTs,
  };
}

/** `GET /lots/picks?disposal_id=`: the picks recorded, of one disposal or of all. */
export function listLotPicks(engine: Engine, ws: string, query: QueryParams): LotPick[] {
  engine.workspace(ws);
  const id = query.disposal_id;
  if (id !== undefined && !selectById(engine.db, ws, id)) {
    throw new TxaError('TRANSACTION_NOT_FOUND', `transaction ${id} not found`, { field: 'disposal_id' });
  }
  const rows = listPicks(engine.db, ws, id);
  const times = new Map<string, number | undefined>();
  return rows.map((p) => {
    if (!times.has(p.disposal_id)) times.set(p.disposal_id, selectById(engine.db, ws, p.disposal_id)?.ts);
    return pickOf(p, times.get(p.disposal_id));
  });
}

/** Whether a row is a disposal (docs/lots.md "Specific identification: `txa lots pick`"): an outflow of a non-zero amount that is no own transfer's leg nor an approval. */
function isDisposal(row: { direction: string; transfer_id: string | null; type: string; amount: string }): boolean {
  return row.direction === 'outflow' && row.transfer_id === null && row.type !== 'approval' && positive(row.amount) !== null;
}

/**
 * `POST /lots/picks` `{disposal_id, picks: [{lot, quantity?}]}`: records which lots a disposal
 * takes, at the time of recording, after its picks recorded before. Each lot must be open in the
 * disposal's book just before it (the pool before 2025, the wallet's own from then on, reckoned
 * with the picks recorded and FIFO for the rest), picked once per disposal, and no lot or the
 * disposal given more than it holds. Returns the disposal's picks.
 */
export function createLotPicks(engine: Engine, ws: string, body: unknown): LotPick[] {
  engine.workspace(ws);
  const input = validateBody(picksCreateSchema, body);
  const compute = () => {
    const tx = selectById(engine.db, ws, input.disposal_id);
    if (!tx) throw new TxaError('TRANSACTION_NOT_FOUND', `transaction ${input.disposal_id} not found`, { field: 'disposal_id' });
    if (!isDisposal(tx)) {
      const what = tx.transfer_id !== null ? 'a leg of an own transfer' : tx.direction === 'inflow' ? 'an inflow' : 'no disposal (zero amount or an approval)';
      throw new TxaError('INVALID_PICK', `transaction ${tx.id} is ${what}; only a disposal takes lots`, { field: 'disposal_id' });
    }
    assertLotDateOpen(engine, ws, tx.ts, 'disposal_id');
    // The lots open at the start of the disposal's second, in the scope of its moment.
    return { tx, held: openLotsAt(engine, ws, tx.ts, 'specific', tx.ts) };
  };
  return computeThenWrite(engine, ws, compute, ({ tx, held }) => {
    assertLotDateOpen(engine, ws, tx.ts, 'disposal_id');
    const existing = listPicks(engine.db, ws, tx.id);
    const asset = loadAssetTable(engine).assetOf(tx.chain, { symbol: tx.token_symbol, address: tx.token_address });
    const pooled = held.scope === 'universal';
    const book = new Map<string, HeldLot>();
    for (const l of held.lots) {
      if (l.assetKey === asset.key && (pooled ? l.walletId === null : l.walletId === tx.wallet_id)) book.set(l.lotId, l);
    }
    const where = pooled ? `the pool of ${asset.symbol}` : `wallet ${tx.wallet_label}'s ${asset.symbol}`;
    const picked = new Set(existing.map((p) => p.lot_id));
    const scale = Math.max(tx.token_decimals, ...[...book.values()].map((l) => scaleOfText(l.quantity)));
    const disposed = units(normalizeDecimal(tx.amount)!.replace(/^-/, ''), scale);
    const fresh: PickRow[] = [];
    const recordedAt = nowIso();
    let total = 0n;
    for (const p of [...existing.map((e) => ({ lot: e.lot_id, quantity: e.quantity, old: true })), ...input.picks.map((p) => ({ ...p, old: false }))]) {
      const field = p.lot;
      const lot = book.get(p.lot);
      if (!p.old && picked.has(p.lot)) {
        throw new TxaError('INVALID_PICK', `lot ${p.lot} is already picked for ${tx.id}; remove the disposal's picks with txa lots unpick first`, { field });
      }
      if (!lot) {
        if (p.old) continue;
        throw new TxaError('INVALID_PICK', `lot ${p.lot} is not open in ${where} at the disposal ${tx.id}`, { field });
      }
      const holds = units(lot.quantity, scale);
      // A lot picked without a quantity gives what the disposal still needs, up to all it holds (the ledger's rule).
      const needed = disposed > total ? disposed - total : 0n;
      let q = holds < needed ? holds : needed;
      if (p.quantity !== null && p.quantity !== undefined) {
        const exact = positive(p.quantity);
        if (exact === null) throw new TxaError('INVALID_PICK', `lot ${p.lot}: quantity must be a positive number, got '${p.quantity}'`, { field });
        if (scaleOfText(exact) > scale)
          throw new TxaError('INVALID_PICK', `lot ${p.lot}: quantity ${exact} has more decimals than ${asset.symbol}'s ${scale}`, { field });
        q = units(exact, scale);
        if (q > holds) {
          throw new TxaError('INVALID_PICK', `lot ${p.lot} holds ${lot.quantity} ${asset.symbol} in ${where} at the disposal; the pick takes ${exact}`, {
            field,
          });
        }
      }
      total += q;
      if (!p.old) {
        picked.add(p.lot);
        fresh.push({
          workspace_id: ws,
          disposal_id: tx.id,
          lot_id: p.lot,
          quantity: p.quantity ? positive(p.quantity) : null,
          recorded_at: recordedAt,
          actor: engine.actor,
        });
      }
    }
    if (total > disposed) {
      const field = fresh[fresh.length - 1]?.lot_id ?? 'picks';
      throw new TxaError(
        'INVALID_PICK',
        `the picks of ${tx.id} take ${fromBaseUnits(total, scale)} ${asset.symbol}; it disposes of ${fromBaseUnits(disposed, scale)}`,
        {
          field,
        },
      );
    }
    insertPicks(engine.db, fresh);
    engine.change(ws, 'lots.picked', tx.id, {
      disposal_id: tx.id,
      picks: fresh.map((p) => ({ lot: p.lot_id, quantity: p.quantity })),
    });
    return listPicks(engine.db, ws, tx.id).map((p) => pickOf(p, tx.ts));
  });
}

/** `DELETE /lots/picks/:disposal_id`: removes a disposal's picks (it then takes lots by the report's method). */
export function deleteLotPicks(engine: Engine, ws: string, disposalId: string): PicksDeleted {
  engine.workspace(ws);
  return engine.write(() => {
    const tx = selectById(engine.db, ws, disposalId);
    if (!tx) throw new TxaError('TRANSACTION_NOT_FOUND', `transaction ${disposalId} not found`, { field: 'disposal_id' });
    assertLotDateOpen(engine, ws, tx.ts, 'disposal_id');
    const deleted = deletePicks(engine.db, ws, disposalId);
    if (deleted > 0) engine.change(ws, 'lots.unpicked', disposalId, { disposal_id: disposalId, deleted });
    return { disposal_id: disposalId, deleted };
  });
}
