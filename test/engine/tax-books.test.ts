/**
 * What the tax ledger takes from the workspace besides its rows (engine/lot-ledger.ts taxBooks):
 * the wallets in the order they were added, which decides the transition's allocation, even for
 * wallets added within one second (creation times have whole seconds, ids are random).
 */
import { describe, expect, it } from 'vitest';
import { taxBooks } from '../../src/engine/lot-ledger.js';
import { addWallet } from '../../src/engine/wallets.js';
import { tempEngine } from '../helpers/engine.js';

describe('taxBooks', () => {
  it('lists the wallets in the order they were added; no picks and no allocation are recorded yet', () => {
    const { engine, ws } = tempEngine();
    try {
      const added = Array.from({ length: 12 }, (_, i) => addWallet(engine, ws, { address: `0x${String(i + 1).padStart(40, '0')}`, chain: 'ethereum' }).id);
      // Random ids: sorted, they would not be in this order (12! orders; one chance in 479 million).
      expect([...added].sort()).not.toEqual(added);
      const books = taxBooks(engine, ws);
      expect(books.walletOrder).toEqual(added);
      expect(books.picks.size).toBe(0);
      expect(books.allocation).toBeNull();
    } finally {
      engine.close();
    }
  });
});
