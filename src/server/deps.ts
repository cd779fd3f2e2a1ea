/** What `txa serve` is built on (`buildServer`), and what its routes get. */
import type { LocalBackend } from '../engine/local-backend.js';
import type { Engine } from '../engine/engine.js';
import type { ReadCache } from './read-cache.js';

export interface ServerDeps {
  /** The engine's local backend; routes that change things act as the request's member (`as`). */
  backend: LocalBackend;
  engine: Engine;
  allowPrivateWebhooks: boolean;
}

/** What the routes get: the server's dependencies and its list cache. */
export interface RouteDeps extends ServerDeps {
  cache: ReadCache;
}
