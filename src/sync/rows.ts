/**
 * Explorer API rows as txa records, by the rules the CSV import applies to the same rows of an
 * explorer's CSV export (importers/explorer-records.ts), so both give one transaction identity:
 * amounts from base units, the fee as gasUsed × gasPrice (+ the L1 fee where the row has one),
 * the method named as the explorer's CSV names it. docs/sync.md has every rule.
 */
import { TxaError } from '../core/errors.js';
import { fromBaseUnits } from '../core/money.js';
import { internalRecords, normalRecords, tokenRecords, type ExplorerWallet } from '../importers/explorer-records.js';
import { nativeToken, tokenAtAddress } from '../importers/tokens.js';
import type { ImportRecord } from '../importers/types.js';
import type { ApiRow } from './explorer-api.js';

/** The explorer lists a sync walks, in this order (normal transactions first: they tell which txs failed). */
export const LISTS = ['txlist', 'txlistinternal', 'tokentx', 'txsBeaconWithdrawal'] as const;
export type ListName = (typeof LISTS)[number];

const NATIVE_DECIMALS = 18;
/** Beacon-chain withdrawal amounts are in gwei. */
const GWEI_DECIMALS = 9;

function text(row: ApiRow, key: string): string {
  const v = row[key];
  return typeof v === 'string' ? v.trim() : '';
}

function bad(key: string, row: ApiRow): never {
  throw new TxaError('SYNC_FAILED', `the explorer sent a row with an unreadable ${key}: ${JSON.stringify(row[key] ?? null)}`, {
    hint: 'Transactions fetched before it are kept. Check the explorer URL (TXA_ETHERSCAN_URL, TXA_BLOCKSCOUT_URL_<CHAIN>).',
  });
}

function units(row: ApiRow, key: string, optional = false): bigint {
  const v = text(row, key);
  if (v === '' && optional) return 0n;
  if (!/^\d+$/.test(v)) bad(key, row);
  return BigInt(v);
}

/** The block a row is in. */
export function blockOf(row: ApiRow): number {
  return Number(units(row, 'blockNumber'));
}

function address(row: ApiRow, key: string): string {
  const v = text(row, key).toLowerCase();
  if (v !== '' && !/^0x[0-9a-f]{40}$/.test(v)) bad(key, row);
  return v;
}

function hashOf(row: ApiRow, key = 'hash'): string {
  const v = text(row, key);
  if (/^GENESIS_0x[0-9a-f]{40}$/i.test(v)) return `GENESIS_${v.slice(8).toLowerCase()}`;
  if (!/^0x[0-9a-f]{64}$/i.test(v)) bad(key, row);
  return v.toLowerCase();
}

/**
 * The method as Etherscan's CSV export shows it: the decoded function name in words
 * (`swapExactETHForTokens(uint256,…)` → `Swap Exact ETH For Tokens`), `Transfer` for a plain
 * payment, else the 4-byte selector. Blockscout rows have no function name, only the selector.
 */
export function methodOf(row: ApiRow): string {
  const name = text(row, 'functionName').split('(')[0]!;
  if (name !== '') {
    return name
      .replace(/_/g, ' ')
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .split(/\s+/)
      .filter(Boolean)
      .map((w) => w[0]!.toUpperCase() + w.slice(1))
      .join(' ');
  }
  const input = text(row, 'input');
  if (input === '' || input === '0x') return 'Transfer';
  return text(row, 'methodId') || input.slice(0, 10);
}

const timestampOf = (row: ApiRow, key = 'timeStamp') => Number(units(row, key));

/** A normal transaction (txlist); a failed one's hash goes into `failed`. */
function normal(w: ExplorerWallet, row: ApiRow, line: number, failed: Set<string>): ImportRecord[] {
  const tx_hash = hashOf(row);
  const genesis = tx_hash.startsWith('GENESIS_');
  const from = genesis ? '' : address(row, 'from');
  const to = address(row, 'to') || address(row, 'contractAddress');
  const sent = from === w.address;
  if (!sent && to !== w.address) return [];
  const value = fromBaseUnits(units(row, 'value'), NATIVE_DECIMALS);
  // OP-stack rollups charge an L1 data fee besides gas: Etherscan's L1FeesPaid, a receipt's l1Fee.
  const l1 = units(row, 'L1FeesPaid', true) || units(row, 'l1Fee', true);
  const fee = sent ? fromBaseUnits(units(row, 'gasUsed') * units(row, 'gasPrice') + l1, NATIVE_DECIMALS) : '0';
  const isFailed = text(row, 'isError') === '1' || text(row, 'txreceipt_status') === '0';
  if (isFailed) failed.add(tx_hash);
  const records = normalRecords(w, {
    line,
    tx_hash,
    from_address: from,
    to_address: to,
    timestamp: timestampOf(row),
    valueIn: to === w.address ? value : '0',
    valueOut: sent ? value : '0',
    fee,
    failed: isFailed,
    method: genesis ? '' : methodOf(row),
    sent,
    priceUsd: null,
    fields: { valueIn: 'value', valueOut: 'value', fee: 'gasUsed' },
  });
  return typeof records === 'string' ? [] : records;
}

/** An internal transaction (txlistinternal): Etherscan's `hash`/`type`, Blockscout's `transactionHash`/`callType`. */
function internal(w: ExplorerWallet, row: ApiRow, line: number, failed: Set<string>): ImportRecord[] {
  const tx_hash = hashOf(row, text(row, 'hash') ? 'hash' : 'transactionHash');
  const records = internalRecords(w, {
    line,
    tx_hash,
    from_address: address(row, 'from'),
    to_address: address(row, 'to') || address(row, 'contractAddress'),
    timestamp: timestampOf(row),
    value: fromBaseUnits(units(row, 'value'), NATIVE_DECIMALS),
    failed: text(row, 'isError') === '1' || failed.has(tx_hash),
    callType: text(row, 'callType') || text(row, 'type'),
    priceUsd: null,
    field: 'value',
  });
  return typeof records === 'string' ? [] : records;
}

/** An ERC-20 transfer (tokentx). NFT rows (a tokenID, no decimals) are left out. */
function token(w: ExplorerWallet, row: ApiRow, line: number, failed: Set<string>): ImportRecord[] {
  const tx_hash = hashOf(row);
  const decimals = text(row, 'tokenDecimal');
  if (failed.has(tx_hash) || row.tokenID !== undefined || row.tokenIDs !== undefined || !/^\d{1,2}$/.test(decimals)) return [];
  const amount = fromBaseUnits(units(row, 'value'), Number(decimals));
  const contract = address(row, 'contractAddress');
  if (contract === '') bad('contractAddress', row);
  return tokenRecords(w, {
    line,
    tx_hash,
    from_address: address(row, 'from'),
    to_address: address(row, 'to'),
    timestamp: timestampOf(row),
    // The chain's decimals, not the CSV import's guess for tokens it does not know.
    token: { ...tokenAtAddress(contract, [amount], 'value', text(row, 'tokenSymbol')), decimals: Number(decimals) },
    tokenName: text(row, 'tokenName'),
    amount,
    fiatUsd: null,
    // The CSV export of token transfers has no method column: the type comes from the parties alone.
    method: '',
  });
}

/** A beacon-chain withdrawal to the wallet (Etherscan, Ethereum): no tx hash, so keyed by its index. */
function withdrawal(w: ExplorerWallet, row: ApiRow, line: number): ImportRecord[] {
  const amount = fromBaseUnits(units(row, 'amount'), GWEI_DECIMALS);
  if (amount === '0') return [];
  return [
    {
      line,
      tx_hash: `beacon-withdrawal:${units(row, 'withdrawalIndex')}`,
      from_address: '',
      to_address: w.address,
      timestamp: timestampOf(row, 'timestamp'),
      notes: null,
      token: nativeToken(w.chain, [amount], 'amount'),
      amount,
      fiat_value: null,
      direction: 'inflow',
      type: 'transfer',
    },
  ];
}

/** The records of a batch of one list's rows, in the explorer's order (the order fixes identities). */
export function recordsOf(list: ListName, w: ExplorerWallet, rows: ApiRow[], failed: Set<string>): ImportRecord[] {
  const out: ImportRecord[] = [];
  rows.forEach((row, i) => {
    const line = i + 1;
    if (list === 'txlist') out.push(...normal(w, row, line, failed));
    else if (list === 'txlistinternal') out.push(...internal(w, row, line, failed));
    else if (list === 'tokentx') out.push(...token(w, row, line, failed));
    else out.push(...withdrawal(w, row, line));
  });
  return out;
}
