/** A broker's Form 1099-DA (or 1099-B) line as txa keeps it (docs/import.md "1099-DA"): the store reads and writes it, the accounting matches disposals to it. */
export interface BrokerLine {
  /** Its line number in the file it came from (the header is line 1). */
  line: number;
  wallet_id: string;
  wallet_label: string;
  /** YYYY-MM-DD. */
  date_sold: string;
  date_acquired: string | null;
  /** Upper-case symbol, e.g. ETH. */
  asset: string;
  /** Canonical decimal text. */
  units: string;
  proceeds_cents: bigint;
  cost_basis_cents: bigint | null;
  basis_reported: boolean;
}
