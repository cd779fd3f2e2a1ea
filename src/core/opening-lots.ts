/**
 * Opening lots in the API's terms (docs/lots.md "Opening lots"): lots carried in from records
 * kept elsewhere (a previous tool's closing positions), each an acquisition at its day and cost
 * with no chain row of its own. An opening lot's id starts `lot_`; a transaction's lot is named
 * by the transaction's id.
 */
import { z } from 'zod';

/** The CSV's columns, in the documented order (any order and case is read). */
export const OPENING_COLUMNS = ['wallet', 'asset', 'quantity', 'date_acquired', 'cost_basis', 'note'] as const;
/** The columns a file must have (`note` may be absent). */
export const OPENING_REQUIRED = ['wallet', 'asset', 'quantity', 'date_acquired', 'cost_basis'] as const;

export interface OpeningSource {
  format: 'opening-lots';
  file_name: string | null;
  /** SHA-256 of the file's bytes (of the JSON lines when none was sent). */
  sha256: string;
}

export interface OpeningLot {
  id: string;
  wallet_id: string;
  wallet_label: string;
  asset: string;
  /** Exact decimal. */
  quantity: string;
  /** `YYYY-MM-DD`. */
  date_acquired: string;
  /** In the workspace's currency, 2 decimals. */
  cost_basis: number;
  note: string;
  import_id: string;
  /** The line of its file (the header is line 1). */
  line: number;
  source: OpeningSource;
  created_at: string;
  created_by: string;
}

export interface OpeningImport {
  import_id: string;
  source: OpeningSource;
  /** true: checked, nothing written. */
  dry_run: boolean;
  /** The lots added (or that would be). */
  added: OpeningLot[];
  /** Lines whose lot is already held (an earlier import of the same lines): nothing added for them. */
  skipped: { line: number; lot: string }[];
}

export interface OpeningsRemoved {
  import_id: string;
  removed: number;
}

/** One line as JSON (`lines` of the request); `line` names it in errors (default its place + 1, after a header). */
export const openingLineSchema = z.object({
  wallet: z.string(),
  asset: z.string(),
  quantity: z.union([z.string(), z.number()]).transform(String),
  date_acquired: z.string(),
  cost_basis: z.union([z.string(), z.number()]).transform(String),
  note: z.string().optional(),
  line: z.number().int().positive().optional(),
});
export type OpeningLine = z.infer<typeof openingLineSchema>;

export const openingsCreateSchema = z
  .object({
    workspace_id: z.string().optional(),
    /** The CSV file's text. */
    csv: z.string().optional(),
    lines: z.array(openingLineSchema).optional(),
    file_name: z.string().nullable().optional(),
    allow_late: z.boolean().optional(),
    dry_run: z.boolean().optional(),
  })
  .refine((b) => (b.csv === undefined) !== (b.lines === undefined), { message: 'give exactly one of csv (the file text) or lines', path: ['csv'] });
