/**
 * An explorer's rows as txa records, for both the CSV exports (importers/etherscan.ts) and the
 * explorer APIs (sync/): one rule per kind of row, so a synced transfer and the same transfer
 * imported from a CSV file get the same records, and with them the same identities (docs/import.md "Identity",
 * docs/sync.md "Rules"). Amounts arrive as canonical decimals in coin units; each caller reads them from its source.
 */
import type { Chain } from '../core/types.js';
import type { ImportRecord } from './types.js';
import { valueAt } from './fields.js';
import { transferSpamReason } from '../accounting/spam.js';
import { nativeToken, tokenTransferType, typeOfMethod } from './tokens.js';

/** The wallet whose side of each row decides its direction. */
export interface ExplorerWallet {
  address: string;
  chain: Chain;
}

/** What the records of a row share: where it is, its hash, parties and time. */
interface RowBase {
  line: number;
  tx_hash: string;
  from_address: string;
  /** The receiver; for a contract creation, the created contract. */
  to_address: string;
  timestamp: number;
}

/** A top-level ("normal") transaction of the wallet. */
export interface NormalRow extends RowBase {
  /** Native coin the wallet received and sent ('0' when none). */
  valueIn: string;
  valueOut: string;
  /** The whole fee of the tx (gas, plus the L1 fee on rollups), '0' when unknown. */
  fee: string;
  /** The tx reverted: it paid its fee and moved nothing. */
  failed: boolean;
  /** The explorer's method name (`Transfer`, `Swap Exact Tokens For Tokens`) or 4-byte selector. */
  method: string;
  /** Whether the wallet sent it (and so paid the fee); null when the row names no parties. */
  sent: boolean;
  /** USD price of the native coin on the row's own day, where the source has it. */
  priceUsd: string | null;
  /** Source field names, for error messages about an amount. */
  fields: { valueIn: string; valueOut: string; fee: string };
}

/**
 * The records of a normal transaction: its value (an inflow, an outflow, or one zero-amount row
 * for a call that moved nothing), then the fee when the wallet sent it. A failed tx moved no
 * value, so it keeps only its fee; one someone else sent gives nothing (the reason is returned).
 */
export function normalRecords(w: ExplorerWallet, row: NormalRow): ImportRecord[] | string {
  const { fields, method } = row;
  const base = { ...baseOf(row), method };
  const valueRecord = (amount: string, direction: ImportRecord['direction'], field: string): ImportRecord => ({
    ...base,
    token: nativeToken(w.chain, [amount], field),
    amount,
    fiat_value: valueAt(amount, row.priceUsd),
    direction,
    type: typeOfMethod(method) ?? (amount !== '0' && (method === '' || /^transfer\b/i.test(method)) ? 'transfer' : 'contract_call'),
  });
  const records: ImportRecord[] = [];
  if (!row.failed) {
    if (row.valueIn !== '0') records.push(valueRecord(row.valueIn, 'inflow', fields.valueIn));
    if (row.valueOut !== '0') records.push(valueRecord(row.valueOut, 'outflow', fields.valueOut));
    if (records.length === 0) records.push(valueRecord('0', row.sent ? 'outflow' : 'inflow', fields.valueIn));
  }
  // Explorers show the fee on incoming rows too, but the sender paid it.
  if (row.sent && row.fee !== '0') {
    records.push({
      ...base,
      token: nativeToken(w.chain, [row.fee], fields.fee),
      amount: row.fee,
      // At the row's own day's price, as the value rows are; never an explorer's fee column in
      // USD (TxnFee(USD)), which it computes at today's price. No price that day: unpriced.
      fiat_value: valueAt(row.fee, row.priceUsd),
      direction: 'outflow',
      type: 'fee',
    });
  }
  return records.length > 0 ? records : 'failed transaction sent by another address: no value moved';
}

/** A value-moving call inside a transaction (a trace): how contracts pay out the native coin. */
export interface InternalRow extends RowBase {
  value: string;
  /** The call or its parent reverted. */
  failed: boolean;
  /** call, create, suicide, delegatecall, … */
  callType: string;
  priceUsd: string | null;
  field: string;
}

/**
 * The records of an internal transaction: an inflow when it paid the wallet, an outflow when the
 * wallet paid (both for a call to itself). Failed calls, delegatecalls (they move nothing of
 * their own) and zero-value calls are skipped with the reason. Internal value keys apart from
 * the tx's own value (`internal`), so both can be in one tx without one hiding the other.
 */
export function internalRecords(w: ExplorerWallet, row: InternalRow): ImportRecord[] | string {
  if (row.failed) return 'failed internal call: no value moved';
  if (/^delegatecall$/i.test(row.callType)) return 'delegatecall: it moves no value of its own';
  if (row.value === '0') return 'internal call moving no value';
  return sides(w, {
    ...baseOf(row),
    token: nativeToken(w.chain, [row.value], row.field),
    amount: row.value,
    fiat_value: valueAt(row.value, row.priceUsd),
    type: 'transfer',
    internal: true,
  });
}

/** A token transfer (an ERC-20 Transfer event) touching the wallet. */
export interface TokenRow extends RowBase {
  token: ImportRecord['token'];
  /** The token's name as the explorer gives it ('' when it does not), for spam detection. */
  tokenName: string;
  amount: string;
  fiatUsd: string | null;
  method: string;
}

/**
 * The records of a token transfer: an outflow when the wallet sent it, an inflow when it received
 * it; spam ones (accounting/spam.ts) carry why.
 */
export function tokenRecords(w: ExplorerWallet, row: TokenRow): ImportRecord[] {
  const spam = transferSpamReason({ chain: w.chain, address: row.token.address ?? '', symbol: row.token.symbol, name: row.tokenName }, row.amount);
  return sides(w, {
    ...baseOf(row),
    method: row.method,
    token: row.token,
    amount: row.amount,
    fiat_value: row.fiatUsd,
    type: tokenTransferType(row.from_address, row.to_address, row.method),
    ...(spam && { spam }),
  });
}

/** What every record of a row carries from it. */
function baseOf(row: RowBase): Pick<ImportRecord, 'line' | 'tx_hash' | 'from_address' | 'to_address' | 'timestamp' | 'notes'> {
  return { line: row.line, tx_hash: row.tx_hash, from_address: row.from_address, to_address: row.to_address, timestamp: row.timestamp, notes: null };
}

/** An outflow when the wallet sent it, an inflow when it received it (both for a send to itself). */
function sides(w: ExplorerWallet, record: Omit<ImportRecord, 'direction'>): ImportRecord[] {
  const records: ImportRecord[] = [];
  if (record.from_address === w.address) records.push({ ...record, direction: 'outflow' });
  if (record.to_address === w.address) records.push({ ...record, direction: 'inflow' });
  return records;
}
