// Writes the `detailed` PDF report of N deterministic transactions (default 50,000) through the
// built writer and prints wall time, CPU time (less sensitive to a busy machine), peak RSS and size.
// Usage: npx tsc -p . && node bench/pdf-detailed.mjs [N] [report-type] [out.pdf]
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writePdf } from '../dist/exporters/pdf/index.js';

const N = Number(process.argv[2] ?? 50_000);
const reportType = process.argv[3] ?? 'detailed';
const out = process.argv[4] ?? join(tmpdir(), `txa-bench-${reportType}-${N}.pdf`);

// mulberry32: a small seeded PRNG, so every run (and every rows() pass) sees the same data.
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WALLETS = ['Treasury', 'Operations', 'Café Ledger €', 'Payroll', '日本 Wallet', 'Grants Ξ'];
const CHAINS = ['ethereum', 'polygon', 'arbitrum', 'bsc'];
const TOKENS = [
  { symbol: 'ETH', address: null, decimals: 18 },
  { symbol: 'USDC', address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', decimals: 6 },
  { symbol: 'DAI', address: '0x6b175474e89094c44da98b954eedeac495271d0f', decimals: 18 },
];
const TAGS = [
  { id: 'tag_1', name: 'Revenue', color: '#2e7d32' },
  { id: 'tag_2', name: 'Payroll', color: '#c62828' },
  { id: 'tag_3', name: 'Internal transfer', color: '#607d8b' },
];
const TYPES = ['transfer', 'swap', 'bridge', 'contract_call'];

function* transactions() {
  const r = rng(42);
  const hex = (n) => Array.from({ length: n }, () => Math.floor(r() * 16).toString(16)).join('');
  const start = Date.UTC(2024, 0, 1) / 1000;
  for (let i = 0; i < N; i++) {
    const token = TOKENS[Math.floor(r() * TOKENS.length)];
    const chain = CHAINS[Math.floor(r() * CHAINS.length)];
    const whole = Math.floor(r() * 100_000);
    const frac = String(Math.floor(r() * 1_000_000)).padStart(6, '0');
    const cents = Math.floor(r() * 10_000_000);
    const hash = `0x${hex(64)}`;
    yield {
      id: `tx_${i}`,
      tx_hash: hash,
      wallet_id: 'w',
      wallet_label: WALLETS[i % WALLETS.length],
      chain,
      from_address: `0x${hex(40)}`,
      to_address: `0x${hex(40)}`,
      token,
      amount: `${whole}.${frac}`,
      fiat_value: cents / 100,
      direction: r() < 0.5 ? 'inflow' : 'outflow',
      type: TYPES[i % TYPES.length],
      timestamp: new Date((start + Math.floor((i * 365 * 86400) / N)) * 1000).toISOString(),
      tags: i % 3 === 0 ? [] : [TAGS[i % TAGS.length]],
      notes: null,
      attachments: [],
      explorer_url: `https://etherscan.io/tx/${hash}`,
    };
  }
}

const job = {
  exportId: 'exp_bench',
  workspace: { id: 'ws', name: 'Bench Workspace', tier: 'enterprise', base_currency: 'USD', rate_limit: null, created_at: '2024-01-01T00:00:00Z' },
  createdAt: '2025-01-02T03:04:05Z',
  format: 'pdf',
  reportType,
  filters: {},
  options: { currency: 'USD', date_format: 'YYYY-MM-DD', include_summary: true, include_logo: true, cost_basis: 'fifo' },
  columns: [],
  period: { start: '2024-01-01', end: '2024-12-31' },
  transactionCount: N,
  summary: { total_inflow: 0, total_outflow: 0, net_flow: 0, transaction_count: N },
  rows: transactions,
  histories: () => new Map(),
  attachmentPath: (id) => id,
  onProgress: () => {},
};

const t0 = performance.now();
const cpu0 = process.cpuUsage();
const { bytes } = await writePdf(job, out);
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const rssMb = process.resourceUsage().maxRSS / 1024;
console.log(
  JSON.stringify({
    report: reportType,
    rows: N,
    seconds: Number(seconds.toFixed(2)),
    cpu_seconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(2)),
    peak_rss_mb: Math.round(rssMb),
    bytes,
    file: out,
    size_on_disk: statSync(out).size,
  }),
);
