/** `txa serve`: the HTTP API on the local ledger, with its export worker and webhook delivery (src/server). */
import { startServer } from '../server/serve.js';

export function serverService() {
  return {
    /** Opens its own connections to the ledger: the command's are closed first. */
    start: startServer,
  };
}

export type ServerService = ReturnType<typeof serverService>;
