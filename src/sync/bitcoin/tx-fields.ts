/**
 * Esplora's answers checked before anything of them is used (docs/sync.md "Bitcoin", as "Rows a
 * sync refuses" for the EVM explorers): a transaction is `{txid, vin[], vout[], fee, status}` with
 * a 64-hex txid, whole satoshi values, and, once confirmed, its block's height and time. Only the
 * fields the rows need are read; the rest of Esplora's shape (version, locktime, scripts, witness,
 * size, weight) is left alone.
 */
import type { TxaError } from '../../core/errors.js';

export interface EsploraVin {
  /** The output spent: null for a coinbase input. */
  prevout: { address: string | null; value: bigint } | null;
}

export interface EsploraVout {
  /** null for outputs with no address (OP_RETURN, bare multisig). */
  address: string | null;
  value: bigint;
}

export interface EsploraTx {
  txid: string;
  vin: EsploraVin[];
  vout: EsploraVout[];
  fee: bigint;
  confirmed: boolean;
  /** Set when confirmed. */
  blockHeight: number | null;
  blockTime: number | null;
}

export interface AddressStats {
  /** Confirmed transactions touching the address. */
  chainTxs: number;
  mempoolTxs: number;
}

const TXID = /^[0-9a-f]{64}$/;
/** 21 million BTC in satoshis: no value is larger. */
const MAX_SATS = 21_000_000n * 100_000_000n;
/** Bitcoin's genesis block, 2009-01-03. */
const GENESIS_TIME = 1231006505;

type Fail = (why: string) => TxaError;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function sats(v: unknown, what: string, fail: Fail): bigint {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0 || BigInt(v) > MAX_SATS) throw fail(`${what} is not a whole number of satoshis`);
  return BigInt(v);
}

function address(v: unknown, what: string, fail: Fail): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || v === '') throw fail(`${what} is not an address`);
  return v;
}

/** One transaction of a `/txs` page; `at` names it in errors. */
function checkTx(raw: unknown, at: string, fail: Fail): EsploraTx {
  if (!isObject(raw)) throw fail(`${at} is not an object`);
  const txid = raw.txid;
  if (typeof txid !== 'string' || !TXID.test(txid)) throw fail(`${at}: txid is not 64 hex digits`);
  const where = `${at} (${txid})`;
  if (!Array.isArray(raw.vin) || !Array.isArray(raw.vout)) throw fail(`${where}: vin or vout is not a list`);
  const vin = raw.vin.map((i, n): EsploraVin => {
    if (!isObject(i)) throw fail(`${where}: vin ${n} is not an object`);
    if (i.is_coinbase === true || i.prevout === null || i.prevout === undefined) {
      if (i.is_coinbase !== true) throw fail(`${where}: vin ${n} has no prevout (its value and address are needed)`);
      return { prevout: null };
    }
    if (!isObject(i.prevout)) throw fail(`${where}: vin ${n}'s prevout is not an object`);
    return {
      prevout: {
        address: address(i.prevout.scriptpubkey_address, `vin ${n}'s address`, fail),
        value: sats(i.prevout.value, `${where}: vin ${n}'s value`, fail),
      },
    };
  });
  const vout = raw.vout.map((o, n): EsploraVout => {
    if (!isObject(o)) throw fail(`${where}: vout ${n} is not an object`);
    return { address: address(o.scriptpubkey_address, `vout ${n}'s address`, fail), value: sats(o.value, `${where}: vout ${n}'s value`, fail) };
  });
  const status = raw.status;
  if (!isObject(status) || typeof status.confirmed !== 'boolean') throw fail(`${where}: status.confirmed is missing`);
  const fee = sats(raw.fee ?? 0, `${where}: fee`, fail);
  if (!status.confirmed) return { txid, vin, vout, fee, confirmed: false, blockHeight: null, blockTime: null };
  const height = status.block_height;
  const time = status.block_time;
  if (typeof height !== 'number' || !Number.isSafeInteger(height) || height < 0) throw fail(`${where}: status.block_height is not a block height`);
  const latest = Math.floor(Date.now() / 1000) + 86_400;
  if (typeof time !== 'number' || !Number.isSafeInteger(time) || time < GENESIS_TIME || time > latest) {
    throw fail(`${where}: status.block_time is not a time from 2009-01-03 to tomorrow`);
  }
  return { txid, vin, vout, fee, confirmed: true, blockHeight: height, blockTime: time };
}

/** A `/txs` or `/txs/chain/…` answer: a list of transactions. */
export function checkTxs(body: unknown, fail: Fail): EsploraTx[] {
  if (!Array.isArray(body)) throw fail('the answer is not a list of transactions');
  return body.map((raw, i) => checkTx(raw, `transaction ${i + 1} of the answer`, fail));
}

/** An `/address/:a` answer's counts. */
export function checkAddressStats(body: unknown, fail: Fail): AddressStats {
  const count = (stats: unknown, name: string): number => {
    const n = isObject(stats) ? stats.tx_count : undefined;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw fail(`${name}.tx_count is not a count`);
    return n;
  };
  if (!isObject(body)) throw fail('the answer is not an address');
  return { chainTxs: count(body.chain_stats, 'chain_stats'), mempoolTxs: count(body.mempool_stats ?? { tx_count: 0 }, 'mempool_stats') };
}
