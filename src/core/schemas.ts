/** zod schemas of request bodies: the one definition behind validation and the OpenAPI document. */
import { z } from 'zod';
import { TAG_TYPES } from './types.js';
import { TxaError } from './errors.js';
import { normalizeDecimal } from './money.js';

export const TAG_NAME_MAX = 50;
export const TAG_DESCRIPTION_MAX = 200;
export const NOTES_MAX = 10_000;

const tagName = z.string().trim().min(1, { message: 'must be 1 to 50 characters' }).max(TAG_NAME_MAX, { message: 'must be 1 to 50 characters' });
const tagType = z.enum(TAG_TYPES, { message: 'must be one of income, expense, neutral' });
const tagColor = z.string().regex(/^#[0-9A-Fa-f]{6}$/, { message: 'must be a hex colour in the form #RRGGBB' });
const tagDescription = z.string().max(TAG_DESCRIPTION_MAX, { message: 'must be at most 200 characters' }).nullable();

export const tagCreateSchema = z.object({
  workspace_id: z.string().optional(),
  name: tagName,
  type: tagType,
  color: tagColor.optional(),
  description: tagDescription.optional(),
});

export const tagUpdateSchema = z.object({
  name: tagName.optional(),
  type: tagType.optional(),
  color: tagColor.optional(),
  description: tagDescription.optional(),
});

/** Codes of tag fields whose failures have a code of their own (docs/reference/api.md "Error codes"). */
export const TAG_FIELD_CODES = { type: 'INVALID_TAG_TYPE', color: 'INVALID_COLOR_FORMAT' } as const;

const tagIds = z.array(z.string().min(1), { message: 'must be an array of tag ids' });

export const tagApplySchema = z.object({ tag_ids: tagIds.min(1, { message: 'must name at least one tag' }) });

/** A fiat value by hand: a number ≥ 0 with at most 2 decimals (its shortest decimal text), below FIAT_INPUT_MAX. */
export const FIAT_INPUT_MAX = 1e13;
const fiatValue = z
  .number({ message: 'must be a number' })
  .refine((n) => Number.isFinite(n) && n >= 0 && n < FIAT_INPUT_MAX && /^\d+(\.\d{1,2})?$/.test(String(n)), {
    message: 'must be a number of at least 0 with at most 2 decimals, below 10000000000000',
  });

/**
 * `--fiat-value TEXT` as the JSON number of the body, exactly: text that is no decimal number, or
 * that a number cannot carry exactly (more than 2 decimals or too many digits), is INVALID_FIELD
 * here; a negative number goes on for the body's own check.
 */
export function fiatValueOfText(text: string): number {
  const canonical = normalizeDecimal(text);
  if (canonical === null) throw new TxaError('INVALID_FIELD', `fiat_value must be a number, got '${text}'`, { field: 'fiat_value' });
  const n = Number(canonical);
  if (String(n) !== canonical || !fiatValue.safeParse(Math.abs(n)).success) {
    throw new TxaError('INVALID_FIELD', `fiat_value must be a number of at least 0 with at most 2 decimals, below 10000000000000, got '${text}'`, {
      field: 'fiat_value',
    });
  }
  return n;
}

export const txUpdateSchema = z.object({
  notes: z.string().max(NOTES_MAX, { message: 'must be at most 10000 characters' }).nullable().optional(),
  tag_ids: tagIds.optional(),
  fiat_value: fiatValue.nullable().optional(),
  spam: z.boolean().optional(),
});

export const transferCreateSchema = z.object({
  workspace_id: z.string().optional(),
  transaction_id: z.string().min(1, { message: 'must be a transaction id' }),
  counterpart_id: z.string().min(1, { message: 'must be a transaction id' }),
});

/**
 * `kind` `address` (the default: `address` and `chain` required) or `exchange` (`exchange` required,
 * no address or chain); the values are checked by the wallet code (INVALID_FIELD naming them).
 */
export const walletCreateSchema = z.object({
  workspace_id: z.string().optional(),
  kind: z.string().optional(),
  exchange: z.string().nullable().optional(),
  address: z.string().nullable().optional(),
  chain: z.string().nullable().optional(),
  /** A bitcoin wallet may be given by its account's extended public key instead of an address (engine/wallets.ts). */
  xpub: z.string().optional(),
  label: z.string().optional(),
});

export const walletUpdateSchema = z.object({ label: z.string() });

export type TagCreate = z.output<typeof tagCreateSchema>;
export type TagUpdate = z.output<typeof tagUpdateSchema>;
export type TxUpdate = z.output<typeof txUpdateSchema>;
