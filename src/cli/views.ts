/** How resources look in human output: the rows and records the commands print. */
import { Styled, terminalSafe, type Output } from './output.js';
import type { Tag, Transaction, TransactionPage, Wallet, Workspace } from '../core/types.js';

export function printTags(out: Output, tags: Tag[]): void {
  out.table(
    [
      { header: 'ID' },
      { header: 'NAME', fit: 'end' },
      { header: 'TYPE' },
      { header: 'COLOR' },
      { header: 'USES', align: 'right' },
      { header: 'DESCRIPTION', fit: 'end', drop: 1 },
    ],
    tags.map((t) => [t.id, t.name, t.type, out.stdoutTty && out.color ? swatch(t.color) : t.color, t.usage_count, t.description]),
  );
}

/** A dot in the tag's colour before its code; a server's colour that is not `#RRGGBB` gets no dot. */
function swatch(hex: string): Styled {
  if (!/^#[0-9a-f]{6}$/i.test(hex)) return new Styled(terminalSafe(hex));
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return new Styled(`\u001b[38;2;${r};${g};${b}m●\u001b[0m ${hex}`);
}

export function printTag(out: Output, t: Tag): void {
  out.record([
    ['id', t.id],
    ['name', t.name],
    ['type', t.type],
    ['color', t.color],
    ['description', t.description],
    ['usage_count', t.usage_count],
    ['created_at', t.created_at],
  ]);
}

/** Signed by direction; a zero amount (approvals, contract calls) is `0`, which has no sign. Amounts are canonical, so zero is `0`. */
function amountText(t: Transaction): string {
  if (t.amount === '0') return '0';
  return `${t.direction === 'outflow' ? '-' : '+'}${t.amount}`;
}

export function printTransactions(out: Output, txs: Transaction[]): void {
  out.table(
    [
      { header: 'DATE', fit: 'date', yields: true },
      { header: 'ID' },
      // By what the list is for, reviewing and tagging rows: TAGS hide last, then WALLET; TYPE and CHAIN first.
      { header: 'WALLET', fit: 'end', drop: 3 },
      { header: 'CHAIN', fit: 'end', drop: 2 },
      { header: 'TYPE', fit: 'end', drop: 1 },
      { header: 'AMOUNT', align: 'right', fit: 'decimal', yields: true },
      { header: 'TOKEN' },
      { header: 'VALUE', align: 'right', fit: 'money' },
      { header: 'TAGS', fit: 'end', drop: 4 },
    ],
    txs.map((t) => [
      t.timestamp.replace('T', ' ').replace('Z', ''),
      t.id,
      t.wallet_label,
      // An exchange account's row has no chain (docs/storage.md "Exchange wallets").
      t.chain ?? 'exchange',
      t.type,
      amountText(t),
      t.token.symbol,
      out.money(t.fiat_value),
      t.tags.map((g) => g.name).join(', '),
    ]),
  );
}

/** The page line and totals; on a pipe they go to stderr so stdout stays rows only. The next page's flag, when there is one, goes to stderr. */
export function printPageFooter(out: Output, page: TransactionPage, all: boolean): void {
  const p = page.pagination;
  const s = page.summary;
  const count = `${p.total} ${p.total === 1 ? 'transaction' : 'transactions'}`;
  // An empty result has 0 pages (as in the JSON); a page line would claim one.
  const where = all || p.pages === 0 ? count : `page ${p.page} of ${p.pages} · ${count}`;
  const text = out.joinToWidth([where, `inflow ${out.money(s.total_inflow)}`, `outflow ${out.money(s.total_outflow)}`, `net ${out.money(s.net_flow)}`], ' · ');
  if (out.stdoutTty) out.line(text);
  else out.notice(text);
  if (!all) printNextPage(out, p);
}

/** The next page's flag on stderr, when there is a next page. */
export function printNextPage(out: Output, p: { page: number; pages: number }): void {
  if (p.page < p.pages) out.notice(`next page: --page ${p.page + 1}`);
}

export function printTransaction(out: Output, t: Transaction): void {
  out.record([
    ['id', t.id],
    ['timestamp', t.timestamp],
    ['wallet', `${t.wallet_label} (${t.wallet_id})`],
    ['chain', t.chain ?? 'none (an exchange account)'],
    ['type', t.type],
    ['direction', t.direction],
    ['amount', `${t.amount} ${t.token.symbol}`],
    [
      'token',
      t.token.address ? `${t.token.symbol} ${t.token.address} (${t.token.decimals} decimals)` : `${t.token.symbol} (native, ${t.token.decimals} decimals)`,
    ],
    ['value', out.money(t.fiat_value)],
    ['value source', t.fiat_value_source],
    [
      'transfer',
      t.transfer && `${t.transfer.kind} ${t.transfer.id} with ${t.transfer.counterpart_id ?? '(leg not in the ledger)'}, matched by ${t.transfer.matched_by}`,
    ],
    ['spam', t.spam ? 'yes' : null],
    ['from', t.from_address],
    ['to', t.to_address],
    ['tx_hash', t.tx_hash],
    ['explorer', t.explorer_url],
    ['tags', t.tags.map((g) => `${g.name} (${g.id})`).join(', ')],
    ['notes', t.notes],
    ['attachments', t.attachments.map((a) => `${a.file_name} (${a.file_size} B)`).join(', ')],
  ]);
}

export function printWallets(out: Output, wallets: Wallet[]): void {
  out.table(
    [
      { header: 'ID' },
      { header: 'LABEL', fit: 'end' },
      // CHAIN says what NATIVE is a balance of: it stays; a narrow terminal hides the address first (the id names the wallet).
      { header: 'CHAIN', fit: 'end' },
      { header: 'ADDRESS', fit: 'middle', drop: 3 },
      { header: 'NATIVE', align: 'right', fit: 'decimal' },
      { header: 'VALUE', align: 'right', fit: 'money' },
      { header: 'TXS', align: 'right', drop: 2 },
      { header: 'LAST SYNCED', fit: 'date', drop: 1 },
    ],
    // An exchange account shows its exchange where an address wallet shows its chain, and no address.
    wallets.map((w) => [
      w.id,
      w.label,
      w.chain ?? w.exchange,
      // An exchange account has no address: the column says which account it is.
      w.address ?? `${w.exchange} account`,
      w.balance.native,
      out.money(w.balance.fiat_value),
      w.transaction_count,
      w.last_synced,
    ]),
  );
}

export function printWorkspaces(out: Output, list: Workspace[]): void {
  out.table(
    [
      { header: 'ID' },
      { header: 'NAME', fit: 'end' },
      { header: 'TIER' },
      { header: 'CURRENCY' },
      // The jurisdiction (docs/accounting.md "Jurisdictions"), named for what it decides so the table fits 80 columns.
      { header: 'TAX RULES', drop: 3 },
      { header: 'RATE LIMIT', align: 'right', drop: 2 },
      { header: 'CREATED', fit: 'date', drop: 1 },
    ],
    list.map((w) => [w.id, w.name, w.tier, w.base_currency, w.jurisdiction, w.rate_limit, w.created_at]),
  );
}
