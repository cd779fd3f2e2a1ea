/** Hand-written ledgers for the accounting rules: rows in the API's Transaction shape (and as the ledger reads them), lines in a readable form. */
import type { Chain, TagRef, Token, Transaction, TxType } from '../../src/core/types.js';
import { AssetTable } from '../../src/accounting/assets.js';
import { TaxLedger, type LedgerRow, type TaxLine, type TaxOptions } from '../../src/accounting/tax-ledger.js';
import { ledgerRowOf } from '../helpers/ledger-row.js';
import type { BasisScope, CostBasis } from '../../src/core/export-values.js';
import { quantityText } from '../../src/accounting/quantity.js';
import { centsToString } from '../../src/core/money.js';
import type { JurisdictionCode } from '../../src/core/jurisdictions.js';
import { jurisdictionOf } from '../../src/accounting/jurisdictions/index.js';
import type { ReportInput, ReportLine } from '../../src/accounting/jurisdictions/types.js';

export const ETH: Token = { symbol: 'ETH', address: null, decimals: 18 };
export const USDC: Token = { symbol: 'USDC', address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', decimals: 6 };
export const USDC_ARB: Token = { symbol: 'USDC', address: '0xaf88d065e77c8cc2239327c5edb3a432268e5831', decimals: 6 };
/** BSC's Binance-Peg USDC: 18 decimals, a bridged copy, not in the table. */
export const USDC_BSC: Token = { symbol: 'USDC', address: '0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d', decimals: 18 };
/** A token of whole units keeps hand arithmetic short. */
export const X: Token = { symbol: 'X', address: '0x00000000000000000000000000000000000000aa', decimals: 0 };

export const SALARY: TagRef = { id: 'tag_salary', name: 'Salary', color: '#2e7d32' };
export const STAKING: TagRef = { id: 'tag_staking', name: 'Staking', color: '#2e7d32' };
export const OFFICE: TagRef = { id: 'tag_office', name: 'Office', color: '#c62828' };
const TYPES: Record<string, 'income' | 'expense'> = { tag_salary: 'income', tag_staking: 'income', tag_office: 'expense' };

let n = 0;

export interface RowInput {
  at: string;
  amount: string;
  value: number | null;
  wallet?: string;
  chain?: Chain;
  token?: Token;
  type?: TxType;
  tags?: TagRef[];
  /** Own transfer id: both legs carry it. */
  transfer?: string;
  kind?: 'internal' | 'bridge';
  /** The transaction's hash (rows of one transaction share it: a fee and its swap); else one of its own. */
  hash?: string;
  block?: number;
  position?: number;
}

/** A Transaction that is also the ledger's row for it. */
export type Row = Transaction & LedgerRow;

const row =
  (direction: 'inflow' | 'outflow') =>
  (r: RowInput): Row => {
    const id = `tx_${++n}`;
    const tx: Transaction = {
      id,
      tx_hash: r.hash ?? `0x${n.toString(16).padStart(64, '0')}`,
      wallet_id: r.wallet ?? 'wal_a',
      wallet_label: (r.wallet ?? 'wal_a').replace('wal_', 'Wallet '),
      chain: r.chain ?? 'ethereum',
      from_address: '0x1',
      to_address: '0x2',
      token: r.token ?? ETH,
      amount: r.amount,
      fiat_value: r.value,
      direction,
      type: r.type ?? 'transfer',
      timestamp: r.at.length === 10 ? `${r.at}T12:00:00Z` : r.at,
      tags: r.tags ?? [],
      notes: null,
      attachments: [],
      explorer_url: '',
      fiat_value_source: r.value === null ? null : 'import',
      spam: false,
      transfer: r.transfer ? { id: r.transfer, counterpart_id: 'tx_other', kind: r.kind ?? 'internal', matched_by: 'user' } : null,
    };
    const { fiat_cents, income_tags } = ledgerRowOf(tx, (id) => TYPES[id] ?? null);
    return {
      ...tx,
      fiat_cents,
      income_tags,
      ...(r.block === undefined ? {} : { block: r.block }),
      ...(r.position === undefined ? {} : { block_position: r.position }),
    };
  };
export const buy = row('inflow');
export const sell = row('outflow');

export interface RunOptions {
  method?: CostBasis;
  /** `by-year`: no scope forced (pooled before 2025, per wallet from then); default `wallet`. */
  scope?: BasisScope | 'by-year';
  assets?: AssetTable;
  feeTreatment?: TaxOptions['feeTreatment'];
  walletOrder?: string[];
  picks?: TaxOptions['picks'];
  allocation?: TaxOptions['allocation'];
  /** Rows not reported (history before the period). */
  unreported?: Set<Row>;
}

export function ledger(opts: RunOptions = {}): TaxLedger {
  const scope = opts.scope ?? 'wallet';
  return new TaxLedger({
    method: opts.method ?? 'fifo',
    ...(scope === 'by-year' ? {} : { scope }),
    assets: opts.assets ?? new AssetTable(),
    ...(opts.feeTreatment ? { feeTreatment: opts.feeTreatment } : {}),
    walletOrder: opts.walletOrder ?? ['wal_a', 'wal_b', 'wal_c', 'wal_d'],
    ...(opts.picks ? { picks: opts.picks } : {}),
    ...(opts.allocation ? { allocation: opts.allocation } : {}),
  });
}

/**
 * The rows with each own-transfer leg knowing its other leg (as the engine reads them): legs
 * pair by transfer id; a leg alone keeps no counterpart (a one-leg transfer).
 */
export function linked<T extends LedgerRow>(rows: T[]): T[] {
  const legs = new Map<string, T[]>();
  for (const r of rows) if (r.transfer) legs.set(r.transfer.id, [...(legs.get(r.transfer.id) ?? []), r]);
  return rows.map((r) => {
    if (!r.transfer) return r;
    const other = legs.get(r.transfer.id)!.find((o) => o !== r);
    if (!other) return { ...r, transfer: { id: r.transfer.id, counterpart_id: null, counterpart: null } };
    const counterpart = {
      id: other.id,
      timestamp: other.timestamp,
      wallet_id: other.wallet_id,
      wallet_label: other.wallet_label,
      chain: other.chain,
      tx_hash: other.tx_hash,
      token: other.token,
      amount: other.amount,
      fiat_cents: other.fiat_cents,
    };
    return { ...r, transfer: { ...r.transfer, counterpart_id: other.id, counterpart } };
  });
}

/** Feeds the rows (linked) to `l` and ends it: every line. */
export function feed(l: TaxLedger, rows: Row[], unreported?: Set<Row>): TaxLine[] {
  const out = linked(rows).flatMap((tx, i) => l.add(tx, !unreported?.has(rows[i]!)));
  return [...out, ...l.end()];
}

export function run(rows: Row[], opts: RunOptions = {}): TaxLine[] {
  return feed(ledger(opts), rows, opts.unreported);
}

const money = (c: bigint | null) => (c === null ? '' : centsToString(c));

/** A disposal line as the tax CSV's main cells: sold, acquired, quantity, asset, proceeds, cost, gain, term, wallet. */
export function lines(rows: Row[], opts: RunOptions = {}): string[][] {
  return run(rows, opts).map((l) =>
    l.kind === 'income'
      ? ['income', l.tx.timestamp.slice(0, 10), quantityText(l.quantity), l.asset.symbol, money(l.valueCents), l.tags.join('; ')]
      : [
          l.tx.timestamp.slice(0, 10),
          l.acquired?.at.slice(0, 10) ?? '',
          quantityText(l.quantity),
          l.asset.symbol,
          money(l.proceedsCents),
          money(l.costCents),
          money(l.gainCents),
          l.term ?? '',
          l.tx.wallet_label,
        ],
  );
}

/** A jurisdiction's tax report over `rows` (those in `unreported` are history): its lines and totals by key. */
export function jurisdictionReport(code: JurisdictionCode, rows: Row[], opts: { unreported?: Set<Row>; input?: Partial<ReportInput> } = {}) {
  const r = jurisdictionOf(code).report!({ assets: new AssetTable(), method: 'fifo', ...opts.input });
  const out: ReportLine[] = [];
  for (const row of linked(rows)) out.push(...r.add(row, !opts.unreported?.has(rows.find((x) => x.id === row.id)!)));
  out.push(...r.end());
  return { lines: out, totals: Object.fromEntries(r.totals().map((t) => [t.key, t.value])) };
}
