/**
 * The ledger keeps each token object's book (rows of one kind share it, engine/ledger-rows.ts),
 * but one token object may stand for rows of other wallets and chains: each still finds its own.
 */
import { describe, expect, it } from 'vitest';
import { buy, lines, sell, X } from './helpers.js';

describe('books by token object', () => {
  it('one token object on two chains: two assets, the sale on the other chain has no cost basis', () => {
    const rows = [buy({ at: '2024-01-01', amount: '5', value: 500, token: X }), sell({ at: '2024-02-01', amount: '2', value: 300, token: X, chain: 'bsc' })];
    expect(lines(rows)).toEqual([['2024-02-01', '', '2', 'X', '300.00', '', '', '', 'Wallet a']]);
  });

  it('one token object in two wallets (wallet scope): each wallet its own lots', () => {
    const rows = [
      buy({ at: '2024-01-01', amount: '1', value: 100, token: X }),
      buy({ at: '2024-01-02', amount: '1', value: 200, token: X, wallet: 'wal_b' }),
      sell({ at: '2024-02-01', amount: '1', value: 300, token: X, wallet: 'wal_b' }),
    ];
    expect(lines(rows)).toEqual([['2024-02-01', '2024-01-02', '1', 'X', '300.00', '200.00', '100.00', 'short', 'Wallet b']]);
  });
});
