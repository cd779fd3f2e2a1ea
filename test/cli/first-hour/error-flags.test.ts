/**
 * Issue 24, item 9 (docs/cli.md "Error wording"): a data error (exit 1) names the flag the user
 * typed, not the API's field; `--json` keeps the API's `field`. One map per command, read from
 * commander's options (src/cli/error-flags.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { programRun } from './program-run.js';
import { flagsByField, inFlagWords } from '../../../src/cli/error-flags.js';
import { TxaError } from '../../../src/core/errors.js';
import { tempLedger, type TempLedger } from '../../helpers/in-process-ledger.js';

describe('inFlagWords', () => {
  const cmd = new Command('create')
    .option('--start-date <d>')
    .option('--end-date <d>')
    .option('--date-format <p>')
    .option('--name <n>')
    .option('--no-include-summary');
  const flags = flagsByField(cmd);

  it('reads the flags from commander, snake case by attribute', () => {
    expect(Object.fromEntries(flags)).toMatchObject({ start_date: '--start-date', date_format: '--date-format', include_summary: '--no-include-summary' });
  });

  it('names the field as the flag, and the fields in the message as flags', () => {
    const e = inFlagWords(new TxaError('INVALID_DATE_RANGE', 'end_date must not be before start_date', { field: 'end_date' }), flags);
    expect([e.code, e.field, e.message, e.exitCode]).toEqual(['INVALID_DATE_RANGE', 'end-date', '--end-date must not be before --start-date', 1]);
  });

  it('a field of a body section (options.date_format) is its flag', () => {
    const e = inFlagWords(new TxaError('INVALID_FIELD', "options.date_format must be a pattern, got 'x'", { field: 'options.date_format' }), flags);
    expect([e.field, e.message]).toEqual(['date-format', "--date-format must be a pattern, got 'x'"]);
  });

  it('a one-word field is replaced only at the start of the message; quoted values stay', () => {
    expect(inFlagWords(new TxaError('INVALID_FIELD', 'name must be 1 to 50 characters', { field: 'name' }), flags).message).toBe(
      '--name must be 1 to 50 characters',
    );
    const e = inFlagWords(new TxaError('TAG_ALREADY_EXISTS', "a tag named 'start_date' already exists: pick another name", { field: 'name' }), flags);
    expect([e.field, e.message]).toEqual(['name', "a tag named 'start_date' already exists: pick another name"]);
  });

  it('a field no flag sets stays as it is', () => {
    const e = new TxaError('WALLET_NOT_FOUND', 'wallet wal_x not found', { field: 'wallet_id' });
    expect(inFlagWords(e, flags)).toBe(e);
  });
});

describe('on the command line', () => {
  let l: TempLedger;
  const saved = { ...process.env };
  beforeAll(() => {
    l = tempLedger();
    Object.assign(process.env, { TXA_DB: l.db, TXA_WORKSPACE: l.workspace });
    delete process.env.TXA_BASE_URL;
  });
  afterAll(() => {
    process.env = saved;
  });

  async function stderrOf(words: string[]): Promise<[number, string]> {
    const r = await programRun(words);
    return [r.exitCode, r.stderr];
  }

  it('tx list --end-date before --start-date names the flags; --json keeps end_date', async () => {
    const words = ['tx', 'list', '--start-date', '2025-05-01', '--end-date', '2025-04-01'];
    expect(await stderrOf(words)).toEqual([1, 'error: INVALID_DATE_RANGE (end-date): --end-date must not be before --start-date\n']);
    const [code, json] = await stderrOf([...words, '--json']);
    expect([code, JSON.parse(json).error]).toEqual([1, { code: 'INVALID_DATE_RANGE', message: 'end_date must not be before start_date', field: 'end_date' }]);
  });

  it('tx list --wallet-id of no wallet names --wallet-id', async () => {
    expect(await stderrOf(['tx', 'list', '--wallet-id', 'wal_nope'])).toEqual([1, 'error: WALLET_NOT_FOUND (wallet-id): wallet wal_nope not found\n']);
  });
});
