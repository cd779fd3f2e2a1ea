// Builds a deterministic ledger for the export bench through the engine's own store code:
// node bench/export-ledger.mjs PATH ROWS  (an enterprise workspace `ws_bench`, 20 wallets, 3 tags).
import { existsSync } from 'node:fs';
import { Engine } from '../dist/engine/engine.js';
import { createWorkspace } from '../dist/engine/workspaces.js';
import { insertNewWallet } from '../dist/engine/wallets.js';
import { createTag } from '../dist/engine/tags.js';
import { insertTransactions } from '../dist/store/insert-transactions.js';
import { amountKey } from '../dist/core/money.js';
import { transactionId } from '../dist/core/ids.js';

const [path, rowsArg] = process.argv.slice(2);
const rows = Number(rowsArg ?? 1_000_000);
if (existsSync(path)) process.exit(0);
const engine = Engine.open(path);
const ws = createWorkspace(engine, { id: 'ws_bench', name: 'Bench', tier: 'enterprise' }).id;
const wallets = engine.write(() =>
  Array.from(
    { length: 20 },
    (_, i) => insertNewWallet(engine, ws, { address: `0x${String(i + 1).padStart(40, '0')}`, chain: 'ethereum', label: `Wallet ${i}` }).id,
  ),
);
const tags = ['Income', 'Fees', '=Suspicious, "quoted"'].map((name, i) => createTag(engine, ws, { name, type: ['income', 'expense', 'neutral'][i] }).id);
const start = Date.UTC(2020, 0, 1) / 1000;
const BATCH = 50_000;
const tagStmt = engine.db.prepare('INSERT INTO transaction_tags (transaction_id, tag_id) VALUES (?, ?)');
for (let b = 0; b < rows; b += BATCH) {
  const batch = [];
  for (let i = b; i < Math.min(rows, b + BATCH); i++) {
    const walletId = wallets[i % wallets.length];
    const hash = `0x${i.toString(16).padStart(64, '0')}`;
    const amount = `${(i * 7919) % 100000}.${String((i * 104729) % 1000000).padStart(6, '0')}`.replace(/\.?0+$/, '') || '0';
    batch.push({
      id: transactionId(walletId, hash, '0'),
      workspace_id: ws,
      wallet_id: walletId,
      chain: 'ethereum',
      tx_hash: hash,
      transfer_key: '0',
      from_address: `0x${String(i % 997).padStart(40, 'a')}`,
      to_address: `0x${String((i % 20) + 1).padStart(40, '0')}`,
      token_symbol: ['ETH', 'USDC', 'DAI'][i % 3],
      token_address: null,
      token_decimals: 18,
      amount,
      amount_key: amountKey(amount),
      fiat_cents: (i * 31337) % 10_000_000,
      direction: i % 3 ? 'outflow' : 'inflow',
      type: 'transfer',
      ts: start + i * 60,
      notes: i % 10 === 0 ? `note ${i}, with "quotes"` : null,
    });
  }
  engine.write(() => {
    insertTransactions(engine.db, batch, start);
    for (const r of batch) if (r.ts % 7 === 0) tagStmt.run(r.id, tags[r.ts % 3]);
  });
}
engine.close();
