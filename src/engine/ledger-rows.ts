/**
 * The tax and income reports' input (ExportJob.ledgerRows, docs/accounting.md): every row of the
 * workspace up to the report's end, read lean (store/ledger-read.ts), each marked `reported` when
 * the export's filter selects it, and the asset table the ledger's `assets.json` extends.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Engine } from './engine.js';
import type { Convert } from './rates.js';
import { TxaError } from '../core/errors.js';
import type { TxFilter } from '../core/filters.js';
import type { Direction } from '../core/types.js';
import { isoSecondsByDay } from '../core/clock.js';
import { AssetTable, parseAssetEntries } from '../accounting/assets.js';
import type { LedgerRow } from '../accounting/tax-ledger.js';
import type { LedgerSource } from '../exporters/types.js';
import { compareTagRefs } from '../store/transactions.js';
import { incomeTagNames, walletLabels } from '../store/ledger.js';
import { OpeningMerge, openingLedgerRows, withOpenings } from './opening-rows.js';
import { F, ledgerBatches, ledgerHasRows, RECORD_WIDTH, type LedgerBatch } from '../store/ledger-read.js';

export { ledgerFilter } from '../store/ledger-read.js';

/** A batch's records (store/ledger-read.ts) as the tax ledger's rows; batches are decoded in order. */
export type LedgerDecoder = (batch: LedgerBatch) => Generator<{ tx: LedgerRow; reported: boolean }>;

/** The ledger's source for `filter`, values converted by `convert`. */
export function ledgerSource(reader: Engine, workspaceId: string, filter: TxFilter, convert: Convert): LedgerSource {
  const read = { workspaceId, filter };
  const decode = ledgerDecoder(reader, workspaceId, convert);
  const openings = openingLedgerRows(reader, workspaceId, filter.endTs, convert);
  // Opening lots (engine/opening-rows.ts) merged into the batches in order, the later ones at the end.
  const merge = new OpeningMerge(openings);
  const source: LedgerSource = { read, decode, hasRows: (n) => ledgerHasRows(reader.db, read, n) };
  if (openings.length === 0) return source;
  return {
    ...source,
    *decode(batch) {
      for (const r of decode(batch)) {
        yield* merge.before(r.tx);
        yield r;
      }
    },
    rest: () => merge.rest(),
  };
}

/**
 * The ledgerFilter's rows in timestamp then id order, each marked when `filter` selects it, values
 * converted by `convert`, with the opening lots before `filter.endTs` merged in (never reported);
 * only `wallets`' rows when given (their books are whole when no own transfer links them to others).
 */
export function* ledgerRows(
  reader: Engine,
  workspaceId: string,
  filter: TxFilter,
  convert: Convert,
  wallets?: readonly string[],
): Generator<{ tx: LedgerRow; reported: boolean }> {
  const decode = ledgerDecoder(reader, workspaceId, convert);
  const rows = (function* () {
    for (const batch of ledgerBatches(reader.db, { workspaceId, filter, ...(wallets && { wallets }) })) yield* decode(batch);
  })();
  yield* withOpenings(rows, openingLedgerRows(reader, workspaceId, filter.endTs, convert));
}

/** The fields a kind stands for, with the wallet's label; rows of a kind share its token object. */
type Kind = Pick<LedgerRow, 'wallet_id' | 'wallet_label' | 'chain' | 'token' | 'direction' | 'type'>;

/**
 * Records to rows: wallet labels and income tag names from maps of the few wallets and tags
 * (read in the job's snapshot, as the records are), timestamps made once per day.
 */
function ledgerDecoder(reader: Engine, workspaceId: string, convert: Convert): LedgerDecoder {
  const db = reader.db;
  const labels = walletLabels(db, workspaceId);
  const incomeName = incomeTagNames(db, workspaceId);
  const kinds: Kind[] = [];
  const none: readonly string[] = [];
  const timestamp = isoSecondsByDay();
  /**
   * The other leg's value: it may lie past the report's end, where the export's rates need not
   * reach; its value then matters to no line of the report (a lot it opens is opened after it).
   */
  const counterpartValue = (fiat: number | null, ts: number): number | null => {
    try {
      return convert(fiat, ts);
    } catch (err) {
      if (err instanceof TxaError && err.code === 'MISSING_RATE') return null;
      throw err;
    }
  };
  /** The transfer of a row, its other leg (store/ledger-read.ts F.counterpart) read from JSON. */
  const transferOf = (id: string, json: string | null): NonNullable<LedgerRow['transfer']> => {
    if (json === null) return { id, counterpart_id: null, counterpart: null };
    const [cid, cts, walletId, chain, symbol, address, decimals, amount, fiat, hash] = JSON.parse(json) as [
      string,
      number,
      string,
      string,
      string,
      string | null,
      number,
      string,
      number | null,
      string,
    ];
    const cents = counterpartValue(fiat, cts);
    return {
      id,
      counterpart_id: cid,
      counterpart: {
        id: cid,
        timestamp: timestamp(cts),
        wallet_id: walletId,
        wallet_label: labels.get(walletId) ?? walletId,
        chain,
        tx_hash: hash,
        token: { symbol, address, decimals },
        amount,
        fiat_cents: cents === null ? null : BigInt(cents),
      },
    };
  };
  return function* ({ records: b, kinds: added }) {
    for (const json of added) {
      const [walletId, chain, symbol, address, decimals, direction, type] = JSON.parse(json) as [
        string,
        string,
        string,
        string | null,
        number,
        Direction,
        string,
      ];
      kinds.push({ wallet_id: walletId, wallet_label: labels.get(walletId)!, chain, token: { symbol, address, decimals }, direction, type });
    }
    for (let i = 0; i < b.length; i += RECORD_WIDTH) {
      const k = kinds[b[i + F.kind] as number]!;
      const ts = b[i + F.ts] as number;
      const cents = convert(b[i + F.fiatCents] as number | null, ts);
      const tagIds = b[i + F.incomeTagIds] as string[] | null;
      const transferId = b[i + F.transferId] as string | null;
      const other = transferId === null ? null : (b[i + F.counterpart] as string | null);
      const tx: LedgerRow = {
        id: b[i + F.id] as string,
        timestamp: timestamp(ts),
        wallet_id: k.wallet_id,
        wallet_label: k.wallet_label,
        chain: k.chain,
        tx_hash: b[i + F.txHash] as string,
        token: k.token,
        amount: b[i + F.amount] as string,
        fiat_cents: cents === null ? null : BigInt(cents),
        direction: k.direction,
        type: k.type,
        transfer: transferId === null ? null : transferOf(transferId, other),
        income_tags: tagIds === null ? none : incomeTags(tagIds, incomeName),
        block: b[i + F.block] as number | null,
        block_position: b[i + F.position] as number | null,
      };
      yield { tx, reported: b[i + F.reported] as boolean };
    }
  };
}

/** The names of income tag ids, in a transaction's tag order (compareTagRefs). */
function incomeTags(tagIds: string[], names: Map<string, string>): string[] {
  const refs = tagIds.map((id) => ({ id, name: names.get(id)!, color: '' }));
  return refs.sort(compareTagRefs).map((t) => t.name);
}

/** The default asset table extended by `<ledger>.files/assets.json` when there is one. */
export function loadAssetTable(engine: Engine): AssetTable {
  const path = join(engine.filesDir, 'assets.json');
  if (!existsSync(path)) return new AssetTable();
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new TxaError('INVALID_FIELD', `the ledger's assets.json is not valid JSON: ${(err as Error).message}`, { field: 'assets' });
  }
  try {
    return new AssetTable(parseAssetEntries(doc));
  } catch (err) {
    if (err instanceof TxaError) throw new TxaError(err.code, `the ledger's assets.json: ${err.message}`, { field: err.field });
    throw err;
  }
}
