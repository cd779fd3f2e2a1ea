/** Checks shared by the importers of this tool's own formats (JSON, NDJSON, CSV export). */
import { tagCreateSchema } from '../core/schemas.js';
import { CHAINS, type Chain, type Direction, type TxType, DIRECTIONS, TX_TYPES } from '../core/types.js';
import { scaleOf } from '../core/money.js';
import type { ImportRecord, WalletRef } from './types.js';
import { fail } from './csv.js';

export function enumOf<T extends string>(value: unknown, allowed: readonly T[], field: string): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  return fail(field, `must be one of ${allowed.join(', ')}, got '${String(value)}'`);
}

export const directionOf = (v: unknown, field = 'direction'): Direction => enumOf(v, DIRECTIONS, field);
export const typeOf = (v: unknown, field = 'type'): TxType => (v === undefined || v === '' ? 'transfer' : enumOf(v, TX_TYPES, field));
/** A row's chain; none (`null` too: a row of an exchange wallet has no chain) is undefined. */
export const chainOf = (v: unknown, field = 'chain'): Chain | undefined => (v === undefined || v === null || v === '' ? undefined : enumOf(v, CHAINS, field));

/** Tags by name, checked with the tag-creation rules (name length, type, colour) the engine applies. */
export function tagsOf(
  tags: { name: unknown; type?: unknown; color?: unknown }[],
  fieldOf: (index: number, key: string) => string = (i, key) => `tags.${i}.${key}`,
): NonNullable<ImportRecord['tags']> {
  return tags.map((t, i) => {
    const res = tagCreateSchema.safeParse({ name: t.name, type: t.type ?? 'neutral', color: t.color });
    if (!res.success) {
      const issue = res.error.issues[0]!;
      fail(fieldOf(i, issue.path.join('.')), issue.message);
    }
    return { name: res.data.name, type: res.data.type, color: res.data.color };
  });
}

/** The amount must fit the token's decimals: amounts are never rounded. */
export function checkScale(amount: string, decimals: number, field = 'amount'): void {
  if (scaleOf(amount) > decimals) fail(field, `has ${scaleOf(amount)} decimals but the token has ${decimals}`);
}

/** The wallet a row names; its address is the row's own side (to_address of an inflow, from_address of an outflow). */
export function walletRefOf(id: unknown, label: unknown, chain: Chain | undefined, direction: Direction, from: string, to: string): WalletRef | undefined {
  if (id !== undefined && typeof id !== 'string') fail('wallet_id', 'must be a string');
  if (label !== undefined && label !== null && typeof label !== 'string') fail('wallet_label', 'must be a string');
  if (!id && !label) return undefined;
  return { id: id || undefined, label: (label as string | null) ?? undefined, chain, address: direction === 'inflow' ? to : from };
}
