/**
 * Etherscan-family "CSV Export" files (Etherscan, BscScan, Polygonscan, Arbiscan, …): normal
 * transactions, ERC-20/BEP-20 token transfers of an address, and the token-tracker layout (one
 * token, all holders). The files name no wallet: `--wallet` gives the address whose side of each
 * row (From → outflow, To → inflow) decides the direction; a normal-transactions file stripped of
 * From/To falls back on its value columns. See docs/import.md for every rule.
 */
import { TxaError } from '../core/errors.js';
import { chainsForNative } from '../core/chains.js';
import type { ImportRecord, ImportContext, Importer, ParseResult } from './types.js';
import { Columns, fail, mapRows, readCsv, requireColumns, type CsvRow, type CsvTable } from './csv.js';
import { addressOf, amountOf, dateTimeOf, fiatOf, optionalAmount, syntheticHashes, unixSecondsOf, valueAt } from './fields.js';
import { nativeToken, tokenAtAddress, tokenTransferType, typeOfMethod } from './tokens.js';

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

function cell(cells: string[], i: number): string {
  return i >= 0 ? (cells[i] ?? '').trim() : '';
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
  const symbol = /\((.+)\)$/.exec(cols.header[valueIn]!)?.[1] ?? '';
  const missing = common.missing(true);
  if (valueOut < 0) missing.push(`Value_OUT(${symbol})`);
  if (fee < 0) missing.push(`TxnFee(${symbol})`);
  requireColumns(missing);
  if (!chainsForNative(symbol).includes(wallet.chain)) {
    throw new TxaError('IMPORT_FAILED', `the file's amounts are in ${symbol}, but wallet ${wallet.id} is on ${wallet.chain}`, {
      field: 'wallet',
      hint: 'Import it into a wallet of the chain the explorer belongs to.',
    });
  }
  const name = (i: number) => cols.header[i]!;
  const synthetic = syntheticHashes('etherscan');
  return mapRows('etherscan', table.rows, ({ line, cells }: CsvRow) => {
    const inAmount = amountOf(cells[valueIn], name(valueIn));
    const outAmount = amountOf(cells[valueOut], name(valueOut));
    const feeAmount = optionalAmount(cells[fee], name(fee)) ?? '0';
    const timestamp = common.timestamp(cells);
    let from: string;
    let to: string;
    let isFrom: boolean;
    if (common.hasParties) {
      from = addressOf(cells[common.from], 'From');
      // A contract creation has no To; the created contract (ContractAddress) is the receiver.
      to = addressOf(cells[common.to], 'To') || addressOf(cell(cells, contract), 'ContractAddress');
      isFrom = from === wallet.address;
      if (!isFrom && to !== wallet.address) fail('From', `neither From nor To is the wallet's address ${wallet.address}`);
    } else {
      // Without From/To, only what the wallet sent or received tells its side: it sent a tx with a
      // Value_OUT or with no value at all (a contract call), and received one with only a Value_IN.
      isFrom = outAmount !== '0' || inAmount === '0';
      from = isFrom ? wallet.address : '';
      to = isFrom ? '' : wallet.address;
    }
    // A synthetic hash covers only what a later export of the same tx repeats: not the prices
    // (CurrentValue moves, Historical $Price is empty on the newest day until the explorer fills it).
    const tx_hash =
      common.hash >= 0 ? common.txHash(cells) : synthetic([cell(cells, common.block), String(timestamp), inAmount, outAmount, feeAmount]);
    const priceUsd = price >= 0 ? fiatOf(cells[price], name(price)) : null;
    const method = common.methodOf(cells);
    const base = { line, tx_hash, from_address: from, to_address: to, timestamp, notes: null };
    const valueRow = (amount: string, direction: ImportRecord['direction'], field: string): ImportRecord => ({
      ...base,
      token: nativeToken(wallet.chain, [amount], field),
      amount,
      fiat_value: valueAt(amount, priceUsd),
      direction,
      type: typeOfMethod(method) ?? (amount !== '0' && (method === '' || /^transfer\b/i.test(method)) ? 'transfer' : 'contract_call'),
    });
    const records: ImportRecord[] = [];
    // Error(0): the tx failed and moved no value, though Value_OUT still shows it; only the fee was paid.
    // Error(1) means an inner call failed while the tx itself went through.
    const failed = /^error\(0\)$/i.test(cell(cells, status));
    if (!failed) {
      if (inAmount !== '0') records.push(valueRow(inAmount, 'inflow', name(valueIn)));
      if (outAmount !== '0') records.push(valueRow(outAmount, 'outflow', name(valueOut)));
      if (records.length === 0) records.push(valueRow('0', isFrom ? 'outflow' : 'inflow', name(valueIn)));
    }
    // TxnFee is filled on incoming rows too, but the sender paid it.
    if (isFrom && feeAmount !== '0') {
      records.push({
        ...base,
        token: nativeToken(wallet.chain, [feeAmount], name(fee)),
        amount: feeAmount,
        // At the row's own day's price, as the value rows are; never TxnFee(USD), which the explorer
        // computes at today's price. No historical price: unpriced.
        fiat_value: valueAt(feeAmount, priceUsd),
        direction: 'outflow',
        type: 'fee',
      });
    }
    return records.length > 0 ? records : 'failed transaction (Error(0)) sent by another address: no value moved';
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
    const isFrom = from === wallet.address;
    const isTo = to === wallet.address;
    if (!isFrom && !isTo) {
      // A tracker file lists every holder's transfers; an address export only the wallet's own.
      if (tracker) return `does not involve the wallet's address ${wallet.address}`;
      fail('From', `neither From nor To is the wallet's address ${wallet.address}`);
    }
    const amount = amountOf(cells[value], valueName);
    const address = tracker ? trackerAddress! : addressOf(cells[contract], 'ContractAddress');
    if (address === '') fail('ContractAddress', 'is empty');
    const base = {
      line,
      tx_hash,
      from_address: from,
      to_address: to,
      token: tokenAtAddress(address, [amount], valueName, cell(cells, symbol)),
      amount,
      fiat_value: fiatOf(cell(cells, usd), 'USDValueDayOfTx'),
      type: tokenTransferType(from, to, common.methodOf(cells)),
      timestamp: common.timestamp(cells),
      notes: null,
    };
    const records: ImportRecord[] = [];
    if (isFrom) records.push({ ...base, direction: 'outflow' });
    if (isTo) records.push({ ...base, direction: 'inflow' });
    return records;
  });
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
    const normal = cols.findPrefix('Value_IN(') >= 0;
    // Only a token tracker (no ContractAddress column) leaves its token to be named from outside.
    if (ctx.tokenAddress !== undefined && (normal || cols.find('ContractAddress') >= 0)) {
      const names = normal ? 'holds native-coin transactions' : 'names each token in its ContractAddress column';
      throw new TxaError('USAGE_ERROR', `--token-address is only for token-tracker exports; this file ${names}`, { field: 'token-address' });
    }
    return normal ? parseNormal(table, cols, ctx.wallet) : parseTokens(table, cols, ctx.wallet, ctx);
  },
};
