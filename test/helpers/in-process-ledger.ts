/**
 * A throw-away ledger with one workspace, for commands run in process (test/helpers/in-process.ts):
 * TXA_CONFIG_DIR points into it, so no test reads or writes the user's profile.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../src/engine/engine.js';
import { createWorkspace } from '../../src/engine/workspaces.js';

export interface TempLedger {
  dir: string;
  db: string;
  workspace: string;
}

/** `seed` writes what a test needs through the engine (files into `dir`), before the commands open the ledger. */
export function tempLedger(seed?: (engine: Engine, workspace: string, dir: string) => void): TempLedger {
  const dir = mkdtempSync(join(tmpdir(), 'txa-in-process-'));
  const db = join(dir, 'ledger.db');
  process.env.TXA_CONFIG_DIR = join(dir, 'config');
  const engine = Engine.open(db);
  try {
    const workspace = createWorkspace(engine, { name: 'In process' }).id;
    seed?.(engine, workspace, dir);
    return { dir, db, workspace };
  } finally {
    engine.close();
  }
}
