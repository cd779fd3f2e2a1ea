/** The API keys of a workspace for `txa serve` (docs/server.md "Keys"), on the local ledger only: a key is stored as a hash. */
import type { Engine } from '../engine/engine.js';
import { createKey, listKeys, revokeKey } from '../engine/keys.js';

export function keysService(engine: Engine) {
  return {
    /** The key itself is in the answer only: the ledger keeps its hash. */
    create: (ws: string, input: { name?: string; access?: string; member_id?: string }) => createKey(engine, ws, input),
    list: (ws: string) => listKeys(engine, ws),
    revoke: (ws: string, id: string) => revokeKey(engine, ws, id),
  };
}

export type KeysService = ReturnType<typeof keysService>;
