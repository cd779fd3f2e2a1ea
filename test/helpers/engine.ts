/** A fresh engine on a real SQLite file in a temp directory, with one workspace. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../src/engine/engine.js';
import { createWorkspace } from '../../src/engine/workspaces.js';

export function tempEngine(tier: 'free' | 'pro' | 'enterprise' = 'pro') {
  const dir = mkdtempSync(join(tmpdir(), 'txa-engine-'));
  const engine = Engine.open(join(dir, 'ledger.db'));
  const ws = createWorkspace(engine, { name: 'Test', tier });
  return { dir, engine, ws: ws.id };
}
