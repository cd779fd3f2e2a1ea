/**
 * The engine's clock. `TXA_NOW` (ISO 8601) pins it, so tests can move time, e.g. past a
 * download link's 24-hour expiry. It is a testing aid, documented in the README.
 */
export function now(): Date {
  const pinned = process.env.TXA_NOW;
  if (pinned) {
    const date = new Date(pinned);
    if (!Number.isNaN(date.getTime())) return date;
  }
  return new Date();
}

export function nowSeconds(): number {
  return Math.floor(now().getTime() / 1000);
}

export function nowIso(): string {
  return isoSeconds(nowSeconds());
}

/** Unix seconds → `YYYY-MM-DDTHH:MM:SSZ` (ISO 8601 UTC, no fraction). */
export function isoSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
