// Adds an exchange account with N rows to a benchmark ledger (issue 21: exchange ↔ chain proposals
// over the realistic 1M ledger plus 200k exchange rows ≤ 10 s; then time them with
// `node bench/transfers.mjs LEDGER`). The rows mirror the ledger's own chain rows, as a client's
// exchange history does: for an inflow on a chain, a withdrawal from the exchange 5–55 minutes
// before it of the amount plus up to 0.5 % (the network fee); for an outflow, a deposit to the
// exchange 5–55 minutes after it; half carry the chain row's hash (matched by hash), half none
// (proposed by asset, time and amount). Every row goes through the real import (importRecords),
// in batches of 20,000. Run on a copy: the rows stay.
//   node bench/add-exchange-rows.mjs LEDGER [N] [WORKSPACE]   (default N 200000, ws_bench)
import { Engine } from '../dist/engine/engine.js';
import { createWallet } from '../dist/engine/wallets.js';
import { importRecords } from '../dist/engine/imports.js';

const ledger = process.argv[2];
const n = Number(process.argv[3] ?? 200_000);
const ws = process.argv[4] ?? 'ws_bench';
if (!ledger) throw new Error('usage: node bench/add-exchange-rows.mjs LEDGER [N] [WORKSPACE]');
const engine = Engine.open(ledger);
const wallet = createWallet(engine, ws, { kind: 'exchange', exchange: 'coinbase', label: 'Coinbase (bench)' }).id;
// Chain rows that move value, spread over the whole ledger: every k-th.
const total = engine.db.prepare("SELECT count(*) FROM transactions WHERE workspace_id = ? AND type <> 'fee' AND amount <> '0'").pluck().get(ws);
const step = Math.max(1, Math.floor(total / n));
const rows = engine.db
  .prepare(
    `SELECT tx_hash, ts, token_symbol, amount, direction, fiat_cents FROM transactions
     WHERE workspace_id = ? AND type <> 'fee' AND amount <> '0' AND rowid % ? = 0 ORDER BY ts, id LIMIT ?`,
  )
  .raw(true)
  .iterate(ws, step, n);
const t0 = performance.now();
let batch = [];
let line = 0;
let added = 0;
const flush = () => {
  if (batch.length === 0) return;
  added += importRecords(engine, ws, batch, { walletId: wallet, format: 'exchange-csv' }).imported;
  batch = [];
};
const rowsList = [...rows];
for (const [hash, ts, symbol, amount, direction, cents] of rowsList) {
  line++;
  const minutes = 5 + (line % 51);
  // The exchange's side: a withdrawal before a chain inflow (a little more: the fee), a deposit after a chain outflow.
  const withdrawal = direction === 'inflow';
  const fee = withdrawal ? (Number(amount) * (line % 6)) / 1200 : 0;
  const exchangeAmount = withdrawal ? String(Number((Number(amount) + fee).toPrecision(12))) : amount;
  batch.push({
    line,
    tx_hash: line % 2 === 0 ? hash : `cb-${line}`,
    from_address: '',
    to_address: '',
    token: { symbol, address: null, decimals: 18 },
    amount: exchangeAmount.includes('e') ? amount : exchangeAmount,
    fiat_value: cents === null ? null : (cents / 100).toFixed(2),
    direction: withdrawal ? 'outflow' : 'inflow',
    type: 'transfer',
    timestamp: withdrawal ? ts - minutes * 60 : ts + minutes * 60,
    notes: null,
  });
  if (batch.length === 20_000) flush();
}
flush();
const rowsNow = engine.db.prepare('SELECT count(*) FROM transactions WHERE workspace_id = ?').pluck().get(ws);
engine.close();
console.log(
  JSON.stringify({
    ledger,
    exchange_wallet: wallet,
    exchange_rows: added,
    ledger_rows: rowsNow,
    seconds: Number(((performance.now() - t0) / 1000).toFixed(1)),
  }),
);
