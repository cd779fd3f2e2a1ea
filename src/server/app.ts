/**
 * The HTTP API of docs/reference/api.md on a `Backend` (fastify 5): routes under `/api/v1` and the `/v1` alias,
 * bearer keys with access levels, the workspace's hourly budget, Idempotency-Key on POST, and
 * the API's error bodies (docs/server.md "API conventions") for everything, including unknown routes (404 NOT_FOUND), wrong
 * methods (405 METHOD_NOT_ALLOWED), bad JSON (400 INVALID_JSON), oversized bodies (413), and the
 * framework's own refusals (a bad URL, a too-long path parameter, a request while shutting down).
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { TxaError } from '../core/errors.js';
import { allows, verifyKey, type Access, type KeyGrant } from '../engine/keys.js';
import { toHttpError, type HttpFailure } from './http-errors.js';
import { parseJsonBody } from './json-body.js';
import { closeIfBodyHeldBack, continueIfFits, deferContinue, readUnreadBody } from './body-limits.js';
import { RateLimiter } from './rate-limit.js';
import { IdempotencyStore, fingerprint } from './idempotency.js';
import { apiRoutes } from './routes/index.js';
import { JSON_TYPE } from './routes/helpers.js';
import type { RouteDeps, ServerDeps } from './deps.js';
import { ReadCache } from './read-cache.js';
import { PUBLIC, rolesOf, type RouteRoles } from './permissions.js';
import { ROLE_LABELS, requiredRolesText } from '../core/members.js';

/** JSON bodies are small; attachments have their own limit (routes/transactions.ts). */
export const JSON_BODY_LIMIT = 1024 * 1024;
export const API_PREFIXES = ['/api/v1', '/v1'] as const;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The access level a route needs; `public` needs no key. */
    access?: Access | 'public';
    /** Who may call the route: its entry in the role table (permissions.ts), set when the route is added. */
    roles?: RouteRoles;
  }
  interface FastifyRequest {
    grant: KeyGrant | null;
    idempotency: { workspaceId: string; key: string } | null;
  }
}

/**
 * Requests Node's HTTP parser refuses before any route runs (headers over 16 KB, a malformed
 * request line): answered with the API's error body rather than fastify's own.
 */
function answerClientError(err: NodeJS.ErrnoException & { rawPacket?: unknown }, socket: Socket): void {
  // HPE_CLOSED_CONNECTION: bytes after a request that asked to close. Its own answer is made or on
  // its way and ends the connection; a second answer would follow it, or come first in its place.
  if (err.code === 'ECONNRESET' || err.code === 'HPE_CLOSED_CONNECTION' || socket.destroyed) return;
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify({
    success: false,
    error: tooLarge
      ? { code: 'INVALID_PARAMETERS', message: 'the request headers and URL together exceed 16 KB; send fewer or shorter query parameters' }
      : { code: 'INVALID_PARAMETERS', message: `malformed HTTP request (${err.code ?? 'parse error'})` },
  });
  // The answer to a HEAD has no body (RFC 9110 §9.3.2). The parser refused the request before
  // naming its method, so it is read from the bytes that failed, when they hold the request line
  // (a head sent in one piece); a head that overflows in a later piece still gets the body.
  const head = err.rawPacket instanceof Buffer && err.rawPacket.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${JSON_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? '' : body}`,
  );
}

function sendFailure(reply: FastifyReply, { status, error }: HttpFailure) {
  // Every 429 says when to come back, in the body and as the header clients and proxies know.
  if (status === 429) reply.header('retry-after', String(error.extra?.retry_after ?? 60));
  return reply.code(status).type(JSON_TYPE).send(error.toBody());
}

function redactUrl(url: string): string {
  return url.replace(/([?&]token=)[^&]*/g, '$1[redacted]');
}

export function buildServer(deps: ServerDeps, logLevel = process.env.TXA_LOG_LEVEL || 'warn'): FastifyInstance {
  const app = createFastify(logLevel);
  deferContinue(app.server);
  const limiter = new RateLimiter(deps.engine);
  const idempotency = new IdempotencyStore(deps.engine);

  app.decorateRequest('grant', null);
  app.decorateRequest('idempotency', null);
  const routes = collectRoutes(app);
  attachRoles(app);
  parseJsonBodies(app);

  // While shutting down, every response ends its connection, so close() is not held up by keep-alive.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });

  app.addHook('onRequest', async (req, reply) => {
    // The onSend hook below adds `Connection: close` to this answer, as to every one while closing.
    if (closing) {
      return sendFailure(reply, { status: 503, error: new TxaError('INTERNAL_ERROR', 'the server is shutting down; retry in a moment') });
    }
    authorize(req, reply, deps, limiter);
    return undefined;
  });
  app.addHook('preHandler', async (req, reply) => claimIdempotencyKey(req, reply, idempotency));
  app.addHook('preParsing', async (req, reply) => continueIfFits(req, reply));
  app.addHook('onSend', async (req, reply, payload) => {
    closeIfBodyHeldBack(req, reply);
    await readUnreadBody(req, reply);
    if (closing) reply.header('connection', 'close');
    settleIdempotencyKey(req, reply, payload, idempotency);
    return payload;
  });

  app.setErrorHandler((err, req, reply) => {
    const failure = toHttpError(err);
    if (failure.error.code === 'INTERNAL_ERROR') req.log.error({ err }, 'request failed');
    return sendFailure(reply, failure);
  });
  app.setNotFoundHandler((req, reply) => answerNoRoute(req, reply, routes));

  const routeDeps: RouteDeps = { ...deps, cache: new ReadCache(deps.engine) };
  for (const prefix of API_PREFIXES) app.register(apiRoutes(routeDeps), { prefix });
  app.addHook('onClose', async () => limiter.close());
  return app;
}

/** Fastify with the log, the limits and the framework refusals the API answers in its own form. */
function createFastify(logLevel: string): FastifyInstance {
  return Fastify({
    bodyLimit: JSON_BODY_LIMIT,
    logger: {
      level: logLevel,
      // Keys never reach the log: no headers are logged, and download tokens are cut from URLs.
      redact: ['req.headers.authorization', 'req.headers["idempotency-key"]'],
      serializers: {
        req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: redactUrl(req.url), ip: req.ip }),
      },
      stream: process.stderr,
    },
    // Requests arriving while shutting down get the API's error body (onRequest in buildServer), not fastify's.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // `/api/v1/tags/` is the list route, not a tag with an empty id.
    routerOptions: { ignoreTrailingSlash: true },
    clientErrorHandler: answerClientError,
    // Refusals made by the router before any hook: a path that is not valid percent-encoding, a
    // path parameter over 100 characters. No onSend hook runs for them, so the body is read here.
    frameworkErrors: (err, req, reply) => void readUnreadBody(req, reply).then(() => sendFailure(reply, toHttpError(err))),
  });
}

interface KnownRoute {
  pattern: RegExp;
  method: string;
}

/** Every route's path pattern and method as it is added, so an unmatched request can be told which methods its path has. */
function collectRoutes(app: FastifyInstance): KnownRoute[] {
  const routes: KnownRoute[] = [];
  app.addHook('onRoute', (r) => {
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    const pattern = new RegExp(`^${r.url.replace(/:[^/]+/g, '[^/]+').replace(/\/$/, '')}/?$`);
    for (const method of methods) routes.push({ pattern, method: String(method) });
  });
  return routes;
}

/**
 * Each route gets its entry of the role table as it is added, so a request's check is a lookup in
 * its own route's config; a route the table lacks, or one public in one place and not the other,
 * stops the server from being built.
 */
function attachRoles(app: FastifyInstance): void {
  app.addHook('onRoute', (r) => {
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    for (const method of methods) {
      const roles = rolesOf(String(method), r.routePath);
      if ((roles === PUBLIC) !== (r.config?.access === undefined || r.config.access === 'public')) {
        throw new Error(`route ${String(method)} ${r.routePath}: the role table and its access level disagree on whether it is public`);
      }
      r.config = { ...r.config, roles };
    }
  });
}

/** JSON bodies through parseJsonBody, whose errors are the API's (INVALID_JSON, …). */
function parseJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseJsonBody(String(body)));
    } catch (err) {
      done(err as TxaError, undefined);
    }
  });
}

/** The bearer key a route's access level needs, the workspace's hourly budget and its headers; throws the refusal. */
function authorize(req: FastifyRequest, reply: FastifyReply, deps: ServerDeps, limiter: RateLimiter): void {
  const access = req.routeOptions.config?.access;
  if (access === undefined || access === 'public') return;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  const grant = match ? verifyKey(deps.engine, match[1]!) : null;
  if (!grant) {
    throw new TxaError('UNAUTHORIZED', 'Invalid or missing API key');
  }
  req.grant = grant;
  setRateHeaders(reply, limiter, grant.workspaceId);
  // The member's role, then the key's own level where it is narrower (docs/server.md "Teams").
  const roles = req.routeOptions.config.roles;
  if (roles !== undefined && roles !== PUBLIC && !roles.includes(grant.role)) {
    throw new TxaError('INSUFFICIENT_PERMISSIONS', `this operation ${requiredRolesText(roles)}; this key's member is a ${ROLE_LABELS[grant.role]}`);
  }
  if (!allows(grant.access, access)) {
    throw new TxaError('INSUFFICIENT_PERMISSIONS', `this API key has ${grant.access} access; the operation needs ${access}`);
  }
}

/** A POST's Idempotency-Key: the stored answer replayed, or the key claimed for this request (settled in onSend). */
function claimIdempotencyKey(req: FastifyRequest, reply: FastifyReply, idempotency: IdempotencyStore) {
  const key = req.headers['idempotency-key'];
  if (req.method !== 'POST' || req.grant === null || typeof key !== 'string') return undefined;
  IdempotencyStore.checkKey(key);
  const extra = `${req.headers['content-type'] ?? ''} ${req.headers['x-file-name'] ?? ''}`;
  const print = fingerprint(req.method, req.routeOptions.url ?? req.url, req.params, req.body, extra);
  const claim = idempotency.claim(req.grant.workspaceId, key, print);
  if (claim.kind === 'replay') {
    return reply.code(claim.response.status).header('idempotent-replayed', 'true').type(JSON_TYPE).send(claim.response.body);
  }
  req.idempotency = { workspaceId: req.grant.workspaceId, key };
  return undefined;
}

/** Stores the answer under the key the request claimed, once. */
function settleIdempotencyKey(req: FastifyRequest, reply: FastifyReply, payload: unknown, idempotency: IdempotencyStore): void {
  const idem = req.idempotency;
  if (!idem) return;
  req.idempotency = null;
  idempotency.settle(idem.workspaceId, idem.key, { status: reply.statusCode, body: typeof payload === 'string' ? payload : String(payload ?? '') });
}

/** 405 with `Allow` when the path has other methods, else 404. */
function answerNoRoute(req: FastifyRequest, reply: FastifyReply, routes: KnownRoute[]) {
  const path = (req.url.split('?')[0] ?? '').replace(/\/+$/, '') || '/';
  const allowed = [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))];
  const e = allowed.length
    ? new TxaError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`)
    : new TxaError('NOT_FOUND', `no route ${req.method} ${path}`);
  if (allowed.length) reply.header('allow', allowed.join(', '));
  return reply.code(e.status).send(e.toBody());
}

function setRateHeaders(reply: FastifyReply, limiter: RateLimiter, workspaceId: string): void {
  const state = limiter.hit(workspaceId);
  if (!state) return;
  reply.header('x-ratelimit-limit', state.limit).header('x-ratelimit-remaining', state.remaining).header('x-ratelimit-reset', state.reset);
  if (state.retryAfter !== null) {
    throw new TxaError('RATE_LIMIT_EXCEEDED', `this workspace's limit of ${state.limit} API requests per hour is reached; retry in ${state.retryAfter} s`, {
      extra: { retry_after: state.retryAfter },
    });
  }
}
