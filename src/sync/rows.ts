/**
 * Explorer API rows as txa records, by the rules the CSV import applies to the same rows of an
 * explorer's CSV export (importers/explorer-records.ts), so both give one transaction identity:
 * amounts from base units, the fee as gasUsed × gasPrice (+ the L1 fee where the row has one),
 * the method named as the explorer's CSV names it. docs/sync.md has every rule.
 */
import { fromBaseUnits } from '../core/money.js';
import { internalRecords, normalRecords, tokenRecords, type ExplorerWallet } from '../importers/explorer-records.js';
import { nativeToken, tokenAtAddress } from '../importers/tokens.js';
import type { ImportRecord } from '../importers/types.js';
import type { ApiRow } from './explorer-api.js';
import { address, blockOf, hashKey, hashOf, isNft, receiverOf, text, timestampOf, units, type ListName } from './row-fields.js';

const NATIVE_DECIMALS = 18;
/** Beacon-chain withdrawal amounts are in gwei. */
const GWEI_DECIMALS = 9;

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

/** The transaction's index in its block (`transactionIndex`), where the list gives it (a withdrawal has none). */
function positionOf(row: ApiRow): number | undefined {
  const v = text(row, 'transactionIndex');
  return /^\d{1,9}$/.test(v) ? Number(v) : undefined;
}

/** Why a row gave no records, where the rules of docs/sync.md do not skip it by design: said aloud. */
export type Skipped = string;

/** Whether a normal transaction reverted. */
const reverted = (row: ApiRow) => text(row, 'isError') === '1' || text(row, 'txreceipt_status') === '0';

/** A normal transaction (txlist); recordsOf has put its hash in `failed` when it reverted. */
function normal(w: ExplorerWallet, row: ApiRow, line: number, failed: Set<string>): ImportRecord[] | Skipped {
  const tx_hash = hashOf(row);
  const genesis = tx_hash.startsWith('GENESIS_');
  const from = genesis ? '' : address(row, 'from', true);
  const to = receiverOf(row);
  const sent = from === w.address;
  if (!sent && to !== w.address) return 'neither its from nor its to is the wallet';
  const value = fromBaseUnits(units(row, 'value'), NATIVE_DECIMALS);
  // OP-stack rollups charge an L1 data fee besides gas: Etherscan's L1FeesPaid, a receipt's l1Fee.
  const l1 = units(row, 'L1FeesPaid', true) || units(row, 'l1Fee', true);
  const fee = sent ? fromBaseUnits(units(row, 'gasUsed') * units(row, 'gasPrice') + l1, NATIVE_DECIMALS) : '0';
  const isFailed = failed.has(tx_hash);
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
function internal(w: ExplorerWallet, row: ApiRow, line: number, failed: Set<string>): ImportRecord[] | Skipped {
  const tx_hash = hashOf(row, hashKey(row));
  const from_address = address(row, 'from', true);
  const to_address = receiverOf(row);
  if (from_address !== w.address && to_address !== w.address) return 'neither its from nor its to is the wallet';
  const records = internalRecords(w, {
    line,
    tx_hash,
    from_address,
    to_address,
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
function token(w: ExplorerWallet, row: ApiRow, line: number, failed: Set<string>): ImportRecord[] | Skipped {
  const tx_hash = hashOf(row);
  if (failed.has(tx_hash) || isNft(row)) return [];
  const from_address = address(row, 'from', true);
  const to_address = address(row, 'to', true);
  if (from_address !== w.address && to_address !== w.address) return 'neither its from nor its to is the wallet';
  const decimals = text(row, 'tokenDecimal');
  if (!/^\d{1,2}$/.test(decimals)) return `its tokenDecimal ${JSON.stringify(decimals)} is not a number of decimals`;
  const amount = fromBaseUnits(units(row, 'value'), Number(decimals));
  const contract = address(row, 'contractAddress', true);
  return tokenRecords(w, {
    line,
    tx_hash,
    from_address,
    to_address,
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

export interface BatchRecords {
  records: ImportRecord[];
  /** Rows that gave nothing though no rule of docs/sync.md leaves them out: each with why, for stderr. */
  skipped: { row: ApiRow; why: Skipped }[];
  /** Hashes of the batch's reverted normal transactions (added to `failed` too), to be stored with it. */
  failed: string[];
}

/**
 * The records of a batch of one list's rows, in the explorer's order (the order fixes identities).
 * `failed` holds the hashes of the wallet's reverted transactions, whose internal and token rows
 * are ignored: a txlist batch adds its own.
 */
export function recordsOf(list: ListName, w: ExplorerWallet, rows: ApiRow[], failed: Set<string>): BatchRecords {
  const out: BatchRecords = { records: [], skipped: [], failed: [] };
  rows.forEach((row, i) => {
    const line = i + 1;
    const hash = list === 'txlist' && reverted(row) ? hashOf(row) : undefined;
    if (hash !== undefined && !failed.has(hash)) {
      failed.add(hash);
      out.failed.push(hash);
    }
    const got =
      list === 'txlist'
        ? normal(w, row, line, failed)
        : list === 'txlistinternal'
          ? internal(w, row, line, failed)
          : list === 'tokentx'
            ? token(w, row, line, failed)
            : withdrawal(w, row, line);
    if (typeof got === 'string') {
      out.skipped.push({ row, why: got });
      return;
    }
    // Where the row stands in its chain: the ledger's order of the rows of one second.
    const block = blockOf(row);
    const position = positionOf(row);
    for (const r of got) {
      r.block = block;
      if (position !== undefined) r.block_position = position;
    }
    out.records.push(...got);
  });
  return out;
}
