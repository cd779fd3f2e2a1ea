/**
 * E-mail delivery over SMTP (CONTRACT §6): `TXA_SMTP_URL` (e.g. `smtp://user:pass@host:587`) and
 * `TXA_SMTP_FROM`. The file is attached, or above 10 MB the download link is sent instead.
 */
import { TxaError } from '../core/errors.js';

export const EMAIL_ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;

export interface EmailExport {
  exportId: string;
  format: string;
  filePath: string;
  fileName: string;
  fileSize: number;
  transactionCount: number;
  downloadUrl: string;
  expiresAt: string;
}

export function smtpUrl(): string | undefined {
  return process.env.TXA_SMTP_URL || undefined;
}

/** Refuses e-mail delivery up front when no SMTP server is configured. */
export function requireSmtp(): void {
  if (!smtpUrl()) {
    throw new TxaError('INVALID_FIELD', 'e-mail delivery needs an SMTP server, and none is configured', {
      field: 'delivery.method',
      hint: 'Set TXA_SMTP_URL (e.g. smtp://user:pass@host:587) and TXA_SMTP_FROM.',
    });
  }
}

export async function sendExportEmail(recipients: string[], e: EmailExport): Promise<void> {
  requireSmtp();
  const { createTransport } = await import('nodemailer');
  const transport = createTransport(smtpUrl()!);
  const attach = e.fileSize <= EMAIL_ATTACHMENT_MAX_BYTES;
  const lines = [
    `Your txa export ${e.exportId} (${e.format.toUpperCase()}, ${e.transactionCount} transactions) is ready.`,
    '',
    attach ? 'The file is attached.' : `The file (${e.fileSize} bytes) is too large to attach; download it here:`,
    attach ? `You can also download it until ${e.expiresAt}:` : '',
    e.downloadUrl,
    '',
    `The link expires at ${e.expiresAt}.`,
  ].filter((l, i, all) => l !== '' || all[i - 1] !== '');
  try {
    await transport.sendMail({
      from: process.env.TXA_SMTP_FROM || 'txa <txa@localhost>',
      to: recipients,
      subject: `txa export ${e.exportId}: ${e.transactionCount} transactions (${e.format.toUpperCase()})`,
      text: lines.join('\n'),
      // base64 keeps the bytes exact: CSV's CRLF line ends survive any relay.
      attachments: attach ? [{ filename: e.fileName, path: e.filePath, contentTransferEncoding: 'base64' }] : [],
    });
  } finally {
    transport.close();
  }
}
