/**
 * Any failure inside a request → the contract's error (CONTRACT §4). fastify's own errors (body
 * parsing, body limit, bad URL) get their contract codes; everything unexpected becomes a bare
 * INTERNAL_ERROR whose message never carries a stack, a path or SQL.
 */
import { TxaError } from '../core/errors.js';

interface FastifyLikeError {
  code?: string;
  statusCode?: number;
}

export function toHttpError(err: unknown): TxaError {
  if (err instanceof TxaError) {
    return err.status >= 500 ? new TxaError('INTERNAL_ERROR', 'internal error', { cause: err }) : err;
  }
  const e = (err ?? {}) as FastifyLikeError;
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new TxaError('PAYLOAD_TOO_LARGE', 'the request body is larger than this endpoint accepts');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new TxaError('INVALID_JSON', 'the request body must be JSON sent with Content-Type: application/json');
  }
  if (e.statusCode === 413) return new TxaError('PAYLOAD_TOO_LARGE', 'the request body is too large');
  if (e.statusCode !== undefined && e.statusCode >= 400 && e.statusCode < 500) {
    return new TxaError('INVALID_PARAMETERS', 'the request could not be read');
  }
  return new TxaError('INTERNAL_ERROR', 'internal error', { cause: err });
}
