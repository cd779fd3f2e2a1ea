/**
 * E-mail delivery of a file above 10 MB (docs/exports.md "Delivery and jobs"): the message carries the download link, not
 * the file. The file is an `audit` PDF made large by the two ~6 MB attachments it embeds; the mail
 * goes to a real in-process smtp-server on 127.0.0.1.
 */
import { describe, test, expect, beforeAll, afterAll } from 'vitest';
import { randomBytes } from 'node:crypto';
import { tempLedger, addWallets, addMany, addTxs } from './seed.js';

/** These ledgers run as a `txa serve` at this URL would: the links are signed ones. */
const SERVED = 'https://txa.example.com';
import { startSmtp, type Mail } from '../helpers/smtp.js';
import { createExport, getExport } from '../../src/engine/exports.js';
import { runExportJob } from '../../src/engine/export-jobs.js';
import { attachFile } from '../../src/engine/transaction-edits.js';
import { EMAIL_ATTACHMENT_MAX_BYTES } from '../../src/exporters/deliver-email.js';

let mails: Mail[] = [];
let stopSmtp: () => Promise<void>;

beforeAll(async () => {
  ({ mails, stop: stopSmtp } = await startSmtp());
});

afterAll(() => stopSmtp());

/** The message body after its headers, decoded from quoted-printable (long lines are soft-wrapped). */
function textBody(raw: string): string {
  const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  if (!/^Content-Transfer-Encoding: quoted-printable/im.test(raw)) return body;
  return body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

describe('e-mail delivery above 10 MB', () => {
  test('sends the download link instead of attaching the file; the export completes', async () => {
    const { engine, ws } = tempLedger('pro', 'USD', SERVED);
    const wallets = addWallets(engine, ws, ['Main']);
    addMany(engine, ws, wallets, 5);
    const [txId] = addTxs(engine, ws, wallets, [
      { wallet: 0, day: '2024-02-01', amount: '1', fiat: '2000.00', direction: 'inflow', hash: `0x${'f'.repeat(64)}` },
    ]);
    // Random bytes do not compress, so the PDF grows by about their size.
    for (const name of ['receipt-1.bin', 'receipt-2.bin']) {
      attachFile(engine, ws, txId!, { file_name: name, content_type: 'application/octet-stream', data: randomBytes(6 * 1024 * 1024) });
    }

    const queued = await createExport(engine, ws, {
      format: 'pdf',
      report_type: 'audit',
      delivery: { method: 'email', email_recipients: ['cfo@example.com'] },
    });
    expect(queued.status).toBe('queued');
    await runExportJob(engine, queued.id);
    const done = getExport(engine, ws, queued.id);
    expect(done.status).toBe('completed');
    expect(done.file_size).toBeGreaterThan(EMAIL_ATTACHMENT_MAX_BYTES);
    expect(EMAIL_ATTACHMENT_MAX_BYTES).toBe(10 * 1024 * 1024);

    const raw = mails.find((m) => m.raw.includes(queued.id))!.raw;
    expect(raw).toBeDefined();
    expect(raw.length).toBeLessThan(100_000); // nothing of the ~12 MB file rides along
    expect(raw).toMatch(/^Content-Type: text\/plain/im);
    expect(raw).not.toMatch(/^Content-Type: multipart\//im);
    expect(raw).not.toMatch(/Content-Disposition: attachment|filename=/i);
    const text = textBody(raw);
    expect(text).toContain(done.download_url!);
    expect(text).toContain(`The file (${done.file_size} bytes) is too large to attach`);
    expect(text).toContain(`The link expires at ${done.expires_at}.`);
    engine.close();
  }, 120_000);

  test('without a public URL no server answers a link: the delivery fails naming the limit and the setting; nothing is sent', async () => {
    const { engine, ws } = tempLedger('pro');
    const wallets = addWallets(engine, ws, ['Main']);
    const [txId] = addTxs(engine, ws, wallets, [
      { wallet: 0, day: '2024-02-01', amount: '1', fiat: '2000.00', direction: 'inflow', hash: `0x${'e'.repeat(64)}` },
    ]);
    for (const name of ['receipt-1.bin', 'receipt-2.bin']) {
      attachFile(engine, ws, txId!, { file_name: name, content_type: 'application/octet-stream', data: randomBytes(6 * 1024 * 1024) });
    }
    const queued = await createExport(engine, ws, {
      format: 'pdf',
      report_type: 'audit',
      delivery: { method: 'email', email_recipients: ['cfo@example.com'] },
    });
    await runExportJob(engine, queued.id);
    const failed = getExport(engine, ws, queued.id);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'DELIVERY_FAILED' } });
    expect(failed.error!.message).toContain(`larger than the ${EMAIL_ATTACHMENT_MAX_BYTES} bytes (10 MB) an e-mail attaches`);
    expect(failed.error!.message).toContain('txa config set public_url URL');
    expect(mails.some((m) => m.raw.includes(queued.id))).toBe(false);
    engine.close();
  }, 120_000);
});
