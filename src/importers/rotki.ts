/**
 * rotki generic "events" CSV: deposits, withdrawals, income, losses, spending and staking rewards,
 * with millisecond timestamps and assets named by symbol or by CAIP-style id
 * (`eip155:1/erc20:0x…`). rotki rows have no hash, so each gets a synthetic one derived from its
 * content (fields.ts syntheticHash): re-importing the same file adds nothing.
 */
import { TxaError } from '../core/errors.js';
import type { Chain, Direction, Token } from '../core/types.js';
import type { ImportRecord, Importer } from './types.js';
import { Columns, fail, mapRows, readCsv, requireColumns, type CsvRow } from './csv.js';
import { amountOf, optionalAmount, syntheticHash } from './fields.js';
import { tokenAtAddress, tokenBySymbol } from './tokens.js';

const REQUIRED = ['Type', 'Location', 'Currency', 'Amount', 'Timestamp'] as const;

const DIRECTION: Record<string, Direction> = {
  deposit: 'inflow',
  income: 'inflow',
  staking: 'inflow',
  withdrawal: 'outflow',
  loss: 'outflow',
  spend: 'outflow',
};

const ASSET_ID = /^eip155:\d+\/(?:erc20|bep20):(0x[0-9a-fA-F]{40})$/;

function tokenOf(chain: Chain, currency: string, amount: string, field: string): Token {
  if (currency === '') fail(field, 'is empty');
  const id = ASSET_ID.exec(currency);
  return id ? tokenAtAddress(id[1]!, [amount], field) : tokenBySymbol(chain, currency, [amount], field);
}

export const rotkiImporter: Importer = {
  format: 'rotki',
  needsWallet: true,
  detect({ header }) {
    return new Columns(header ?? []).has(...REQUIRED);
  },
  parse(text, ctx) {
    const wallet = ctx.wallet;
    if (!wallet) throw new TxaError('USAGE_ERROR', 'rotki files name no wallet: pass --wallet ID', { field: 'wallet' });
    const table = readCsv(text);
    const cols = new Columns(table.header);
    requireColumns(REQUIRED.filter((c) => cols.find(c) < 0));
    const at = cols.pick([...REQUIRED, 'Fee', 'Fee Currency', 'Description']);
    const get = (cells: string[], i: number) => (i >= 0 ? (cells[i] ?? '').trim() : '');
    return mapRows('rotki', table.rows, ({ line, cells }: CsvRow) => {
      const kind = get(cells, at.Type);
      const direction = DIRECTION[kind.toLowerCase()];
      if (!direction) fail('Type', `unknown event type '${kind}'; expected Deposit, Withdrawal, Income, Loss, Spend or Staking`);
      const ms = get(cells, at.Timestamp);
      if (!/^\d{1,15}$/.test(ms)) fail('Timestamp', `not a millisecond Unix timestamp: '${ms}'`);
      const amount = amountOf(cells[at.Amount], 'Amount');
      const base = {
        line,
        tx_hash: syntheticHash('rotki', cells),
        from_address: direction === 'outflow' ? wallet.address : '',
        to_address: direction === 'inflow' ? wallet.address : '',
        fiat_value: null,
        timestamp: Math.floor(Number(ms) / 1000),
        notes: [kind, get(cells, at.Location), get(cells, at.Description)].filter(Boolean).join(' · '),
      };
      const records: ImportRecord[] = [
        { ...base, token: tokenOf(wallet.chain, get(cells, at.Currency), amount, 'Currency'), amount, direction, type: 'transfer' },
      ];
      const feeAmount = optionalAmount(cells[at.Fee], 'Fee');
      if (feeAmount !== null && feeAmount !== '0') {
        const feeCur = get(cells, at['Fee Currency']) || get(cells, at.Currency);
        records.push({
          ...base,
          from_address: wallet.address,
          to_address: '',
          token: tokenOf(wallet.chain, feeCur, feeAmount, 'Fee Currency'),
          amount: feeAmount,
          direction: 'outflow',
          type: 'fee',
        });
      }
      return records;
    });
  },
};
