/**
 * E-mail delivery over SMTP (docs/exports.md "Delivery and jobs"): `TXA_SMTP_URL` (e.g. `smtp://user:pass@host:587`) and
 * `TXA_SMTP_FROM`. The file is attached, or above 10 MB the download link is sent instead. A link
 * needs a server to answer it: without one (a local export and no `public_url`), the file must fit
 * the attachment limit, or the delivery fails and says how to get a link.
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
  /** The signed link on a `txa serve` of the ledger; undefined when there is none. */
  downloadUrl: string | undefined;
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
  const attach = e.fileSize <= EMAIL_ATTACHMENT_MAX_BYTES;
  if (!attach && e.downloadUrl === undefined) {
    throw new Error(
      `the file (${e.fileSize} bytes) is larger than the ${EMAIL_ATTACHMENT_MAX_BYTES} bytes (10 MB) an e-mail attaches, and no public URL of a txa serve on this ledger is configured to link to it (txa config set public_url URL, or TXA_PUBLIC_URL)`,
    );
  }
  const link =
    e.downloadUrl === undefined
      ? []
      : [attach ? `You can also download it until ${e.expiresAt}:` : '', e.downloadUrl, '', `The link expires at ${e.expiresAt}.`];
  const lines = [
    `Your txa export ${e.exportId} (${e.format.toUpperCase()}, ${e.transactionCount} transactions) is ready.`,
    '',
    attach ? 'The file is attached.' : `The file (${e.fileSize} bytes) is too large to attach; download it here:`,
    ...link,
  ].filter((l, i, all) => l !== '' || all[i - 1] !== '');
  await sendEmail({
    to: recipients,
    subject: `txa export ${e.exportId}: ${e.transactionCount} transactions (${e.format.toUpperCase()})`,
    text: lines.join('\n'),
    // base64 keeps the bytes exact: CSV's CRLF line ends survive any relay.
    attachments: attach ? [{ filename: e.fileName, path: e.filePath, contentTransferEncoding: 'base64' }] : [],
  });
}

export interface EmailMessage {
  to: string[];
  subject: string;
  text: string;
  attachments?: { filename: string; path: string; contentTransferEncoding: 'base64' }[];
}

/**
 * One message over the configured SMTP server (`TXA_SMTP_URL`, from `TXA_SMTP_FROM`): the export
 * deliveries and the invitations of docs/server.md "Teams" both go through here.
 */
export async function sendEmail(m: EmailMessage): Promise<void> {
  requireSmtp();
  const { createTransport } = await import('nodemailer');
  const transport = createTransport(smtpUrl()!);
  try {
    await transport.sendMail({
      from: process.env.TXA_SMTP_FROM || 'txa <txa@localhost>',
      to: m.to,
      subject: m.subject,
      text: m.text,
      attachments: m.attachments ?? [],
    });
  } finally {
    transport.close();
  }
}
