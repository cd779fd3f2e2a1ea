/**
 * The local engine's shared context: the ledger database, its event log, the file store beside
 * it, and who is acting. The per-resource modules (tags, transactions, wallets, …) take it.
 */
import { mkdirSync } from 'node:fs';
import { dirname, basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tmpdir } from 'node:os';
import type { Db } from '../store/db.js';
import { openDb, writeTx } from '../store/db.js';
import { EventLog, keysFirst, type BulkEvents } from '../store/events.js';
import { getWorkspace } from '../store/ledger.js';
import { refreshStaleGuard } from '../store/periods.js';
import { TxaError } from '../core/errors.js';
import type { Workspace } from '../core/types.js';

export interface EngineOptions {
  /** Identifier recorded as `created_by` (the CLI user, or the member id of the API key that acts). */
  actor?: string;
  /**
   * Base URL of a `txa serve` on this ledger, for the download links the engine signs: serve's
   * own (or its --public-url), or the profile's `public_url` for the CLI. Without one, links are
   * file:// URLs of the stored files (docs/exports.md, "Links and expiry").
   */
  publicBaseUrl?: string;
}

export class Engine {
  readonly events: EventLog;
  /** Folder beside the ledger holding attachments and export files. */
  readonly filesDir: string;
  actor: string;
  publicBaseUrl: string | undefined;

  constructor(
    readonly db: Db,
    readonly ledgerPath: string,
    opts: EngineOptions = {},
  ) {
    this.events = new EventLog(db);
    this.actor = opts.actor ?? 'cli';
    this.publicBaseUrl = opts.publicBaseUrl?.replace(/\/+$/, '');
    this.filesDir =
      ledgerPath === ':memory:' ? join(tmpdir(), `txa-files-${process.pid}`) : join(dirname(resolve(ledgerPath)), `${basename(ledgerPath)}.files`);
  }

  static open(path: string, opts: EngineOptions = {}): Engine {
    const db = openDb(path);
    refreshStaleGuard(db);
    return new Engine(db, path, opts);
  }

  /** This engine acting as another identity (the member id of an API key): the same database and state. */
  as(actor: string): Engine {
    return Object.create(this, { actor: { value: actor } }) as Engine;
  }

  /** A sub-folder of the file store, created on first use. */
  dir(name: string): string {
    const d = join(this.filesDir, name);
    mkdirSync(d, { recursive: true });
    return d;
  }

  /** URL of a stored attachment (stored under its id): a file:// URL locally; `txa serve` sets its route. */
  attachmentUrl: (attachmentId: string) => string = (id) => pathToFileURL(join(this.filesDir, 'attachments', id)).href;

  /** Appends a change event carrying who made the change (docs/transfers.md "The audit trail": the acting key's member id, or `cli`). */
  change(workspaceId: string, type: string, subjectId: string, body: Record<string, unknown>): void {
    this.events.append(workspaceId, type, subjectId, { actor: this.actor, ...body });
  }

  /** `change` for many events of one type (an import's, a price fill's), written many to a statement: `end()` before the transaction ends. */
  changes(workspaceId: string, type: string): BulkEvents {
    const events = this.events.bulk(workspaceId, type);
    // The body's JSON with `actor` first, as JSON.stringify({ actor, ...body }) writes it.
    const actor = `{"actor":${JSON.stringify(this.actor)}`;
    return {
      add: (subjectId, body) => events.add(subjectId, { actor: this.actor, ...body }),
      addJson: (subjectId, json) => events.addJson(subjectId, keysFirst(actor, json)),
      end: events.end,
    };
  }

  write<T>(fn: () => T): T {
    return writeTx(this.db, fn);
  }

  workspace(id: string): Workspace {
    const ws = getWorkspace(this.db, id);
    if (!ws) throw new TxaError('WORKSPACE_NOT_FOUND', `workspace ${id} not found`, { hint: 'List workspaces with: txa workspace list' });
    return ws;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
