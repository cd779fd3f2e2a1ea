/**
 * A replay Esplora API on 127.0.0.1 for the Bitcoin sync tests, in the shapes mempool.space and
 * Blockstream answer (docs/sync.md "Bitcoin"): `GET /api/address/:a` (chain_stats and
 * mempool_stats), `GET /api/address/:a/txs` (up to 50 mempool transactions, then the newest 25
 * confirmed) and `GET /api/address/:a/txs/chain/:last_seen_txid` (the 25 confirmed after it),
 * confirmed ones newest first. Transactions are built with `tx()` in Esplora's full shape. Faults
 * are queued: the next calls get them instead of the answer.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EsploraTxJson {
  txid: string;
  version: number;
  locktime: number;
  vin: {
    txid: string;
    vout: number;
    prevout: { scriptpubkey: string; scriptpubkey_asm: string; scriptpubkey_type: string; scriptpubkey_address: string; value: number } | null;
    scriptsig: string;
    scriptsig_asm: string;
    witness?: string[];
    is_coinbase: boolean;
    sequence: number;
  }[];
  vout: { scriptpubkey: string; scriptpubkey_asm: string; scriptpubkey_type: string; scriptpubkey_address?: string; value: number }[];
  size: number;
  weight: number;
  fee: number;
  status: { confirmed: boolean; block_height?: number; block_hash?: string; block_time?: number };
}

const hex = (seed: string) => createHash('sha256').update(seed).digest('hex');
const typeOf = (a: string) => (a.startsWith('bc1p') ? 'v1_p2tr' : a.startsWith('bc1q') ? 'v0_p2wpkh' : a.startsWith('3') ? 'p2sh' : 'p2pkh');
const script = (address: string, value: number) => ({
  scriptpubkey: `0014${hex(address).slice(0, 40)}`,
  scriptpubkey_asm: `OP_0 OP_PUSHBYTES_20 ${hex(address).slice(0, 40)}`,
  scriptpubkey_type: typeOf(address),
  scriptpubkey_address: address,
  value,
});

/** Block times of the fixtures: block h at 2024-01-01 + 10 minutes × (h − 820,000). */
export const blockTime = (height: number) => 1704067200 + (height - 820_000) * 600;

/** A transaction in Esplora's shape: inputs and outputs as [address, satoshis]; `height` null for one in the mempool. */
export function tx(seed: string, height: number | null, vin: [string, number][], vout: [string, number][]): EsploraTxJson {
  const fee = vin.reduce((n, [, v]) => n + v, 0) - vout.reduce((n, [, v]) => n + v, 0);
  if (fee < 0) throw new Error(`${seed}: outputs exceed inputs`);
  return {
    txid: hex(`tx:${seed}`),
    version: 2,
    locktime: 0,
    vin: vin.map(([address, value], i) => ({
      txid: hex(`prev:${seed}:${i}`),
      vout: i,
      prevout: script(address, value),
      scriptsig: '',
      scriptsig_asm: '',
      witness: [hex(`sig:${seed}:${i}`), `02${hex(`pub:${address}`)}`],
      is_coinbase: false,
      sequence: 4294967293,
    })),
    vout: vout.map(([address, value]) => script(address, value)),
    size: 222,
    weight: 561,
    fee,
    status:
      height === null ? { confirmed: false } : { confirmed: true, block_height: height, block_hash: hex(`block:${height}`), block_time: blockTime(height) },
  };
}

export type Fault = { status: number; body?: string; headers?: Record<string, string> } | { html: true } | { stall: true };

export interface EsploraReplay {
  url: string;
  /** Every transaction the server knows, oldest first (in block order; mempool ones anywhere). */
  txs: EsploraTxJson[];
  /** Every call's path (after /api), in order. */
  calls: string[];
  faults: Fault[];
  /** From this call on (1-based), every call is answered 503: a server that goes down mid-sync. */
  downFrom: number;
  close(): Promise<void>;
}

const touches = (t: EsploraTxJson, a: string) => t.vin.some((i) => i.prevout?.scriptpubkey_address === a) || t.vout.some((o) => o.scriptpubkey_address === a);

export async function esploraReplay(txs: EsploraTxJson[]): Promise<EsploraReplay> {
  const state: EsploraReplay = { url: '', txs, calls: [], faults: [], downFrom: Number.POSITIVE_INFINITY, close: async () => undefined };
  const send = (res: ServerResponse, status: number, body: string, type = 'application/json', headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': type, ...headers });
    res.end(body);
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').replace(/^\/api/, '');
    state.calls.push(path);
    const fault = state.calls.length >= state.downFrom ? { status: 503 } : state.faults.shift();
    if (fault && 'stall' in fault) return; // never answered: the client's deadline ends it
    if (fault && 'html' in fault) return send(res, 200, '<!DOCTYPE html><html><head><title>mempool - Bitcoin Explorer</title></head></html>', 'text/html');
    if (fault) return send(res, fault.status, fault.body ?? 'error', 'text/plain', fault.headers);
    const m = /^\/address\/([^/]+)(\/txs(?:\/chain\/([0-9a-f]{64}))?)?$/.exec(path);
    if (!m) return send(res, 404, 'Not Found', 'text/plain');
    const address = m[1]!;
    const mine = state.txs.filter((t) => touches(t, address));
    const confirmed = mine.filter((t) => t.status.confirmed).reverse(); // newest first
    const mempool = mine.filter((t) => !t.status.confirmed);
    if (!m[2]) {
      return send(
        res,
        200,
        JSON.stringify({
          address,
          chain_stats: { funded_txo_count: 0, funded_txo_sum: 0, spent_txo_count: 0, spent_txo_sum: 0, tx_count: confirmed.length },
          mempool_stats: { funded_txo_count: 0, funded_txo_sum: 0, spent_txo_count: 0, spent_txo_sum: 0, tx_count: mempool.length },
        }),
      );
    }
    if (!m[3]) return send(res, 200, JSON.stringify([...mempool.slice(0, 50), ...confirmed.slice(0, 25)]));
    const at = confirmed.findIndex((t) => t.txid === m[3]);
    if (at < 0) return send(res, 400, 'Transaction not found', 'text/plain');
    return send(res, 200, JSON.stringify(confirmed.slice(at + 1, at + 26)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
