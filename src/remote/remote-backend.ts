/** The HTTP `Backend` (issue "txa serve and the remote backend"): not built yet. */
import { TxaError } from '../core/errors.js';
import type { Backend } from '../core/backend.js';

export interface RemoteOptions {
  baseUrl: string;
  apiKey: string | undefined;
  onNotice?: (message: string) => void;
}

export interface RemoteBackend extends Backend {}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class RemoteBackend {
  // Typed as the interface so callers compile; the constructor refuses until the client lands.
  constructor(_opts: RemoteOptions) {
    throw new TxaError('LOCAL_ONLY', 'the remote backend is not available in this build; use the local ledger');
  }
}
