/** `--rate-limit` of `workspace create` and `workspace update`. */

/** The flag as a number; anything but digits is NaN, which the engine refuses as INVALID_FIELD. */
export function rateLimitOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  return /^\d+$/.test(value) ? Number(value) : NaN;
}
