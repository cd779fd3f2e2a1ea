// `txa tokens spam` on a token with many rows (src/engine/spam-tokens.ts markTokens): a ledger of
// N rows (half of them one token's, half ETH), imported through the pipeline untimed, then the
// token marked spam and back; prints wall and CPU milliseconds of each verdict and per row.
// DIST=other/dist compares another build in the same run.
//   node bench/tokens-spam.mjs [--rows N]   (default 20000)
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const dist = resolve(process.env.DIST ?? new URL('../dist', import.meta.url).pathname);
const { Engine } = await import(`${dist}/engine/engine.js`);
const { createWorkspace } = await import(`${dist}/engine/workspaces.js`);
const { addWallet } = await import(`${dist}/engine/wallets.js`);
const { importRecords } = await import(`${dist}/engine/imports.js`);
const { markTokens } = await import(`${dist}/engine/spam-tokens.js`);

const { values } = parseArgs({ options: { rows: { type: 'string' } } });
const rows = Number(values.rows ?? 20_000);
const TOKEN = { symbol: 'PEPE', address: `0x${'7'.repeat(40)}`, decimals: 18 };
const ETH = { symbol: 'ETH', address: null, decimals: 18 };
const dir = mkdtempSync(join(tmpdir(), 'txa-tokens-spam-'));
try {
  const engine = Engine.open(join(dir, 'ledger.db'));
  const ws = createWorkspace(engine, { name: 'Bench', tier: 'enterprise' }).id;
  const wallet = addWallet(engine, ws, { address: `0x${'a1'.repeat(20)}`, chain: 'ethereum' }).id;
  const records = Array.from({ length: rows }, (_, i) => ({
    line: i + 1,
    tx_hash: `0x${i.toString(16).padStart(64, '0')}`,
    from_address: `0x${'b2'.repeat(20)}`,
    to_address: `0x${'a1'.repeat(20)}`,
    token: i % 2 ? TOKEN : ETH,
    amount: `${(i % 997) + 1}.5`,
    fiat_value: `${i % 500}.25`,
    direction: 'inflow',
    type: 'transfer',
    timestamp: 1_700_000_000 + i * 600,
    notes: null,
  }));
  importRecords(engine, ws, records, { walletId: wallet, format: 'json' });
  const timed = (spam) => {
    const t = performance.now();
    const cpu = process.cpuUsage();
    const [mark] = markTokens(engine, ws, [{ chain: 'ethereum', address: TOKEN.address }], spam);
    const { user, system } = process.cpuUsage(cpu);
    const ms = performance.now() - t;
    return { changed: mark.changed, wall_ms: Math.round(ms), cpu_ms: Math.round((user + system) / 1000), ms_per_row: +(ms / mark.changed).toFixed(3) };
  };
  console.log(JSON.stringify({ rows, spam: timed(true), unspam: timed(false), load: loadavg()[0] }));
  engine.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
