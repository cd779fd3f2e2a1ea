// Spam detection per token-transfer row (src/accounting/spam.ts), as sync and the explorer CSV
// import call it: the same token over and over (the usual case: the verdict is cached by
// contract), and a new token on every row (each one judged: bait, lookalike, confusables).
//   node bench/spam.mjs [--rows N]   (default 100000); prints medians of 5 runs in ns per row
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { transferSpamReason } from '../dist/accounting/spam.js';

const { values } = parseArgs({ options: { rows: { type: 'string' } } });
const N = Number(values.rows ?? 100_000);
const usdc = { chain: 'ethereum', address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', symbol: 'USDC', name: 'USD Coin' };
const distinct = Array.from({ length: N }, (_, i) => ({
  chain: 'ethereum',
  address: `0x${i.toString(16).padStart(40, '0')}`,
  symbol: `TK${i}`,
  name: `Token ${i}`,
}));
const nsPerRow = (f) => {
  const t = process.hrtime.bigint();
  f();
  return Number(process.hrtime.bigint() - t) / N;
};
const runs = [];
for (let r = 0; r < 5; r++) {
  runs.push([
    nsPerRow(() => {
      for (let i = 0; i < N; i++) transferSpamReason(usdc, '12.5');
    }),
    nsPerRow(() => {
      for (const t of distinct) transferSpamReason(t, '1');
    }),
  ]);
}
const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  JSON.stringify({
    rows: N,
    same_token_ns: Math.round(median(runs.map((r) => r[0]))),
    new_token_ns: Math.round(median(runs.map((r) => r[1]))),
    load: loadavg()[0],
  }),
);
