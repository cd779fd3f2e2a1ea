/**
 * One synthetic on-chain history of a wallet, written two ways: as the explorer API's rows
 * (Etherscan V2 or Blockscout dialect, sync.md) and as the explorer's CSV exports of the same
 * address (normal transactions, internal transactions, ERC-20 transfers; fixtures/import/README.md),
 * so a test can sync one wallet, import the other, and compare them row for row. The CSV files
 * carry no prices (empty, `N/A`): the API has none either.
 */
import { createHash } from 'node:crypto';
import { fromBaseUnits } from '../../src/core/money.js';
import type { Row } from './explorer-replay.js';

export const WALLET = `0x${'a1'.repeat(20)}`;
const USDC = { contract: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', symbol: 'USDC', name: 'USD Coin', decimals: 6 };
const WETH = { contract: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2', symbol: 'WETH', name: 'Wrapped Ether', decimals: 18 };
const FAKE = { contract: `0x${'fa'.repeat(20)}`, symbol: 'FAKE', name: 'Fake Token', decimals: 18 };
type TokenDef = typeof USDC;

export const addr = (label: string) => `0x${createHash('sha256').update(`sync:${label}`).digest('hex').slice(0, 40)}`;
export const hash = (label: string) => `0x${createHash('sha256').update(`sync:${label}`).digest('hex')}`;

const GWEI = 10n ** 9n;
const ETH = 10n ** 18n;

interface NormalTx {
  hash: string;
  block: number;
  from: string;
  to: string;
  value: bigint;
  gasUsed: bigint;
  gasPrice: bigint;
  /** The OP-stack L1 data fee: Etherscan's `L1FeesPaid`, Blockscout REST's `l1_fee`. */
  l1Fee?: bigint;
  failed?: boolean;
  /** The API's functionName and the CSV's Method for it. */
  functionName: string;
  method: string;
  input: string;
  contractAddress?: string;
  /** Only the API shows it (genesis allocations). */
  apiOnly?: boolean;
}

interface InternalTx {
  hash: string;
  block: number;
  from: string;
  to: string;
  contractAddress?: string;
  value: bigint;
  type: string;
  failed?: boolean;
  traceId: string;
}

interface TokenTx {
  hash: string;
  block: number;
  from: string;
  to: string;
  token: TokenDef;
  units: bigint;
}

interface Withdrawal {
  index: number;
  block: number;
  gwei: bigint;
}

export interface History {
  normal: NormalTx[];
  internal: InternalTx[];
  tokens: TokenTx[];
  withdrawals: Withdrawal[];
}

/** Block time: 12 s a block from a fixed start. */
export const tsOf = (block: number) => 1_700_000_000 + block * 12;

const plain = { functionName: '', method: 'Transfer', input: '0x' };

/** The history every equality test uses: each rule of docs/sync.md at least once, and `fillers` extra inflows for paging (three per block). */
export function history(fillers = 0): History {
  const router = addr('router');
  const h: History = {
    normal: [
      { hash: `GENESIS_${WALLET}`, block: 0, from: 'GENESIS', to: WALLET, value: 5n * ETH, gasUsed: 0n, gasPrice: 0n, ...plain, method: '', apiOnly: true },
      { hash: hash('in'), block: 1000, from: addr('alice'), to: WALLET, value: 2n * ETH, gasUsed: 21000n, gasPrice: 30n * GWEI, ...plain },
      { hash: hash('pay'), block: 1001, from: WALLET, to: addr('bob'), value: ETH / 2n, gasUsed: 21000n, gasPrice: 20n * GWEI, ...plain },
      {
        hash: hash('swap-in'),
        block: 1002,
        from: WALLET,
        to: router,
        value: ETH,
        gasUsed: 150_000n,
        gasPrice: 25n * GWEI,
        functionName: 'swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline)',
        method: 'Swap Exact ETH For Tokens',
        input: '0x7ff36ab5',
      },
      {
        hash: hash('approve'),
        block: 1003,
        from: WALLET,
        to: USDC.contract,
        value: 0n,
        gasUsed: 46_000n,
        gasPrice: 18n * GWEI,
        functionName: 'approve(address spender, uint256 amount)',
        method: 'Approve',
        input: '0x095ea7b3',
      },
      {
        hash: hash('failed'),
        block: 1004,
        from: WALLET,
        to: router,
        value: (ETH * 3n) / 10n,
        gasUsed: 90_000n,
        gasPrice: 22n * GWEI,
        failed: true,
        functionName: 'swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline)',
        method: 'Swap Exact ETH For Tokens',
        input: '0x7ff36ab5',
      },
      {
        hash: hash('swap-out'),
        block: 1005,
        from: WALLET,
        to: router,
        value: 0n,
        gasUsed: 120_000n,
        gasPrice: 21n * GWEI,
        functionName: 'swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
        method: 'Swap Exact Tokens For ETH',
        input: '0x18cbafe5',
      },
      // Same block as the one before; an unverified contract: the method is its selector.
      {
        hash: hash('unverified'),
        block: 1005,
        from: WALLET,
        to: addr('dapp'),
        value: 0n,
        gasUsed: 60_000n,
        gasPrice: 21n * GWEI,
        functionName: '',
        method: '0x3593564c',
        input: '0x3593564c0000',
      },
      { hash: hash('self'), block: 1009, from: WALLET, to: WALLET, value: ETH / 10n, gasUsed: 21000n, gasPrice: 15n * GWEI, ...plain },
      {
        hash: hash('create'),
        block: 1010,
        from: WALLET,
        to: '',
        contractAddress: addr('created'),
        value: 0n,
        gasUsed: 500_000n,
        gasPrice: 15n * GWEI,
        functionName: '',
        method: '0x60806040',
        input: '0x60806040',
      },
      {
        hash: hash('bridge'),
        block: 1011,
        from: WALLET,
        to: addr('bridge'),
        value: ETH / 4n,
        gasUsed: 80_000n,
        gasPrice: 15n * GWEI,
        functionName: 'depositV3(address depositor, address recipient)',
        method: 'Deposit V3',
        input: '0x7b939232',
      },
    ],
    internal: [
      { hash: hash('failed'), block: 1004, from: router, to: WALLET, value: ETH / 10n, type: 'call', failed: true, traceId: '0_1' },
      { hash: hash('swap-out'), block: 1005, from: router, to: WALLET, value: (ETH * 45n) / 100n, type: 'call', traceId: '0_2' },
      // A withdrawal an exchange's contract paid out: the tx is not the wallet's.
      { hash: hash('exchange'), block: 1006, from: addr('exchange'), to: WALLET, value: ETH / 5n, type: 'call', traceId: '0' },
    ],
    tokens: [
      { hash: hash('swap-in'), block: 1002, from: router, to: WALLET, token: USDC, units: 3_000_000_000n },
      { hash: hash('swap-out'), block: 1005, from: WALLET, to: router, token: USDC, units: 1_500_250_000n },
      // Two identical transfers in one tx: no logIndex tells them apart.
      { hash: hash('airdrop'), block: 1007, from: addr('distributor'), to: WALLET, token: WETH, units: ETH / 100n },
      { hash: hash('airdrop'), block: 1007, from: addr('distributor'), to: WALLET, token: WETH, units: ETH / 100n },
      { hash: hash('spam'), block: 1008, from: addr('spammer'), to: WALLET, token: FAKE, units: 1_000_000n * ETH },
    ],
    withdrawals: [
      { index: 7, block: 1003, gwei: 32_123_456n },
      { index: 8, block: 1009, gwei: 0n },
    ],
  };
  for (let i = 0; i < fillers; i++) {
    const block = 2000 + Math.floor(i / 3);
    h.normal.push({
      hash: hash(`filler-${i}`),
      block,
      from: addr(`payer-${i % 5}`),
      to: WALLET,
      value: BigInt(i + 1) * GWEI,
      gasUsed: 21000n,
      gasPrice: GWEI,
      ...plain,
    });
    h.tokens.push({ hash: hash(`filler-${i}`), block, from: addr(`payer-${i % 5}`), to: WALLET, token: USDC, units: BigInt(i + 1) * 10_000n });
  }
  return h;
}

/**
 * Spam tokens as the explorer lists them: a copy of USDT at another contract, a token named after
 * a phishing site. 18 decimals: the CSV import guesses 18 for a token it does not know.
 */
export const FAKE_USDT = { contract: `0x${'de'.repeat(20)}`, symbol: 'USDT', name: 'Tether USD', decimals: 18 };
export const BAIT_TOKEN = { contract: `0x${'ba'.repeat(20)}`, symbol: '$ USDC-Reward.com', name: 'Visit usdc-reward.com to claim', decimals: 18 };
export { FAKE, USDC };

/**
 * The history with the spam of docs/sync.md's "Spam" rules: a zero-value USDC `transferFrom` out of
 * the wallet to a look-alike of bob's address in a tx someone else sent (address poisoning), the
 * copied USDT and the phishing token airdropped to it, and a zero-value transfer in a tx the wallet
 * sent itself (not spam). Token rows stay in block order, as the API lists them.
 */
export function withSpam(h: History): History {
  const bob = addr('bob');
  const spam: TokenTx[] = [
    { hash: hash('poison'), block: 1008, from: WALLET, to: `${bob.slice(0, 6)}${'0'.repeat(32)}${bob.slice(-4)}`, token: USDC, units: 0n },
    { hash: hash('fake-usdt'), block: 1008, from: addr('spammer'), to: WALLET, token: FAKE_USDT, units: 2_500n * ETH },
    { hash: hash('reward'), block: 1008, from: addr('spammer'), to: WALLET, token: BAIT_TOKEN, units: 1000n * ETH },
    { hash: hash('approve'), block: 1003, from: WALLET, to: addr('router'), token: USDC, units: 0n },
  ];
  return { ...h, tokens: [...h.tokens, ...spam].sort((a, b) => a.block - b.block) };
}

const fee = (t: NormalTx) => t.gasUsed * t.gasPrice + (t.l1Fee ?? 0n);

/**
 * Blockscout REST's `/api/v2/transactions/{hash}` bodies of the normal transactions (the fields
 * sync reads and their neighbours; `fee.value` is gas × price + `l1_fee`, as in the recorded OP rows).
 */
export function blockscoutTransactions(h: History): Record<string, object> {
  const bodies: Record<string, object> = {};
  for (const t of h.normal) {
    bodies[t.hash] = {
      hash: t.hash,
      block_number: t.block,
      status: t.failed ? 'error' : 'ok',
      result: t.failed ? 'Reverted' : 'success',
      gas_used: String(t.gasUsed),
      gas_price: String(t.gasPrice),
      fee: { type: 'actual', value: String(fee(t)) },
      l1_fee: t.l1Fee === undefined ? null : String(t.l1Fee),
      l1_gas_used: t.l1Fee === undefined ? null : '1600',
      value: String(t.value),
      from: { hash: t.from },
      to: t.to ? { hash: t.to } : null,
    };
  }
  return bodies;
}

/** The API's rows of each list, in the dialect asked for. */
export function apiLists(h: History, dialect: 'etherscan' | 'blockscout'): Record<string, Row[]> {
  const etherscan = dialect === 'etherscan';
  const txlist = h.normal.map((t, i) => ({
    blockNumber: String(t.block),
    blockHash: t.apiOnly ? '' : hash(`block-${t.block}`),
    timeStamp: String(tsOf(t.block)),
    hash: t.hash,
    nonce: t.apiOnly ? '' : String(i),
    transactionIndex: String(i % 7),
    from: t.from,
    to: t.to,
    value: String(t.value),
    gas: String(t.gasUsed + 10_000n),
    gasPrice: String(t.gasPrice),
    input: t.input,
    methodId: t.input.slice(0, 10),
    ...(etherscan ? { functionName: t.functionName } : {}),
    contractAddress: t.contractAddress ?? '',
    cumulativeGasUsed: String(t.gasUsed * 3n),
    txreceipt_status: t.failed ? '0' : '1',
    gasUsed: String(t.gasUsed),
    confirmations: String(5_000_000 - t.block),
    isError: t.failed ? '1' : '0',
    ...(etherscan && t.l1Fee !== undefined ? { L1FeesPaid: String(t.l1Fee) } : {}),
  }));
  const txlistinternal = h.internal.map((t) => ({
    blockNumber: String(t.block),
    timeStamp: String(tsOf(t.block)),
    [etherscan ? 'hash' : 'transactionHash']: t.hash,
    from: t.from,
    to: t.to,
    value: String(t.value),
    contractAddress: t.contractAddress ?? '',
    input: '',
    type: t.type,
    ...(etherscan ? { traceId: t.traceId } : { index: t.traceId.replace(/\D/g, ''), callType: t.type }),
    gas: '2300',
    gasUsed: '0',
    isError: t.failed ? '1' : '0',
    errCode: t.failed ? 'Reverted' : '',
  }));
  const tokentx = h.tokens.map((t, i) => ({
    blockNumber: String(t.block),
    timeStamp: String(tsOf(t.block)),
    hash: t.hash,
    nonce: String(i),
    blockHash: hash(`block-${t.block}`),
    from: t.from,
    contractAddress: t.token.contract,
    to: t.to,
    value: String(t.units),
    tokenName: t.token.name,
    tokenSymbol: t.token.symbol,
    tokenDecimal: String(t.token.decimals),
    transactionIndex: '3',
    gas: '200000',
    gasPrice: '1000000000',
    gasUsed: '120000',
    cumulativeGasUsed: '9000000',
    input: 'deprecated',
    confirmations: String(5_000_000 - t.block),
  }));
  const lists: Record<string, Row[]> = { txlist, txlistinternal, tokentx };
  if (etherscan) {
    lists.txsBeaconWithdrawal = h.withdrawals.map((w) => ({
      withdrawalIndex: String(w.index),
      validatorIndex: '117823',
      address: WALLET,
      amount: String(w.gwei),
      blockNumber: String(w.block),
      timestamp: String(tsOf(w.block)),
    }));
  }
  return lists;
}

const q = (cells: string[]) => cells.map((c) => `"${c}"`).join(',');
const dateOf = (block: number) => new Date(tsOf(block) * 1000).toISOString().slice(0, 19).replace('T', ' ');
const eth = (wei: bigint) => fromBaseUnits(wei, 18);
/** A token amount as Etherscan's CSV prints it: human units, thousands separators. */
const human = (units: bigint, decimals: number) => {
  const [int, frac] = fromBaseUnits(units, decimals).split('.');
  const grouped = int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac ? `${grouped}.${frac}` : grouped;
};

/** The explorer's three CSV exports of the wallet (LF, all quoted; the internal one with its trailing field). */
export function csvFiles(h: History): { normal: string; internal: string; tokens: string } {
  const normal = [
    q([
      'Txhash',
      'Blockno',
      'UnixTimestamp',
      'DateTime (UTC)',
      'From',
      'To',
      'ContractAddress',
      'Value_IN(ETH)',
      'Value_OUT(ETH)',
      'CurrentValue @ $3000/Eth',
      'TxnFee(ETH)',
      'TxnFee(USD)',
      'Historical $Price/Eth',
      'Status',
      'ErrCode',
      'Method',
    ]),
    ...h.normal
      .filter((t) => !t.apiOnly)
      .map((t) =>
        q([
          t.hash,
          String(t.block),
          String(tsOf(t.block)),
          dateOf(t.block),
          t.from,
          t.to,
          t.contractAddress ?? '',
          eth(t.to === WALLET ? t.value : 0n),
          eth(t.from === WALLET ? t.value : 0n),
          '0',
          eth(fee(t)),
          '',
          '',
          t.failed ? 'Error(0)' : '',
          t.failed ? 'Reverted' : '',
          t.method,
        ]),
      ),
  ];
  const internal = [
    q([
      'Txhash',
      'Blockno',
      'UnixTimestamp',
      'DateTime (UTC)',
      'ParentTxFrom',
      'ParentTxTo',
      'ParentTxETH_Value',
      'From',
      'TxTo',
      'ContractAddress',
      'Value_IN(ETH)',
      'Value_OUT(ETH)',
      'CurrentValue @ $3000/Eth',
      'Historical $Price/Eth',
      'Status',
      'ErrCode',
      'Type',
    ]),
    ...h.internal.map(
      (t) =>
        `${q([
          t.hash,
          String(t.block),
          String(tsOf(t.block)),
          dateOf(t.block),
          WALLET,
          t.from,
          '0',
          t.from,
          t.to,
          t.contractAddress ?? '',
          eth(t.to === WALLET ? t.value : 0n),
          eth(t.from === WALLET ? t.value : 0n),
          '0',
          '',
          t.failed ? '1' : '0',
          t.failed ? 'Reverted' : '',
          t.type,
        ])},""`,
    ),
  ];
  const tokens = [
    q(['Txhash', 'Blockno', 'UnixTimestamp', 'DateTime (UTC)', 'From', 'To', 'TokenValue', 'USDValueDayOfTx', 'ContractAddress', 'TokenName', 'TokenSymbol']),
    ...h.tokens.map((t) =>
      q([
        t.hash,
        String(t.block),
        String(tsOf(t.block)),
        dateOf(t.block),
        t.from,
        t.to,
        human(t.units, t.token.decimals),
        'N/A',
        t.token.contract,
        t.token.name,
        t.token.symbol,
      ]),
    ),
  ];
  return { normal: `${normal.join('\n')}\n`, internal: `${internal.join('\n')}\n`, tokens: `${tokens.join('\n')}\n` };
}

/**
 * The API lists plus a reverted tx someone sent the wallet (in its txlist, isError 1) whose internal
 * payout to the wallet the explorer lists without isError: only the txlist row tells a sync to
 * ignore it, so a sync resumed after txlist must remember it (docs/sync.md, Failed).
 */
export function withRevertedPayout(lists: Record<string, Row[]>): Record<string, Row[]> {
  const reverted = hash('reverted-incoming');
  const block = { blockNumber: '1012', timeStamp: String(tsOf(1012)) };
  const txlist = [...lists.txlist!, { ...lists.txlist![1]!, hash: reverted, ...block, isError: '1', txreceipt_status: '0' }];
  const payout = { ...lists.txlistinternal!.find((r) => r.hash === hash('exchange'))!, hash: reverted, ...block, isError: '0', traceId: '0_4' };
  const byBlock = (a: Row, b: Row) => Number(a.blockNumber) - Number(b.blockNumber);
  return { ...lists, txlist: txlist.sort(byBlock), txlistinternal: [...lists.txlistinternal!, payout].sort(byBlock) };
}
