/**
 * Etherscan-family "CSV Export" files (Etherscan, BscScan, Polygonscan, Arbiscan, Basescan,
 * Optimistic Etherscan, Lineascan, Snowscan, Gnosisscan, …): normal and internal transactions,
 * ERC-20/BEP-20 token transfers of an address, and the token-tracker layout (one token, all
 * holders). The rows become records by the rules of explorer-records.ts, which sync shares. The files name no wallet: `--wallet` gives the address whose side of each
 * row (From → outflow, To → inflow) decides the direction; a normal-transactions file stripped of
 * From/To falls back on its value columns. See docs/import.md for every rule.
 */
import { TxaError } from '../core/errors.js';
import { CHAIN_INFO, chainsForNative, isNativeSymbol } from '../core/chains.js';
import type { ImportContext, Importer, ImportRecord, ParseResult } from './types.js';
import { Columns, fail, mapRows, readCsv, requireColumns, type CsvRow, type CsvTable } from './csv.js';
import { addressOf, amountOf, dateTimeOf, fiatOf, optionalAmount, syntheticHashes, unixSecondsOf } from './fields.js';
import { tokenAtAddress } from './tokens.js';
import { internalRecords, normalRecords, tokenRecords } from './explorer-records.js';

type Wallet = NonNullable<ImportContext['wallet']>;

const TX_HASH = /^0x[0-9a-f]{64}$/i;

/** Hash, time, parties and method: the columns every explorer layout shares. */
class Common {
  readonly hash: number;
  readonly block: number;
  readonly unix: number;
  readonly dateTime: number;
  readonly from: number;
  readonly to: number;
  readonly method: number;

  constructor(readonly cols: Columns) {
    this.hash = cols.find('Txhash', 'Transaction Hash');
    this.block = cols.find('Blockno');
    this.unix = cols.find('UnixTimestamp');
    this.dateTime = cols.findPrefix('DateTime');
    this.from = cols.find('From');
    this.to = cols.find('To');
    this.method = cols.find('Method');
  }

  /** Missing columns: a time always; the hash and both parties unless `timeOnly` (normal txs can do without). */
  missing(timeOnly = false): string[] {
    const out: string[] = [];
    if (!timeOnly && this.hash < 0) out.push('Txhash');
    if (this.unix < 0 && this.dateTime < 0) out.push('UnixTimestamp');
    if (!timeOnly && this.from < 0) out.push('From');
    if (!timeOnly && this.to < 0) out.push('To');
    return out;
  }

  get hasParties(): boolean {
    return this.from >= 0 && this.to >= 0;
  }

  /** The row's block (`Blockno`), where the file has it: the ledger orders the rows of one second by it. */
  blockOf(cells: string[]): number | undefined {
    const raw = this.block >= 0 ? (cells[this.block] ?? '').trim() : '';
    return /^\d{1,11}$/.test(raw) ? Number(raw) : undefined;
  }

  txHash(cells: string[]): string {
    const raw = (cells[this.hash] ?? '').trim();
    if (!TX_HASH.test(raw)) fail(this.cols.header[this.hash]!, `not a transaction hash: '${raw}'`);
    return raw.toLowerCase();
  }

  /** UnixTimestamp when present (Excel truncates DateTime to minutes), else DateTime. */
  timestamp(cells: string[]): number {
    if (this.unix >= 0 && (cells[this.unix] ?? '').trim() !== '') return unixSecondsOf(cells[this.unix], 'UnixTimestamp');
    return dateTimeOf(cells[this.dateTime], this.cols.header[this.dateTime] ?? 'DateTime', { slashes: true });
  }

  methodOf(cells: string[]): string {
    return this.method >= 0 ? (cells[this.method] ?? '').trim() : '';
  }
}

/** Records of one row, each given the row's block where the file has one. */
function inBlock<T extends ImportRecord[] | string>(block: number | undefined, got: T): T {
  if (block !== undefined && Array.isArray(got)) for (const r of got as ImportRecord[]) r.block = block;
  return got;
}

function cell(cells: string[], i: number): string {
  return i >= 0 ? (cells[i] ?? '').trim() : '';
}

/**
 * The native coin a file's amounts are in (`Value_IN(xDAI)` → xDAI) must be the wallet's chain's.
 * ETH is native on several chains, so an ETH file fits any of their wallets (docs/import.md).
 */
function requireNative(symbol: string, wallet: Wallet): void {
  if (isNativeSymbol(wallet.chain, symbol)) return;
  const chains = chainsForNative(symbol);
  const of = chains.length > 0 ? `the native coin of ${chains.join(', ')}` : 'not the native coin of any chain txa knows';
  throw new TxaError(
    'IMPORT_FAILED',
    `the file's amounts are in ${symbol} (${of}), but wallet ${wallet.id} is on ${wallet.chain}, whose coin is ${CHAIN_INFO[wallet.chain].native.symbol}`,
    {
      field: 'wallet',
      hint: 'Import it into a wallet of the chain the explorer belongs to.',
    },
  );
}

/** The symbol inside a header name such as `Value_IN(xDAI)`. */
function symbolOf(header: string): string {
  return /\((.+)\)$/.exec(header)?.[1] ?? '';
}

/**
 * Normal transactions: the value row(s) of each tx, plus the fee the wallet paid as sender. A file
 * without Txhash gets a synthetic hash per row; one without From/To reads the wallet's side from
 * its value columns (docs/import.md, "column subsets").
 */
function parseNormal(table: CsvTable, cols: Columns, wallet: Wallet): ParseResult {
  const common = new Common(cols);
  const valueIn = cols.findPrefix('Value_IN(');
  const valueOut = cols.findPrefix('Value_OUT(');
  const fee = cols.findPrefix('TxnFee(', ['TxnFee(USD)']);
  const price = cols.findPrefix('Historical $Price/');
  const contract = cols.find('ContractAddress');
  const status = cols.find('Status');
  const symbol = symbolOf(cols.header[valueIn]!);
  const missing = common.missing(true);
  if (valueOut < 0) missing.push(`Value_OUT(${symbol})`);
  if (fee < 0) missing.push(`TxnFee(${symbol})`);
  requireColumns(missing);
  requireNative(symbol, wallet);
  const name = (i: number) => cols.header[i]!;
  const fields = { valueIn: name(valueIn), valueOut: name(valueOut), fee: name(fee) };
  const synthetic = syntheticHashes('etherscan');
  return mapRows('etherscan', table.rows, ({ line, cells }: CsvRow) => {
    const inAmount = amountOf(cells[valueIn], fields.valueIn);
    const outAmount = amountOf(cells[valueOut], fields.valueOut);
    const feeAmount = optionalAmount(cells[fee], fields.fee) ?? '0';
    const timestamp = common.timestamp(cells);
    let from: string;
    let to: string;
    let sent: boolean;
    if (common.hasParties) {
      from = addressOf(cells[common.from], 'From');
      // A contract creation has no To; the created contract (ContractAddress) is the receiver.
      to = addressOf(cells[common.to], 'To') || addressOf(cell(cells, contract), 'ContractAddress');
      sent = from === wallet.address;
      if (!sent && to !== wallet.address) fail('From', `neither From nor To is the wallet's address ${wallet.address}`);
    } else {
      // Without From/To, only what the wallet sent or received tells its side: it sent a tx with a
      // Value_OUT or with no value at all (a contract call), and received one with only a Value_IN.
      sent = outAmount !== '0' || inAmount === '0';
      from = sent ? wallet.address : '';
      to = sent ? '' : wallet.address;
    }
    // A synthetic hash covers only what a later export of the same tx repeats: not the prices
    // (CurrentValue moves, Historical $Price is empty on the newest day until the explorer fills it).
    const tx_hash = common.hash >= 0 ? common.txHash(cells) : synthetic([cell(cells, common.block), String(timestamp), inAmount, outAmount, feeAmount]);
    return inBlock(
      common.blockOf(cells),
      normalRecords(wallet, {
        line,
        tx_hash,
        from_address: from,
        to_address: to,
        timestamp,
        valueIn: inAmount,
        valueOut: outAmount,
        fee: feeAmount,
        // Error(0): the tx failed and moved no value, though Value_OUT still shows it; only the fee
        // was paid. Error(1) means an inner call failed while the tx itself went through.
        failed: /^error\(0\)$/i.test(cell(cells, status)),
        method: common.methodOf(cells),
        sent,
        priceUsd: price >= 0 ? fiatOf(cells[price], name(price)) : null,
        fields,
      }),
    );
  });
}

/**
 * Internal transactions (`From`, `TxTo`, `Value_IN(X)`, `Value_OUT(X)`, `Status` 0 on success,
 * `Type`): the native coin contracts paid the wallet or the wallet paid through a contract.
 */
function parseInternal(table: CsvTable, cols: Columns, wallet: Wallet): ParseResult {
  const common = new Common(cols);
  const txTo = cols.find('TxTo');
  const valueIn = cols.findPrefix('Value_IN(');
  const valueOut = cols.findPrefix('Value_OUT(');
  const price = cols.findPrefix('Historical $Price/');
  const contract = cols.find('ContractAddress');
  const status = cols.find('Status');
  const errCode = cols.find('ErrCode');
  const type = cols.find('Type');
  const symbol = symbolOf(cols.header[valueIn]!);
  const missing = common.missing().filter((c) => c !== 'To');
  if (valueOut < 0) missing.push(`Value_OUT(${symbol})`);
  requireColumns(missing);
  requireNative(symbol, wallet);
  const name = (i: number) => cols.header[i]!;
  return mapRows('etherscan', table.rows, ({ line, cells }: CsvRow) => {
    const from = addressOf(cells[common.from], 'From');
    const to = addressOf(cells[txTo], 'TxTo') || addressOf(cell(cells, contract), 'ContractAddress');
    if (from !== wallet.address && to !== wallet.address) fail('From', `neither From nor TxTo is the wallet's address ${wallet.address}`);
    const inAmount = amountOf(cells[valueIn], name(valueIn));
    const outAmount = amountOf(cells[valueOut], name(valueOut));
    const [value, field] = inAmount !== '0' ? [inAmount, name(valueIn)] : [outAmount, name(valueOut)];
    return inBlock(
      common.blockOf(cells),
      internalRecords(wallet, {
        line,
        tx_hash: common.txHash(cells),
        from_address: from,
        to_address: to,
        timestamp: common.timestamp(cells),
        value,
        failed: !/^0?$/.test(cell(cells, status)) || cell(cells, errCode) !== '',
        callType: cell(cells, type),
        priceUsd: price >= 0 ? fiatOf(cells[price], name(price)) : null,
        field,
      }),
    );
  });
}

/**
 * The token of a token-tracker file: `--token-address`, else the 0x address BscScan puts in the
 * download's name; undefined when neither gives one. The two must agree when both do.
 */
function trackerToken(fileName: string, flag: string | undefined): string | undefined {
  const named = /0x[0-9a-f]{40}/i.exec(fileName)?.[0]?.toLowerCase();
  const given = flag?.toLowerCase();
  if (named && given && named !== given) {
    throw new TxaError('USAGE_ERROR', `--token-address ${given} differs from the token ${named} in the file name`, {
      field: 'token-address',
      hint: 'Drop --token-address, or rename the file if its name is wrong.',
    });
  }
  return given ?? named;
}

/** Why a token-tracker file without a token address is refused, and what to do about it. */
const NO_TRACKER_TOKEN = {
  why: 'a token-tracker export names its token only in its file name, and this name has no 0x address: pass --token-address 0x…',
  hint: "Pass the token's contract address (on the explorer's token page): txa import FILE --wallet ID --token-address 0x…",
};

/** Token transfers of an address (TokenValue, ContractAddress) or of a token tracker (Quantity, token in the file name or --token-address). */
function parseTokens(table: CsvTable, cols: Columns, wallet: Wallet, ctx: ImportContext): ParseResult {
  const common = new Common(cols);
  const value = cols.find('TokenValue', 'Value', 'Quantity');
  const usd = cols.find('USDValueDayOfTx');
  const contract = cols.find('ContractAddress');
  const symbol = cols.find('TokenSymbol');
  const tokenName = cols.find('TokenName');
  const tracker = contract < 0;
  const trackerAddress = tracker ? trackerToken(ctx.fileName, ctx.tokenAddress) : undefined;
  const missing = common.missing();
  if (value < 0) missing.push('TokenValue');
  if (tracker && !trackerAddress) missing.push('ContractAddress');
  requireColumns(missing, tracker && !trackerAddress ? NO_TRACKER_TOKEN : {});
  const valueName = cols.header[value]!;
  return mapRows('etherscan', table.rows, ({ line, cells }: CsvRow) => {
    const tx_hash = common.txHash(cells);
    const from = addressOf(cells[common.from], 'From');
    const to = addressOf(cells[common.to], 'To');
    if (from !== wallet.address && to !== wallet.address) {
      // A tracker file lists every holder's transfers; an address export only the wallet's own.
      if (tracker) return `does not involve the wallet's address ${wallet.address}`;
      fail('From', `neither From nor To is the wallet's address ${wallet.address}`);
    }
    const amount = amountOf(cells[value], valueName);
    const address = tracker ? trackerAddress! : addressOf(cells[contract], 'ContractAddress');
    if (address === '') fail('ContractAddress', 'is empty');
    return inBlock(
      common.blockOf(cells),
      tokenRecords(wallet, {
        line,
        tx_hash,
        from_address: from,
        to_address: to,
        timestamp: common.timestamp(cells),
        token: tokenAtAddress(address, [amount], valueName, cell(cells, symbol)),
        tokenName: cell(cells, tokenName),
        amount,
        fiatUsd: fiatOf(cell(cells, usd), 'USDValueDayOfTx'),
        method: common.methodOf(cells),
      }),
    );
  });
}

/** The Etherscan-family layouts (docs/import.md), told apart by the columns only each one has. */
type Layout = 'normal' | 'internal' | 'tokens' | 'tracker';

function layoutOf(cols: Columns): Layout | undefined {
  if (cols.findPrefix('Value_IN(') >= 0) return cols.find('TxTo') >= 0 ? 'internal' : 'normal';
  if (cols.find('ContractAddress') >= 0) return 'tokens';
  if (cols.find('Quantity') >= 0) return 'tracker';
  return undefined;
}

/** Why a file of an explorer layout txa does not read (the "Download Page Data" one, zkSync's explorer, …) is refused. */
function unknownLayout(): TxaError {
  return new TxaError(
    'IMPORT_FAILED',
    'this explorer file is none of the Etherscan-family layouts txa reads: normal transactions (Value_IN(X), Value_OUT(X), TxnFee(X)), ' +
      'internal transactions (TxTo, Value_IN(X)), token transfers (TokenValue, ContractAddress) or a token tracker (Quantity)',
    {
      field: 'format',
      hint: 'Download the address page\'s "CSV Export" from an Etherscan-family explorer, or fetch the history from the chain: txa wallet sync ID',
    },
  );
}

export const etherscanImporter: Importer = {
  format: 'etherscan',
  needsWallet: true,
  detect({ header }) {
    const cols = new Columns(header ?? []);
    return cols.find('Txhash', 'Transaction Hash', 'UnixTimestamp', 'Blockno') >= 0 || cols.findPrefix('Value_IN(') >= 0;
  },
  parse(text, ctx) {
    if (!ctx.wallet) throw new TxaError('USAGE_ERROR', 'explorer exports name no wallet: pass --wallet ID', { field: 'wallet' });
    const table = readCsv(text);
    const cols = new Columns(table.header);
    const layout = layoutOf(cols);
    if (!layout) throw unknownLayout();
    // Only a token tracker (no ContractAddress column) leaves its token to be named from outside.
    if (ctx.tokenAddress !== undefined && layout !== 'tracker') {
      const names = layout === 'tokens' ? 'names each token in its ContractAddress column' : 'holds native-coin transactions';
      throw new TxaError('USAGE_ERROR', `--token-address is only for token-tracker exports; this file ${names}`, { field: 'token-address' });
    }
    if (layout === 'normal') return parseNormal(table, cols, ctx.wallet);
    if (layout === 'internal') return parseInternal(table, cols, ctx.wallet);
    return parseTokens(table, cols, ctx.wallet, ctx);
  },
};
