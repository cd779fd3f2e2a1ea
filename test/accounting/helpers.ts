/** Hand-written ledgers for the accounting rules: rows in the API's Transaction shape (and as the ledger reads them), lines in a readable form. */
import type { Chain, TagRef, Token, Transaction, TxType } from '../../src/core/types.js';
import { AssetTable } from '../../src/accounting/assets.js';
import { TaxLedger, type LedgerRow, type TaxLine } from '../../src/accounting/tax-ledger.js';
import { ledgerRowOf } from '../helpers/ledger-row.js';
import type { BasisScope, CostBasis } from '../../src/core/export-values.js';
import { quantityText } from '../../src/accounting/quantity.js';
import { centsToString } from '../../src/core/money.js';

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
}

/** A Transaction that is also the ledger's row for it. */
export type Row = Transaction & LedgerRow;

const row =
  (direction: 'inflow' | 'outflow') =>
  (r: RowInput): Row => {
    const id = `tx_${++n}`;
    const tx: Transaction = {
      id,
      tx_hash: `0x${n.toString(16).padStart(64, '0')}`,
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
    return { ...tx, fiat_cents, income_tags };
  };
export const buy = row('inflow');
export const sell = row('outflow');

export interface RunOptions {
  method?: CostBasis;
  scope?: BasisScope;
  assets?: AssetTable;
  /** Rows not reported (history before the period). */
  unreported?: Set<Row>;
}

export function ledger(opts: RunOptions = {}): TaxLedger {
  return new TaxLedger({
    method: opts.method ?? 'fifo',
    scope: opts.scope ?? 'wallet',
    assets: opts.assets ?? new AssetTable(),
  });
}

export function run(rows: Row[], opts: RunOptions = {}): TaxLine[] {
  const l = ledger(opts);
  return rows.flatMap((tx) => l.add(tx, !opts.unreported?.has(tx)));
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
