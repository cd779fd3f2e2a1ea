/**
 * Signed download links (docs/exports.md "Links and expiry"): like a presigned URL, the link alone is the credential.
 * token = hex HMAC-SHA256 over `<export id>.<expires>` with the ledger's signing secret.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export function downloadToken(secret: string, exportId: string, expires: number): string {
  return createHmac('sha256', secret).update(`${exportId}.${expires}`).digest('hex');
}

export function downloadUrl(publicBaseUrl: string, secret: string, exportId: string, expires: number): string {
  const token = downloadToken(secret, exportId, expires);
  return `${publicBaseUrl}/api/v1/exports/${encodeURIComponent(exportId)}/download?expires=${expires}&token=${token}`;
}

/** Constant-time comparison of a presented token with the expected one. */
export function tokenMatches(secret: string, exportId: string, expires: number, token: string): boolean {
  const expected = Buffer.from(downloadToken(secret, exportId, expires), 'hex');
  const given = /^[0-9a-f]{64}$/i.test(token) ? Buffer.from(token, 'hex') : Buffer.alloc(0);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
