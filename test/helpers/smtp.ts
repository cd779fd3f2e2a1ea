/**
 * A real SMTP server in-process on 127.0.0.1 (smtp-server) that keeps every message it receives,
 * with TXA_SMTP_URL/TXA_SMTP_FROM pointed at it while it runs and restored when it stops.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Mail {
  from: string;
  to: string[];
  /** The message as received, headers and body (latin1 keeps every byte). */
  raw: string;
}

export async function startSmtp(): Promise<{ mails: Mail[]; stop: () => Promise<void> }> {
  const mails: Mail[] = [];
  const saved = { TXA_SMTP_URL: process.env.TXA_SMTP_URL, TXA_SMTP_FROM: process.env.TXA_SMTP_FROM };
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        mails.push({ from, to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('latin1') });
        done();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  process.env.TXA_SMTP_URL = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  process.env.TXA_SMTP_FROM = 'Ledger <ledger@example.com>';
  const stop = async () => {
    await new Promise<void>((r) => smtp.close(r));
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  return { mails, stop };
}
