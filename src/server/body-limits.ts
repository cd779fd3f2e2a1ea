/**
 * Bodies over a route's limit are answered `413 PAYLOAD_TOO_LARGE` without resetting the
 * connection. A client still sending its body when the server closes the socket gets a TCP reset,
 * often before it has read the 413 (curl exit 55, EPIPE in undici). So:
 * - `Expect: 100-continue` is answered by the server only when the route is about to read a body
 *   that fits (after the key and the budget were checked): a client told 413 (or 401) first never
 *   sends the body, and such answers end the connection, which is then safe to close.
 * - A body already on its way when the limit is hit, or when an answer comes before the body is
 *   read (401, 403, 404, the router's 400/414), is read and thrown away, up to a byte and time budget, before the answer
 *   goes out: the client finishes sending and reads it (nginx calls this a lingering close), even
 *   with `Connection: close`. A client going on beyond the budget is cut off.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
export const DRAIN_MAX_MS = 30_000;

/** Requests that got `100 Continue`. */
const continued = new WeakSet<IncomingMessage>();

const expectsContinue = (raw: IncomingMessage) => /^100-continue$/i.test(String(raw.headers.expect ?? '').trim());

/** Leaves `Expect: 100-continue` to `continueIfFits` instead of Node's automatic answer. */
export function deferContinue(server: Server): void {
  server.on('checkContinue', (req, res) => server.emit('request', req, res));
}

/** preParsing: the body is about to be read; ask for it if its declared length fits. */
export function continueIfFits(req: FastifyRequest, reply: FastifyReply): void {
  const raw = req.raw;
  if (!expectsContinue(raw) || raw.complete || continued.has(raw)) return;
  const declared = Number(raw.headers['content-length']);
  if (declared > req.routeOptions.bodyLimit) return;
  continued.add(raw);
  reply.raw.writeContinue();
}

/** onSend: a client still holding back its body after a final answer must not reuse the connection. */
export function closeIfBodyHeldBack(req: FastifyRequest, reply: FastifyReply): void {
  if (expectsContinue(req.raw) && !continued.has(req.raw) && !req.raw.complete) reply.header('connection', 'close');
}

/**
 * onSend (and the router's refusals): an answer given while the body is still coming (a 413, or a
 * 401/403/404/414 before the body was read) goes out once the client has sent the rest, which is
 * read and thrown away within the budget. Closing a socket with unread bytes resets it, so a
 * client that sent `Connection: close` (or any client, after fastify's close on a body error)
 * could lose the answer. A client holding back its body (Expect: 100-continue without our 100) is
 * not waited for.
 */
export async function readUnreadBody(req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const raw = req.raw;
  // `complete`: every byte has arrived; `readableEnded`: a body that was read (under inject too).
  if (raw.complete || raw.readableEnded || raw.destroyed || (expectsContinue(raw) && !continued.has(raw))) return;
  // fastify closes after a body error; once the body is read whole, the connection can stay open,
  // unless the client asked to close it.
  if (reply.statusCode === 413 && !/\bclose\b/i.test(String(raw.headers.connection ?? ''))) reply.removeHeader('connection');
  await new Promise<void>((resolve) => {
    let bytes = 0;
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    const cutOff = () => {
      raw.socket?.destroy();
      done();
    };
    const timer = setTimeout(cutOff, DRAIN_MAX_MS).unref();
    raw.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > DRAIN_MAX_BYTES) cutOff();
    });
    raw.once('end', done).once('close', done);
    raw.resume();
  });
}
