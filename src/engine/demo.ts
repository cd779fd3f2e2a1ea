/**
 * `txa demo`: loads the shipped fixture workspaces (fixtures/demo/*.json) into the local ledger.
 * Idempotent: workspaces, wallets and tags are created only when their id or name is missing,
 * and the rows go through the import pipeline, whose identities make a second run import nothing.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Engine } from './engine.js';
import { TxaError } from '../core/errors.js';
import type { Chain, TagType, Tier, Workspace } from '../core/types.js';
import { getWallet, getWorkspace, tagIdByNameKey, tagNameKey } from '../store/ledger.js';
import { jsonImporter } from '../importers/txa-json.js';
import { createWorkspace } from './workspaces.js';
import { insertNewWallet } from './wallets.js';
import { createTag } from './tags.js';
import { importRecords } from './imports.js';
import { confirmCandidates } from './transfers.js';

/** The fixture files, main workspace first (src/fixtures writes them). */
export const DEMO_FILES = ['acme.json', 'personal.json'] as const;
export const DEMO_DIR = fileURLToPath(new URL('../../fixtures/demo/', import.meta.url));

/** What a fixture file declares besides its transactions. */
export interface DatasetHeader {
  workspace: { id: string; name: string; tier: Tier; base_currency: string };
  wallets: { id: string; label: string; chain: Chain; address: string }[];
  tags: { name: string; type: TagType; color: string; description: string }[];
}

export interface LoadedWorkspace {
  workspace: Workspace;
  created: boolean;
  imported: number;
  duplicates: number;
}

/** Creates whatever of the dataset's workspace, wallets and tags is missing. */
export function ensureDataset(engine: Engine, header: DatasetHeader): { workspace: Workspace; created: boolean } {
  const { id, name, tier, base_currency } = header.workspace;
  const existing = getWorkspace(engine.db, id);
  const workspace = existing ?? createWorkspace(engine, { id, name, tier, currency: base_currency });
  engine.write(() => {
    for (const w of header.wallets) if (!getWallet(engine.db, id, w.id)) insertNewWallet(engine, id, w);
  });
  for (const t of header.tags) {
    if (!tagIdByNameKey(engine.db, id, tagNameKey(t.name))) createTag(engine, id, { name: t.name, type: t.type, color: t.color, description: t.description });
  }
  return { workspace, created: !existing };
}

/** Loads one fixture file: its header, then its transactions through the JSON importer and importRecords. */
export function loadFixtureFile(engine: Engine, path: string): LoadedWorkspace {
  const text = readFileSync(path, 'utf8');
  const { workspace, created } = ensureDataset(engine, JSON.parse(text) as DatasetHeader);
  const parsed = jsonImporter.parse(text, { fileName: path });
  if (parsed.errors.length > 0) {
    const first = parsed.errors[0]!;
    throw new TxaError('IMPORT_FAILED', `${path} has ${parsed.errors.length} bad rows; first at line ${first.line}: ${first.field} ${first.reason}`, {
      field: 'file',
    });
  }
  const source = { file_name: basename(path), sha256: createHash('sha256').update(text).digest('hex') };
  const summary = importRecords(engine, workspace.id, parsed.records, { format: parsed.format, source });
  // The demo's rule: its wallets bridge only to each other, so every proposed bridge is an own transfer.
  confirmCandidates(engine, workspace.id, 'rule');
  return { workspace, created, imported: summary.imported, duplicates: summary.duplicates };
}

/** Loads every demo workspace; the first entry is the main one. */
export function loadDemo(engine: Engine, dir = DEMO_DIR): LoadedWorkspace[] {
  return DEMO_FILES.map((file) => loadFixtureFile(engine, join(dir, file)));
}
