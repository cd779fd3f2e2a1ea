/**
 * An explorer row's fields, read and checked (docs/sync.md, Rows a sync refuses). Every field a
 * list's rows are read by is checked when the answer arrives, before any of its rows is stored or
 * any cursor moves: a block number past any chain's reach would move the cursor past every later
 * row for good, a timestamp past the calendar breaks the monthly rollups, a value past 2^256 is no
 * amount a chain can hold. One bad row fails the sync with SYNC_FAILED naming the list and the row.
 */
import { TxaError } from '../core/errors.js';
import type { ApiRow } from './explorer-api.js';

/** The explorer lists a sync walks, in this order (normal transactions first: they tell which txs failed). */
export const LISTS = ['txlist', 'txlistinternal', 'tokentx', 'txsBeaconWithdrawal'] as const;
export type ListName = (typeof LISTS)[number];

/** No chain of txa's is near it: Arbitrum, the fastest, makes 4 blocks a second, 10^10 in 79 years. */
export const MAX_BLOCK = 10_000_000_000;
/** 2015-07-30, Ethereum's launch: no chain txa syncs has an older block. */
export const MIN_TIMESTAMP = 1_438_214_400;
/** A day of clock difference between the explorer and this machine. */
const CLOCK_SLACK_S = 86_400;
/** Every amount a chain holds is a uint256. */
const MAX_UNITS = 2n ** 256n;

export function text(row: ApiRow, key: string): string {
  const v = row[key];
  return typeof v === 'string' ? v.trim() : '';
}

/** At most 120 characters of a text for a message: an explorer may send megabytes in one field. */
const cut = (text: string) => (text.length > 120 ? `${text.slice(0, 120)}…` : text);

/** A value as an error quotes it: its JSON, cut. */
function quoted(value: unknown): string {
  try {
    return cut(JSON.stringify(value ?? null));
  } catch {
    return 'a value nested too deep to show';
  }
}

function bad(key: string, row: ApiRow, why: string): never {
  throw new TxaError('SYNC_FAILED', `${key} ${quoted(row[key])} ${why}`);
}

/** The field of a row's tx hash: `hash`, or Blockscout's `transactionHash` on internal rows. */
export const hashKey = (row: ApiRow) => (text(row, 'hash') ? 'hash' : 'transactionHash');

/** Where a row is, for messages: its block and hash as the explorer sent them. */
export function whereOf(row: ApiRow): string {
  const block = text(row, 'blockNumber');
  return [block && `block ${cut(block)}`, cut(text(row, hashKey(row)))].filter(Boolean).join(', ');
}

/** A whole number of base units (wei, token units, gwei) below 2^256; 0 for an absent optional field. */
export function units(row: ApiRow, key: string, optional = false): bigint {
  const v = text(row, key);
  if (v === '' && optional) return 0n;
  if (!/^\d+$/.test(v)) bad(key, row, 'is not a whole number');
  const n = BigInt(v);
  if (n >= MAX_UNITS) bad(key, row, 'is beyond 2^256, more than any chain holds');
  return n;
}

/** The block a row is in. */
export function blockOf(row: ApiRow): number {
  const v = text(row, 'blockNumber');
  if (!/^\d{1,11}$/.test(v) || Number(v) > MAX_BLOCK) bad('blockNumber', row, `is not a block number (0 to ${MAX_BLOCK})`);
  return Number(v);
}

/** Unix seconds, from Ethereum's launch to a day past this machine's clock. */
export function timestampOf(row: ApiRow, key = 'timeStamp'): number {
  const v = text(row, key);
  const ts = /^\d{1,11}$/.test(v) ? Number(v) : NaN;
  if (!(ts >= MIN_TIMESTAMP && ts <= Date.now() / 1000 + CLOCK_SLACK_S)) bad(key, row, 'is not a time between 2015-07-30 and now');
  return ts;
}

/** A 0x address, lower-cased; '' when absent, unless `required`. */
export function address(row: ApiRow, key: string, required = false): string {
  const v = text(row, key).toLowerCase();
  if (v === '' && !required) return v;
  if (!/^0x[0-9a-f]{40}$/.test(v)) bad(key, row, v === '' ? 'is missing' : 'is not an address');
  return v;
}

/** A tx hash, lower-cased; a genesis allocation's `GENESIS_<address>`. */
export function hashOf(row: ApiRow, key = 'hash'): string {
  const v = text(row, key);
  if (/^GENESIS_0x[0-9a-f]{40}$/i.test(v)) return `GENESIS_${v.slice(8).toLowerCase()}`;
  if (!/^0x[0-9a-f]{64}$/i.test(v)) bad(key, row, 'is not a transaction hash');
  return v.toLowerCase();
}

/** The receiver, or the contract a creation made: one of the two must be there. */
export function receiverOf(row: ApiRow): string {
  const to = address(row, 'to') || address(row, 'contractAddress');
  if (to === '') bad('to', row, 'is missing, and so is contractAddress');
  return to;
}

/** A flag the explorer writes as '', '0' or '1'. */
function flag(row: ApiRow, key: string): void {
  if (!['', '0', '1'].includes(text(row, key))) bad(key, row, 'is not 0 or 1');
}

/** An ERC-721/1155 row of tokentx (left out of a sync: NFTs are not synced). */
export const isNft = (row: ApiRow) => row.tokenID !== undefined || row.tokenIDs !== undefined;

/** Reads every field the mapping of `list` reads (rows.ts), so a bad one fails before anything is stored. */
function checkFields(list: ListName, row: ApiRow): void {
  for (const [key, v] of Object.entries(row)) {
    if (v !== null && typeof v === 'object') bad(key, row, 'is not a plain value');
  }
  blockOf(row);
  if (list === 'txsBeaconWithdrawal') {
    units(row, 'withdrawalIndex');
    units(row, 'amount');
    timestampOf(row, 'timestamp');
    return;
  }
  timestampOf(row);
  if (list === 'txlist') {
    const genesis = hashOf(row).startsWith('GENESIS_');
    if (!genesis) address(row, 'from', true);
    receiverOf(row);
    for (const key of ['value', 'gasUsed', 'gasPrice']) units(row, key, genesis);
    for (const key of ['L1FeesPaid', 'l1Fee']) units(row, key, true);
    for (const key of ['isError', 'txreceipt_status']) flag(row, key);
  } else if (list === 'txlistinternal') {
    hashOf(row, hashKey(row));
    address(row, 'from', true);
    receiverOf(row);
    units(row, 'value');
    flag(row, 'isError');
  } else {
    hashOf(row);
    address(row, 'from', true);
    address(row, 'to', true);
    address(row, 'contractAddress', true);
    if (!isNft(row)) units(row, 'value');
  }
}

/** Checks each row of one answer of `list`; SYNC_FAILED names the list and the first bad row. */
export function checkRows(list: ListName, rows: ApiRow[]): void {
  rows.forEach((row, i) => {
    try {
      checkFields(list, row);
    } catch (err) {
      if (!(err instanceof TxaError)) throw err;
      const where = whereOf(row);
      throw new TxaError(
        'SYNC_FAILED',
        `the explorer sent a ${list} row txa cannot take (row ${i + 1} of the answer${where ? `, ${where}` : ''}): ${err.message}`,
        {
          extra: { list },
          hint: 'Nothing of that answer was stored and the cursor did not move. Check the explorer URL (TXA_ETHERSCAN_URL, TXA_BLOCKSCOUT_URL_<CHAIN>); run txa wallet sync again when it answers properly.',
        },
      );
    }
  });
}
