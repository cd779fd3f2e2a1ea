// Parallel first use of a new ledger: N processes open the same new file and each creates a
// workspace; R rounds. Prints the failures and checks every round's ledger has N workspaces.
// Usage: npm run build && node bench/ledger-create-stress.mjs [N=8] [R=200]
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { Engine } = await import('../dist/engine/engine.js');
const { createWorkspace, allWorkspaces } = await import('../dist/engine/workspaces.js');

if (process.env.TXA_STRESS_LEDGER) {
  try {
    const engine = Engine.open(process.env.TXA_STRESS_LEDGER);
    createWorkspace(engine, { name: 'w' });
    engine.close();
  } catch (err) {
    console.error(`${err.code ?? 'ERROR'}: ${err.message}`);
    process.exit(1);
  }
  process.exit(0);
}

const [n = 8, rounds = 200] = process.argv.slice(2).map(Number);
let failures = 0;
let incomplete = 0;
for (let r = 0; r < rounds; r++) {
  const dir = mkdtempSync(join(tmpdir(), 'txa-stress-'));
  const path = join(dir, 'new.db');
  const exits = await Promise.all(
    Array.from(
      { length: n },
      () => new Promise((done) => fork(import.meta.filename, [], { env: { ...process.env, TXA_STRESS_LEDGER: path } }).on('exit', done)),
    ),
  );
  failures += exits.filter((code) => code !== 0).length;
  const engine = Engine.open(path);
  if (allWorkspaces(engine).length !== exits.filter((code) => code === 0).length) incomplete++;
  engine.close();
  rmSync(dir, { recursive: true });
}
console.log(`${rounds} rounds × ${n} processes: ${failures} failed, ${incomplete} ledgers missing a workspace`);
