/**
 * Any failure inside a request → the API's error body (docs/server.md "API conventions"). fastify's own
 * errors (body parsing, body limit, a bad URL, a too-long path parameter) get the API's codes;
 * everything unexpected becomes a bare INTERNAL_ERROR whose message never carries a stack, a
 * path or SQL. The status is the code's, except where HTTP has a more precise one the framework
 * chose (414 for a path segment over the router's limit).
 */
import { TxaError } from '../core/errors.js';

interface FastifyLikeError {
  code?: string;
  statusCode?: number;
}

export interface HttpFailure {
  status: number;
  error: TxaError;
}

const as = (error: TxaError, status = error.status): HttpFailure => ({ status, error });

export function toHttpError(err: unknown): HttpFailure {
  if (err instanceof TxaError) {
    return as(err.status >= 500 ? new TxaError('INTERNAL_ERROR', 'internal error', { cause: err }) : err);
  }
  const e = (err ?? {}) as FastifyLikeError;
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return as(new TxaError('PAYLOAD_TOO_LARGE', 'the request body is larger than this endpoint accepts'));
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return as(new TxaError('INVALID_JSON', 'the request body must be JSON sent with Content-Type: application/json'));
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return as(new TxaError('INVALID_PARAMETERS', 'the request body does not have the length its Content-Length header gives'));
    case 'FST_ERR_BAD_URL':
      return as(new TxaError('INVALID_PARAMETERS', 'the URL path is not valid percent-encoded UTF-8'));
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return as(new TxaError('INVALID_PARAMETERS', 'a path segment is longer than 100 characters; no id is that long'), 414);
  }
  if (e.statusCode === 413) return as(new TxaError('PAYLOAD_TOO_LARGE', 'the request body is too large'));
  if (e.statusCode !== undefined && e.statusCode >= 400 && e.statusCode < 500) {
    return as(new TxaError('INVALID_PARAMETERS', 'the request could not be read'));
  }
  return as(new TxaError('INTERNAL_ERROR', 'internal error', { cause: err }));
}
