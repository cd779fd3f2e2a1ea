/** A broker's 1099-DA lines per wallet (migration 26, docs/import.md "1099-DA"), kept apart from transactions. */
import type { BrokerLine } from '../core/broker-lines.js';
import type { Db } from './db.js';
import { prepareCached } from './statements.js';

export type NewBrokerLine = Omit<BrokerLine, 'wallet_id' | 'wallet_label'>;

/** Replaces the wallet's lines of the years `lines` hold with them. Call inside a write transaction. */
export function replaceBrokerLines(
  db: Db,
  workspaceId: string,
  walletId: string,
  lines: NewBrokerLine[],
  fileName: string,
  importedAt: string,
): { replaced: number } {
  const years = [...new Set(lines.map((l) => Number(l.date_sold.slice(0, 4))))];
  const del = prepareCached(db, 'DELETE FROM broker_lines WHERE wallet_id = ? AND year = ?');
  let replaced = 0;
  for (const y of years) replaced += del.run(walletId, y).changes;
  const ins = prepareCached(
    db,
    `INSERT INTO broker_lines (workspace_id, wallet_id, year, line, date_sold, date_acquired, asset, units, proceeds_cents, cost_basis_cents, basis_reported, file_name, imported_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const l of lines) {
    ins.run(
      workspaceId,
      walletId,
      Number(l.date_sold.slice(0, 4)),
      l.line,
      l.date_sold,
      l.date_acquired,
      l.asset,
      l.units,
      l.proceeds_cents,
      l.cost_basis_cents,
      l.basis_reported ? 1 : 0,
      fileName,
      importedAt,
    );
  }
  return { replaced };
}

interface Stored {
  wallet_id: string;
  wallet_label: string;
  line: number;
  date_sold: string;
  date_acquired: string | null;
  asset: string;
  units: string;
  proceeds_cents: bigint;
  cost_basis_cents: bigint | null;
  basis_reported: bigint;
}

/** The workspace's broker lines, by day sold, wallet and line. */
export function listBrokerLines(db: Db, workspaceId: string): BrokerLine[] {
  const rows = prepareCached(
    db,
    `SELECT b.wallet_id, w.label AS wallet_label, b.line, b.date_sold, b.date_acquired, b.asset, b.units, b.proceeds_cents, b.cost_basis_cents, b.basis_reported
     FROM broker_lines b JOIN wallets w ON w.id = b.wallet_id WHERE b.workspace_id = ? ORDER BY b.date_sold, b.wallet_id, b.year, b.line`,
  )
    .safeIntegers(true)
    .all(workspaceId) as Stored[];
  return rows.map((r) => ({ ...r, line: Number(r.line), basis_reported: r.basis_reported === 1n }));
}
