/** The API keys of a workspace for `txa serve` (docs/server.md "Keys"), on the local ledger only: a key is stored as a hash. */
import type { Engine } from '../engine/engine.js';
import { createKey, listKeys, revokeKey } from '../engine/keys.js';

export class KeysService {
  constructor(private readonly engine: Engine) {}

  /** The key itself is in the answer only: the ledger keeps its hash. */
  create(ws: string, input: { name?: string; access?: string }) {
    return createKey(this.engine, ws, input);
  }

  list(ws: string) {
    return listKeys(this.engine, ws);
  }

  revoke(ws: string, id: string) {
    return revokeKey(this.engine, ws, id);
  }
}
