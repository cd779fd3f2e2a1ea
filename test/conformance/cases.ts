/**
 * The one list of conformance cases. Each runs `txa <args> --json` on a backend; ids created by
 * earlier cases (random per backend) are kept in `ids` under a name and used by later cases.
 */
import { WS } from '../server/seed.js';

export type Ids = Record<string, string>;

export interface Case {
  name: string;
  args: (ids: Ids) => string[];
  /** Keeps an id of the result for later cases. */
  save?: (body: any, ids: Ids) => void;
  exit?: number;
}

const long = (n: number) => 'x'.repeat(n);
const saveId = (name: string) => (b: any, ids: Ids) => {
  ids[name] = b.data.id;
};

/**
 * `ids` starts with the seeded transactions `tx0`, `tx1`, `tx2`, and for own transfers `pairOut`
 * and `pairIn` (a valid pair), `out2` (another outflow), `otherToken` (an inflow of another token)
 * and `foreign` (a row of another workspace).
 */
export function conformanceCases(): Case[] {
  // exit 2: a value no flag takes (its form, docs/cli.md "Flag values and exit codes"), refused by the CLI on both backends before any request.
  return [
    // tags
    { name: 'tags list, empty', args: () => ['tags', 'list'] },
    { name: 'tags create income', args: () => ['tags', 'create', '--name', 'Salary', '--type', 'income'], save: saveId('income') },
    {
      name: 'tags create with colour and description',
      args: () => ['tags', 'create', '--name', 'Gas', '--type', 'expense', '--color', '#abcdef', '--description', 'network fees'],
      save: saveId('gas'),
    },
    { name: 'tags create neutral', args: () => ['tags', 'create', '--name', 'Internal', '--type', 'neutral'], save: saveId('neutral') },
    { name: 'TAG_ALREADY_EXISTS (trimmed, case-insensitive)', args: () => ['tags', 'create', '--name', ' salary ', '--type', 'income'], exit: 1 },
    { name: 'INVALID_TAG_TYPE', args: () => ['tags', 'create', '--name', 'X', '--type', 'gift'], exit: 2 },
    { name: 'INVALID_COLOR_FORMAT', args: () => ['tags', 'create', '--name', 'X', '--type', 'income', '--color', 'red'], exit: 2 },
    { name: 'INVALID_FIELD name too long', args: () => ['tags', 'create', '--name', long(51), '--type', 'income'], exit: 1 },
    { name: 'INVALID_FIELD description too long', args: () => ['tags', 'create', '--name', 'Y', '--type', 'income', '--description', long(201)], exit: 1 },
    { name: 'missing name without a TTY is a usage error', args: () => ['tags', 'create', '--type', 'income'], exit: 2 },
    { name: 'tags update', args: (ids) => ['tags', 'update', ids.gas!, '--name', 'Fees', '--description', 'gas and bridge fees'] },
    { name: 'tags update to a taken name', args: (ids) => ['tags', 'update', ids.gas!, '--name', 'SALARY'], exit: 1 },
    { name: 'tags update bad colour', args: (ids) => ['tags', 'update', ids.gas!, '--color', '#12345'], exit: 2 },
    { name: 'tags update bad type', args: (ids) => ['tags', 'update', ids.gas!, '--type', 'loss'], exit: 2 },
    { name: 'tags update unknown', args: () => ['tags', 'update', 'tag_0000000000000000000a', '--name', 'Z'], exit: 1 },
    { name: 'tags delete unknown', args: () => ['tags', 'delete', 'tag_0000000000000000000a', '--yes'], exit: 1 },
    { name: 'tags list', args: () => ['tags', 'list'] },
    { name: 'tags list, page 2 of 1 per page', args: () => ['tags', 'list', '--limit', '1', '--page', '2'] },
    { name: 'tags list, limit over 100', args: () => ['tags', 'list', '--limit', '101'], exit: 2 },

    // transaction lists: filters, sorts, pages, summary
    { name: 'tx list default', args: () => ['tx', 'list'] },
    { name: 'tx list chain + limit', args: () => ['tx', 'list', '--chain', 'polygon', '--limit', '5'] },
    { name: 'tx list inflow by amount, page 2', args: () => ['tx', 'list', '--direction', 'inflow', '--sort', 'amount_desc', '--limit', '7', '--page', '2'] },
    { name: 'tx list date range ascending', args: () => ['tx', 'list', '--start-date', '2024-03-01', '--end-date', '2024-05-31', '--sort', 'timestamp_asc'] },
    {
      name: 'tx list token and amount bounds',
      args: () => ['tx', 'list', '--token', 'USDC', '--min-amount', '100', '--max-amount', '2000.5', '--sort', 'amount_asc'],
    },
    { name: 'tx list has notes', args: () => ['tx', 'list', '--has-notes', 'true'] },
    { name: 'tx list wallet', args: () => ['tx', 'list', '--wallet-id', 'wal_polygon', '--limit', '3'] },
    { name: 'tx list period', args: () => ['tx', 'list', '--period', '2024-Q2', '--limit', '4'] },
    { name: 'tx list all pages', args: () => ['tx', 'list', '--all', '--chain', 'ethereum'] },
    { name: 'tx list past the last page', args: () => ['tx', 'list', '--page', '99'] },
    { name: 'WALLET_NOT_FOUND', args: () => ['tx', 'list', '--wallet-id', 'wal_nope'], exit: 1 },
    { name: 'INVALID_PARAMETERS start_date', args: () => ['tx', 'list', '--start-date', '2024-13-01'], exit: 2 },
    { name: 'INVALID_DATE_RANGE', args: () => ['tx', 'list', '--start-date', '2024-05-01', '--end-date', '2024-04-01'], exit: 1 },
    { name: 'INVALID_PARAMETERS limit', args: () => ['tx', 'list', '--limit', '201'], exit: 2 },
    { name: 'INVALID_PARAMETERS page', args: () => ['tx', 'list', '--page', '0'], exit: 2 },
    { name: 'INVALID_PARAMETERS sort', args: () => ['tx', 'list', '--sort', 'fiat_desc'], exit: 2 },
    { name: 'INVALID_PARAMETERS min_amount', args: () => ['tx', 'list', '--min-amount', '-5'], exit: 2 },
    { name: 'INVALID_PARAMETERS max_amount over 78 integer digits', args: () => ['tx', 'list', '--max-amount', '1e99'], exit: 2 },

    // one transaction: get, tag, untag, update
    { name: 'tx get', args: (ids) => ['tx', 'get', ids.tx0!] },
    { name: 'TRANSACTION_NOT_FOUND', args: () => ['tx', 'get', 'tx_000000000000000000000000'], exit: 1 },
    { name: 'tx tag two tags', args: (ids) => ['tx', 'tag', ids.tx0!, ids.income!, ids.gas!] },
    { name: 'tx tag again (no change)', args: (ids) => ['tx', 'tag', ids.tx0!, ids.income!] },
    { name: 'tx tag unknown tag', args: (ids) => ['tx', 'tag', ids.tx0!, 'tag_0000000000000000000a'], exit: 1 },
    { name: 'tx tag unknown transaction', args: (ids) => ['tx', 'tag', 'tx_000000000000000000000000', ids.income!], exit: 1 },
    { name: 'tx list has tags', args: () => ['tx', 'list', '--has-tags', 'true'] },
    { name: 'tx list untagged, few', args: () => ['tx', 'list', '--has-tags', 'false', '--limit', '2'] },
    { name: 'tx list by tag ids', args: (ids) => ['tx', 'list', '--tag-ids', `${ids.gas},tag_0000000000000000000a`] },
    { name: 'tx list by tag names, any case', args: () => ['tx', 'list', '--tag-ids', 'fees,SALARY'] },
    { name: 'tx list unknown tag name', args: () => ['tx', 'list', '--tag-ids', 'Payroll'], exit: 1 },
    { name: 'tx tag by name', args: (ids) => ['tx', 'tag', ids.tx2!, 'internal'] },
    { name: 'tx untag by name', args: (ids) => ['tx', 'untag', ids.tx2!, 'Internal'] },
    { name: 'tx update unknown tag name', args: (ids) => ['tx', 'update', ids.tx2!, '--add-tag', 'Payroll'], exit: 1 },
    { name: 'tx untag', args: (ids) => ['tx', 'untag', ids.tx0!, ids.gas!] },
    { name: 'tx update notes', args: (ids) => ['tx', 'update', ids.tx1!, '--notes', 'paid invoice 42'] },
    { name: 'tx update adds tags', args: (ids) => ['tx', 'update', ids.tx1!, '--add-tag', ids.income!, '--add-tag', ids.neutral!] },
    { name: 'tx update remove tag', args: (ids) => ['tx', 'update', ids.tx1!, '--remove-tag', ids.neutral!] },
    { name: 'tx update clears notes', args: (ids) => ['tx', 'update', ids.tx2!, '--notes', ''] },
    { name: 'tx update unknown tag', args: (ids) => ['tx', 'update', ids.tx2!, '--add-tag', 'tag_0000000000000000000a'], exit: 1 },
    { name: 'tx attach', args: (ids) => ['tx', 'attach', ids.tx2!, 'receipt.txt'] },
    { name: 'tx get with the attachment', args: (ids) => ['tx', 'get', ids.tx2!] },
    { name: 'tx attach a missing file', args: (ids) => ['tx', 'attach', ids.tx2!, 'nope.txt'], exit: 1 },
    { name: 'tx update fiat value by hand', args: (ids) => ['tx', 'update', ids.tx1!, '--fiat-value', '123.45'] },
    { name: 'tx update fiat value negative', args: (ids) => ['tx', 'update', ids.tx1!, '--fiat-value', '-1'], exit: 2 },
    { name: 'tx update fiat value with 3 decimals', args: (ids) => ['tx', 'update', ids.tx1!, '--fiat-value', '1.005'], exit: 2 },
    { name: 'tx update fiat value not a number', args: (ids) => ['tx', 'update', ids.tx1!, '--fiat-value', 'abc'], exit: 2 },
    { name: 'tx history', args: (ids) => ['tx', 'history', ids.tx1!] },
    { name: 'tx history unknown', args: () => ['tx', 'history', 'tx_000000000000000000000000'], exit: 1 },

    // own transfers
    { name: 'transfers list, none matched or proposed', args: () => ['transfers', 'list'] },
    { name: 'transfers match', args: (ids) => ['transfers', 'match', ids.pairOut!, ids.pairIn!], save: saveId('transfer') },
    { name: 'TRANSFER_EXISTS', args: (ids) => ['transfers', 'match', ids.pairIn!, ids.out2!], exit: 1 },
    { name: 'INVALID_TRANSFER two outflows', args: (ids) => ['transfers', 'match', ids.out2!, ids.pairOut!], exit: 1 },
    { name: 'INVALID_TRANSFER different tokens', args: (ids) => ['transfers', 'match', ids.out2!, ids.otherToken!], exit: 1 },
    { name: 'INVALID_TRANSFER another workspace', args: (ids) => ['transfers', 'match', ids.out2!, ids.foreign!], exit: 1 },
    { name: 'transfers list matched', args: () => ['transfers', 'list', '--status', 'matched'] },
    { name: 'transfers list bad status', args: () => ['transfers', 'list', '--status', 'done'], exit: 2 },
    { name: 'tx list internal', args: () => ['tx', 'list', '--internal', 'true'] },
    { name: 'tx list not internal, few', args: () => ['tx', 'list', '--internal', 'false', '--limit', '2'] },
    { name: 'tx get a matched leg', args: (ids) => ['tx', 'get', ids.pairIn!] },
    { name: 'transfers unmatch', args: (ids) => ['transfers', 'unmatch', ids.pairOut!] },
    { name: 'transfers unmatch a row not matched', args: (ids) => ['transfers', 'unmatch', ids.pairOut!], exit: 1 },
    { name: 'transfers unmatch an unknown transfer', args: () => ['transfers', 'unmatch', 'trf_00000000000000000000'], exit: 1 },
    { name: 'tx history of a leg: matched and unmatched', args: (ids) => ['tx', 'history', ids.pairIn!] },

    { name: 'tags list with usage counts', args: () => ['tags', 'list'] },
    { name: 'tags delete', args: (ids) => ['tags', 'delete', ids.income!, '--yes'] },
    { name: 'tx get after the tag was deleted', args: (ids) => ['tx', 'get', ids.tx1!] },

    // wallets and events
    { name: 'wallet list', args: () => ['wallet', 'list'] },
    { name: 'wallet list by chain', args: () => ['wallet', 'list', '--chain', 'polygon'] },
    { name: 'wallet list bad limit', args: () => ['wallet', 'list', '--limit', '101'], exit: 2 },
    { name: 'wallet add', args: () => ['wallet', 'add', '--address', `0x${'Ab'.repeat(20)}`, '--chain', 'base', '--label', 'Cold'], save: saveId('wallet') },
    {
      name: 'wallet add with the default label',
      args: () => ['wallet', 'add', '--address', `0x${'cd'.repeat(20)}`, '--chain', 'gnosis'],
      save: saveId('wallet2'),
    },
    { name: 'WALLET_ALREADY_EXISTS (address in any case)', args: () => ['wallet', 'add', '--address', `0x${'ab'.repeat(20)}`, '--chain', 'base'], exit: 1 },
    { name: 'wallet add, bad address', args: () => ['wallet', 'add', '--address', '0x123', '--chain', 'base'], exit: 1 },
    {
      name: 'wallet add, bitcoin testnet address',
      args: () => ['wallet', 'add', '--chain', 'bitcoin', '--address', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx'],
      exit: 1,
    },
    {
      name: 'wallet add, bitcoin private key as xpub',
      args: () => [
        'wallet',
        'add',
        '--chain',
        'bitcoin',
        '--xpub',
        'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi',
      ],
      exit: 1,
    },
    { name: 'wallet add, unknown chain', args: () => ['wallet', 'add', '--address', `0x${'ef'.repeat(20)}`, '--chain', 'solana'], exit: 2 },
    {
      name: 'wallet add, label too long',
      args: () => ['wallet', 'add', '--address', `0x${'ef'.repeat(20)}`, '--chain', 'base', '--label', long(101)],
      exit: 1,
    },
    { name: 'wallet add --exchange', args: () => ['wallet', 'add', '--exchange', 'coinbase', '--label', 'Coinbase'], save: saveId('exchange') },
    { name: 'wallet sync of an exchange account: nothing to sync', args: (ids) => ['wallet', 'sync', ids.exchange!], exit: 1 },
    { name: 'wallet remove an exchange account', args: (ids) => ['wallet', 'remove', ids.exchange!, '--yes'] },
    { name: 'wallet update', args: (ids) => ['wallet', 'update', ids.wallet!, '--label', ' Cold storage '] },
    { name: 'wallet update, empty label', args: (ids) => ['wallet', 'update', ids.wallet!, '--label', ' '], exit: 1 },
    { name: 'wallet update, WALLET_NOT_FOUND', args: () => ['wallet', 'update', 'wal_nope', '--label', 'X'], exit: 1 },
    { name: 'wallet remove', args: (ids) => ['wallet', 'remove', ids.wallet2!, '--yes'] },
    { name: 'wallet remove, WALLET_NOT_FOUND', args: (ids) => ['wallet', 'remove', ids.wallet2!, '--yes'], exit: 1 },
    { name: 'wallet list after add, update, remove', args: () => ['wallet', 'list', '--chain', 'base'] },
    { name: 'events list, wallet events', args: () => ['events', 'list', '--type', 'wallet.updated'] },
    { name: 'events list by type', args: () => ['events', 'list', '--type', 'tag.updated'] },
    { name: 'events list, unknown type', args: () => ['events', 'list', '--type', 'tag.renamed'], exit: 2 },

    // scheduled reports (docs/server.md "Scheduled reports")
    { name: 'schedules list, empty', args: () => ['schedules', 'list'] },
    {
      name: 'schedules create, unknown frequency',
      args: () => ['schedules', 'create', '--name', 'M', '--every', 'hourly', '--format', 'csv', '--email', 'books@example.com'],
      exit: 2, // a word --every never takes: a usage error before any request (docs/cli.md)
    },
    {
      name: 'schedules create, a time zone that does not exist',
      args: () => [
        'schedules',
        'create',
        '--name',
        'M',
        '--every',
        'daily',
        '--time-zone',
        'Mars/Olympus_Mons',
        '--format',
        'csv',
        '--email',
        'books@example.com',
      ],
      exit: 1,
    },
    {
      name: 'schedules create, a report type CSV does not take',
      args: () => ['schedules', 'create', '--name', 'M', '--every', 'daily', '--format', 'csv', '--report-type', 'audit', '--email', 'books@example.com'],
      exit: 1,
    },
    {
      name: 'schedules create monthly',
      args: () => [
        'schedules',
        'create',
        '--name',
        'Monthly',
        '--every',
        'monthly',
        '--time-zone',
        'Europe/Berlin',
        '--format',
        'pdf',
        '--report-type',
        'summary',
        '--chain',
        'polygon',
        '--email',
        'books@example.com',
      ],
      save: saveId('schedule'),
    },
    { name: 'schedules list', args: () => ['schedules', 'list'] },
    { name: 'schedules delete', args: (ids) => ['schedules', 'delete', ids.schedule!, '--yes'] },
    { name: 'schedules delete, SCHEDULE_NOT_FOUND', args: (ids) => ['schedules', 'delete', ids.schedule!, '--yes'], exit: 1 },

    // exports
    {
      name: 'export create csv download',
      args: () => ['export', 'create', '--format', 'csv', '--chain', 'polygon', '--out', 'out.csv'],
      save: saveId('export'),
    },
    { name: 'export status', args: (ids) => ['export', 'status', ids.export!] },
    {
      name: 'export create, internal and spam filters',
      args: () => ['export', 'create', '--format', 'csv', '--internal', 'false', '--include-spam', '--out', 'out2.csv'],
    },
    { name: 'export create, bad internal', args: () => ['export', 'create', '--format', 'csv', '--internal', 'maybe'], exit: 2 },
    { name: 'export list', args: () => ['export', 'list'] },
    { name: 'MISSING_REPORT_TYPE', args: () => ['export', 'create', '--format', 'pdf'], exit: 1 },
    { name: 'export min_amount over 78 integer digits', args: () => ['export', 'create', '--format', 'csv', '--min-amount', '1e99'], exit: 2 },
    {
      name: 'export INVALID_DATE_RANGE',
      args: () => ['export', 'create', '--format', 'csv', '--start-date', '2024-05-01', '--end-date', '2024-05-01'],
      exit: 1,
    },
    { name: 'EXPORT_NOT_FOUND', args: () => ['export', 'status', 'exp_00000000000000000000'], exit: 1 },

    // lots (docs/lots.md): reads and refusals; a dry run records nothing, so nothing differs by actor
    { name: 'lots list, pooled', args: () => ['lots', 'list', '--at', '2024-06-30'] },
    { name: 'lots list, one asset, lifo', args: () => ['lots', '--at', '2024-12-31', '--asset', 'usdc', '--cost-basis', 'lifo'] },
    { name: 'lots allocate --dry-run', args: () => ['lots', 'allocate', '--order', 'hifo', '--dry-run'] },
    { name: 'lots allocate, a day that is none', args: () => ['lots', 'allocate', '--at', '2025-02-29'], exit: 2 },
    { name: 'lots allocation, none recorded', args: () => ['lots', 'allocation'], exit: 1 },
    { name: 'lots pick, unknown disposal', args: () => ['lots', 'pick', 'tx_000000000000000000000000', 'tx_000000000000000000000001'], exit: 1 },
    { name: 'lots picks, none', args: () => ['lots', 'picks'] },
    // members and invitations (docs/server.md "Teams"); no SMTP server on either side
    { name: 'members list, the owner', args: () => ['members', 'list'] },
    { name: 'members invite', args: () => ['members', 'invite', 'ana@example.com', '--role', 'editor'], save: saveId('invitation') },
    { name: 'members invite again, INVITATION_EXISTS', args: () => ['members', 'invite', 'ANA@example.com', '--role', 'viewer'], exit: 1 },
    { name: 'members invite, unknown --role', args: () => ['members', 'invite', 'bo@example.com', '--role', 'owner'], exit: 2 },
    { name: 'members invite, not an address', args: () => ['members', 'invite', 'bo at example', '--role', 'viewer'], exit: 1 },
    { name: 'members invitations', args: () => ['members', 'invitations'] },
    { name: 'members revoke-invitation', args: (ids) => ['members', 'revoke-invitation', ids.invitation!] },
    { name: 'members revoke-invitation, revoked already', args: (ids) => ['members', 'revoke-invitation', ids.invitation!], exit: 1 },
    { name: 'members update unknown', args: () => ['members', 'update', 'mem_0000000000000000000a', '--role', 'viewer'], exit: 1 },
    { name: 'members remove unknown', args: () => ['members', 'remove', 'mem_0000000000000000000a', '--yes'], exit: 1 },
    { name: 'members accept, unknown token', args: () => ['members', 'accept', 'txa_inv_unknown', '--email', 'ana@example.com'], exit: 1 },
    { name: 'events list, member events', args: () => ['events', 'list', '--type', 'member.invited'] },
    // closed periods (last: a close refuses the writes of the cases above)
    { name: 'period list, none', args: () => ['period', 'list'] },
    { name: 'period close, not a day', args: () => ['period', 'close', '--through', '2024-02-30'], exit: 2 },
    { name: 'period close, no --through', args: () => ['period', 'close'], exit: 2 },
    { name: 'period close', args: () => ['period', 'close', '--through', '2030-12-31', '--note', 'filed'] },
    { name: 'period close, closed already', args: () => ['period', 'close', '--through', '2030-06-30'], exit: 1 },
    { name: 'tx update in a closed period, PERIOD_CLOSED', args: (ids) => ['tx', 'update', ids.tx0!, '--notes', 'late'], exit: 1 },
    { name: 'period reopen, no --reason', args: () => ['period', 'reopen', '--through', '2030-12-31'], exit: 2 },
    { name: 'period reopen, not closed', args: () => ['period', 'reopen', '--through', '2029-12-31', '--reason', 'x'], exit: 1 },
    { name: 'period reopen', args: () => ['period', 'reopen', '--through', '2030-12-31', '--reason', 'amended return'] },
    { name: 'period list, closed and reopened', args: () => ['period', 'list'] },
    { name: 'events list, period events', args: () => ['events', 'list', '--type', 'period.reopened'] },
  ].map((c) => ({ ...c, args: (ids: Ids) => ['-w', WS, ...c.args(ids)] })) as Case[];
}
