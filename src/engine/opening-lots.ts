/**
 * Opening lots (docs/lots.md "Opening lots"): lots carried in from records kept elsewhere, read
 * from a CSV (or JSON lines), each checked line by line and all written in one transaction with
 * one `lots.imported` event carrying the source; listed; one import's removed.
 */
import { createHash } from 'node:crypto';
import type { Engine } from './engine.js';
import { TxaError } from '../core/errors.js';
import { nowIso } from '../core/clock.js';
import { parseDay } from '../core/dates.js';
import { newId } from '../core/ids.js';
import { CHAIN_INFO } from '../core/chains.js';
import type { Chain, Token } from '../core/types.js';
import { normalizeDecimal, scaleOf } from '../core/money.js';
import { validateBody } from '../core/validate.js';
import {
  OPENING_REQUIRED,
  openingsCreateSchema,
  type OpeningImport,
  type OpeningLine,
  type OpeningLot,
  type OpeningsRemoved,
  type OpeningSource,
} from '../core/opening-lots.js';
import { getWallet, walletLabels, walletsLabelled, type WalletRow } from '../store/ledger.js';
import {
  deleteOpeningImport,
  firstRowDays,
  insertOpeningLots,
  knownIdentities,
  listOpeningLots,
  openingLotsOfImport,
  walletTokens,
  type OpeningLotRow,
} from '../store/opening-lots.js';
import { Columns, readCsv } from '../importers/csv.js';
import { assertOpen } from './periods.js';
import { money, positive } from './lot-writes.js';

/** An opening file is a list of positions; more than this is no such file. */
const MAX_LINES = 100_000;

/** The request's lines: the CSV read (header line 1), or the JSON lines numbered from 2 unless they say. */
function linesOf(input: { csv?: string | undefined; lines?: OpeningLine[] | undefined }): OpeningLine[] {
  if (input.lines) return input.lines.map((l, i) => ({ ...l, line: l.line ?? i + 2 }));
  let table: ReturnType<typeof readCsv>;
  try {
    table = readCsv(input.csv!);
  } catch (err) {
    throw new TxaError('INVALID_FIELD', (err as Error).message, { field: 'line 1' });
  }
  const cols = new Columns(table.header);
  const missing = OPENING_REQUIRED.filter((c) => cols.find(c) < 0);
  if (missing.length > 0) {
    throw new TxaError('INVALID_FIELD', `line 1: the header lacks ${missing.join(', ')}; the columns are wallet,asset,quantity,date_acquired,cost_basis,note`, {
      field: 'line 1',
    });
  }
  const note = cols.find('note');
  const at = cols.pick(OPENING_REQUIRED);
  return table.rows.map(({ line, cells }) => {
    const cell = (i: number) => (cells[i] ?? '').trim();
    return {
      wallet: cell(at.wallet),
      asset: cell(at.asset),
      quantity: cell(at.quantity),
      date_acquired: cell(at.date_acquired),
      cost_basis: cell(at.cost_basis),
      note: note < 0 ? '' : cell(note),
      line,
    };
  });
}

/** What a checked line becomes. */
interface Planned {
  line: number;
  wallet: WalletRow;
  token: Pick<Token, 'symbol' | 'address' | 'decimals'>;
  quantity: string;
  day: string;
  costCents: bigint;
  note: string;
  identity: string;
}

/** Money as a cost: a decimal ≥ 0 with at most 2 decimals, as exact cents. */
function costCents(text: string): bigint | null {
  const d = normalizeDecimal(text.replace(/^\$/, ''));
  if (d === null || d.startsWith('-') || scaleOf(d) > 2) return null;
  const [int, frac = ''] = d.split('.');
  return BigInt(int! + frac.padEnd(2, '0'));
}

/**
 * The line's wallet (an id, else a label that names one wallet) and token: the chain's native
 * coin by symbol, else a token of the wallet's rows by symbol or contract address.
 */
function resolver(engine: Engine, ws: string) {
  const wallets = new Map<string, WalletRow | string>();
  const wallet = (ref: string): WalletRow | string => {
    let w = wallets.get(ref);
    if (w === undefined) {
      const found = getWallet(engine.db, ws, ref) ?? walletsLabelled(engine.db, ws, ref, null);
      w = Array.isArray(found)
        ? found.length === 1
          ? found[0]!
          : found.length === 0
            ? `no wallet '${ref}' (an id or label) in this workspace`
            : `${found.length} wallets are labelled '${ref}'; give the wallet's id`
        : found;
      wallets.set(ref, w);
    }
    return w;
  };
  const token = (w: WalletRow, asset: string): Planned['token'] | string => {
    const native = CHAIN_INFO[w.chain as Chain]?.native;
    if (native && native.symbol.toLowerCase() === asset.toLowerCase()) return { symbol: native.symbol, address: null, decimals: native.decimals };
    const seen = walletTokens(engine.db, ws, w.id, asset);
    if (seen.length === 1) return seen[0]!;
    if (seen.length > 1) return `${seen.length} tokens of wallet ${w.label} are called ${asset}; give the contract address`;
    return `wallet ${w.label} (${w.chain}) has no asset ${asset}: give its native coin or a token of its rows (symbol or contract address)`;
  };
  return { wallet, token };
}

/** Checks every line; the first fault is the error (nothing is written). */
function plan(engine: Engine, ws: string, lines: OpeningLine[], allowLate: boolean): Planned[] {
  const { wallet, token } = resolver(engine, ws);
  const counts = new Map<string, number>();
  const planned: Planned[] = [];
  for (const l of lines) {
    const field = `line ${l.line}`;
    const bad = (column: string, why: string) => new TxaError('INVALID_FIELD', `${field}: ${column} ${why}`, { field, extra: { line: l.line, column } });
    for (const c of OPENING_REQUIRED) if (String(l[c]).trim() === '') throw bad(c, 'is empty');
    const w = wallet(l.wallet.trim());
    if (typeof w === 'string') throw bad('wallet', `names ${w}`);
    const t = token(w, l.asset.trim());
    if (typeof t === 'string') throw bad('asset', `'${l.asset}': ${t}`);
    const quantity = /^\d*\.?\d+$|^\d+\.$/.test(l.quantity.trim()) ? positive(l.quantity.trim()) : null;
    if (quantity === null) throw bad('quantity', `must be a positive exact decimal, got '${l.quantity}'`);
    if (scaleOf(quantity) > t.decimals) throw bad('quantity', `${quantity} has more decimals than ${t.symbol}'s ${t.decimals}`);
    const day = l.date_acquired.trim();
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || parseDay(day) === null) throw bad('date_acquired', `must be a day YYYY-MM-DD, got '${l.date_acquired}'`);
    const cost = costCents(l.cost_basis.trim());
    if (cost === null) throw bad('cost_basis', `must be money (a decimal ≥ 0 with at most 2 decimals), got '${l.cost_basis}'`);
    const note = (l.note ?? '').trim();
    const key = [w.id, t.address ?? t.symbol, day, quantity, cost, note].join('\u0000');
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    const identity = createHash('sha256').update(`${key}\u0000${n}`).digest('hex');
    planned.push({ line: l.line!, wallet: w, token: t, quantity, day, costCents: cost, note, identity });
  }
  const first = firstRowDays(engine.db, ws, [...new Set(planned.map((p) => p.wallet.id))]);
  for (const p of planned) {
    const from = first.get(p.wallet.id);
    if (!allowLate && from !== undefined && p.day > from) {
      throw new TxaError(
        'INVALID_FIELD',
        `line ${p.line}: date_acquired ${p.day} is after wallet ${p.wallet.label}'s first row (${from}); an opening lot comes before the wallet's own history (--allow-late to import it anyway)`,
        { field: `line ${p.line}`, extra: { line: p.line, column: 'date_acquired' } },
      );
    }
    assertOpen(engine, ws, { dates: [p.day], field: `line ${p.line}` });
  }
  return planned;
}

function lotOf(r: OpeningLotRow, labels: Map<string, string>): OpeningLot {
  return {
    id: r.id,
    wallet_id: r.wallet_id,
    wallet_label: labels.get(r.wallet_id) ?? r.wallet_id,
    asset: r.token_symbol,
    quantity: r.quantity,
    date_acquired: r.acquired_on,
    cost_basis: money(r.cost_cents)!,
    note: r.note,
    import_id: r.import_id,
    line: r.line,
    source: { format: 'opening-lots', file_name: r.file_name, sha256: r.sha256 },
    created_at: r.created_at,
    created_by: r.actor,
  };
}

/**
 * `POST /lots/openings` `{csv | lines, file_name?, allow_late?, dry_run?}`: adds the lots of
 * every line not already held (identity: wallet, asset, day, quantity, cost, note and the
 * how-manieth such line of the file), in one transaction, with one `lots.imported` event.
 */
export function importOpeningLots(engine: Engine, ws: string, body: unknown): OpeningImport {
  engine.workspace(ws);
  const input = validateBody(openingsCreateSchema, body);
  const lines = linesOf(input);
  if (lines.length === 0) throw new TxaError('INVALID_FIELD', 'the file has no lines after its header', { field: 'line 2' });
  if (lines.length > MAX_LINES) throw new TxaError('INVALID_FIELD', `more than ${MAX_LINES} lines`, { field: `line ${MAX_LINES + 2}` });
  const bytes = input.csv ?? JSON.stringify(lines);
  const source: OpeningSource = { format: 'opening-lots', file_name: input.file_name ?? null, sha256: createHash('sha256').update(bytes).digest('hex') };
  const importId = newId('opn');
  return engine.write(() => {
    const planned = plan(engine, ws, lines, input.allow_late === true);
    const known = knownIdentities(
      engine.db,
      ws,
      planned.map((p) => p.identity),
    );
    const createdAt = nowIso();
    const rows: OpeningLotRow[] = [];
    const skipped: OpeningImport['skipped'] = [];
    const held = new Map(listOpeningLots(engine.db, ws).map((r) => [r.identity, r.id]));
    for (const p of planned) {
      if (known.has(p.identity)) {
        skipped.push({ line: p.line, lot: held.get(p.identity)! });
        continue;
      }
      rows.push({
        id: newId('lot'),
        workspace_id: ws,
        wallet_id: p.wallet.id,
        import_id: importId,
        line: p.line,
        token_symbol: p.token.symbol,
        token_address: p.token.address,
        token_decimals: p.token.decimals,
        quantity: p.quantity,
        acquired_on: p.day,
        cost_cents: p.costCents,
        note: p.note,
        identity: p.identity,
        file_name: source.file_name,
        sha256: source.sha256,
        created_at: createdAt,
        actor: engine.actor,
      });
    }
    const dryRun = input.dry_run === true;
    if (!dryRun && rows.length > 0) {
      insertOpeningLots(engine.db, rows);
      engine.change(ws, 'lots.imported', importId, { import_id: importId, source, lots: rows.map((r) => r.id), skipped: skipped.length });
    }
    const labels = walletLabels(engine.db, ws);
    return { import_id: importId, source, dry_run: dryRun, added: rows.map((r) => lotOf(r, labels)), skipped };
  });
}

/** `GET /lots/openings`: every opening lot, by day. */
export function listOpenings(engine: Engine, ws: string): OpeningLot[] {
  engine.workspace(ws);
  const labels = walletLabels(engine.db, ws);
  return listOpeningLots(engine.db, ws).map((r) => lotOf(r, labels));
}

/** `DELETE /lots/openings/:import_id`: removes one import's lots (refused while one is dated in a closed period). */
export function removeOpenings(engine: Engine, ws: string, importId: string): OpeningsRemoved {
  engine.workspace(ws);
  return engine.write(() => {
    const lots = openingLotsOfImport(engine.db, ws, importId);
    if (lots.length === 0) throw new TxaError('NOT_FOUND', `no opening lots of import ${importId}`, { field: 'import_id' });
    assertOpen(engine, ws, { dates: lots.map((l) => l.acquired_on), field: 'import_id' });
    const removed = deleteOpeningImport(engine.db, ws, importId);
    engine.change(ws, 'lots.openings_removed', importId, { import_id: importId, lots: lots.map((l) => l.id) });
    return { import_id: importId, removed };
  });
}
