/**
 * `GET /api/v1/openapi.json`: an OpenAPI 3.1 document whose request bodies are generated with
 * `z.toJSONSchema` from the same zod schemas that validate the requests, so the document cannot
 * drift from the validation.
 */
import { z } from 'zod';
import {
  tagApplySchema,
  tagCreateSchema,
  tagUpdateSchema,
  transferCreateSchema,
  txUpdateSchema,
  walletCreateSchema,
  walletUpdateSchema,
} from '../core/schemas.js';
import { exportCreateSchema } from '../core/export-schema.js';
import { ALLOCATION_ORDERS, POOL_METHODS, allocationCreateSchema, picksCreateSchema } from '../core/lots.js';
import { openingsCreateSchema } from '../core/opening-lots.js';
import { webhookCreateSchema } from '../engine/webhooks.js';
import { PUBLIC, rolesOf } from './permissions.js';
import { INVITATION_STATES, ROLE_LABELS, ROLES, invitationAcceptSchema, memberInviteSchema, memberUpdateSchema } from '../core/members.js';
import { scheduleCreateSchema } from '../core/schedule-schema.js';
import { CHAINS, DIRECTIONS, EXCHANGES, EXPORT_STATUSES, TAG_TYPES, TX_TYPES, WALLET_KINDS } from '../core/types.js';

type Json = Record<string, unknown>;

function schemaOf(schema: z.ZodType): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
  return rest;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonBody = (name: string) => ({ required: true, content: { 'application/json': { schema: ref(name) } } });
const param = (name: string, where: 'path' | 'query', description: string, required = where === 'path') => ({
  name,
  in: where,
  required,
  description,
  schema: { type: 'string' },
});
const success = (description: string, extra: Json = {}) => ({
  description,
  content: { 'application/json': { schema: { type: 'object', required: ['success'], properties: { success: { const: true }, data: {}, ...extra } } } },
});
const errors = {
  '4XX': { description: 'Failure (docs/reference/api.md "Error codes")', content: { 'application/json': { schema: ref('Error') } } },
  '5XX': { description: 'INTERNAL_ERROR', content: { 'application/json': { schema: ref('Error') } } },
};
const op = (summary: string, responses: Json, more: Json = {}) => ({ summary, ...more, responses: { ...responses, ...errors } });
const ws = param('workspace_id', 'query', "Workspace; defaults to the key's own");
/** Lists docs/server.md "API decisions" shows with `?workspace_id=`: there it is required. */
const wsRequired = param('workspace_id', 'query', "Workspace (the key's own)", true);
const listed = { pagination: ref('Pagination') };

const TX_QUERY = [
  'wallet_id',
  'chain',
  'token',
  'direction',
  'tag_ids',
  'start_date',
  'end_date',
  'min_amount',
  'max_amount',
  'has_tags',
  'has_notes',
  'internal',
  'include_spam',
  'sort',
  'page',
  'limit',
];

const str = { type: 'string' };
const strOrNull = { type: ['string', 'null'] };
const object = (properties: Record<string, Json>) => ({ type: 'object', required: Object.keys(properties), properties });

/** docs/reference/api.md "Transaction" with the fields docs/transfers.md adds, every one always present. */
const TRANSACTION = object({
  id: str,
  tx_hash: str,
  wallet_id: str,
  wallet_label: str,
  chain: { enum: [...CHAINS, null], description: 'null for a row of an exchange wallet' },
  from_address: str,
  to_address: str,
  token: object({ symbol: str, address: strOrNull, decimals: { type: 'integer' } }),
  amount: { type: 'string', description: 'Exact decimal in token units' },
  fiat_value: { type: ['number', 'null'] },
  direction: { enum: [...DIRECTIONS] },
  type: { enum: [...TX_TYPES] },
  timestamp: str,
  tags: { type: 'array', items: object({ id: str, name: str, color: str }) },
  notes: strOrNull,
  attachments: { type: 'array', items: object({ id: str, file_name: str, file_url: str, file_size: { type: 'integer' }, uploaded_at: str }) },
  explorer_url: { type: ['string', 'null'], description: 'Empty where the explorer has no page (beacon withdrawals); null for a row of an exchange wallet' },
  transfer: {
    oneOf: [
      { type: 'null' },
      object({ id: str, counterpart_id: strOrNull, kind: { enum: ['internal', 'bridge', 'exchange'] }, matched_by: { enum: ['auto', 'user', 'rule'] } }),
    ],
  },
  fiat_value_source: { enum: ['import', 'price', 'manual', null] },
  spam: { type: 'boolean' },
});

/** docs/reference/api.md "Wallet". */
const WALLET = object({
  id: str,
  kind: { enum: [...WALLET_KINDS] },
  exchange: { enum: [...EXCHANGES, null] },
  address: strOrNull,
  label: str,
  chain: { enum: [...CHAINS, null] },
  balance: object({
    native: str,
    tokens: { type: 'array', items: object({ symbol: str, address: strOrNull, balance: str, fiat_value: { type: ['number', 'null'] } }) },
    fiat_value: { type: 'number' },
  }),
  transaction_count: { type: 'integer' },
  created_at: str,
  last_synced: strOrNull,
});
const int = { type: 'integer' };
const TAG = object({
  id: str,
  name: str,
  type: { enum: [...TAG_TYPES] },
  color: str,
  description: strOrNull,
  workspace_id: str,
  created_by: str,
  created_at: str,
  usage_count: int,
});
const ATTACHMENT = object({ id: str, file_name: str, file_url: str, file_size: int, uploaded_at: str });
const HISTORY_FIELDS = {
  event_id: str,
  event: str,
  created_at: str,
  actor: strOrNull,
  changes: { type: 'object', additionalProperties: object({ old: {}, new: {} }) },
};
/** docs/transfers.md "The audit trail": `source` only on an import's or a sync's `transaction.created`. */
const HISTORY_ENTRY = {
  ...object(HISTORY_FIELDS),
  properties: {
    ...HISTORY_FIELDS,
    source: { type: 'object', required: ['format'], properties: { format: str, file_name: str, sha256: str, sync: str, chain: str, list: str } },
  },
};
const TRANSFER = object({
  id: strOrNull,
  status: { enum: ['matched', 'candidate'] },
  kind: { enum: ['internal', 'bridge', 'exchange'] },
  matched_by: { enum: ['auto', 'user', 'rule', null] },
  legs: { type: 'array', items: ref('Transaction') },
});
/** docs/reference/api.md "Export": the fields a state has are present, the rest absent. */
const EXPORT = {
  type: 'object',
  required: ['id', 'status', 'format', 'created_at'],
  properties: {
    id: str,
    status: { enum: [...EXPORT_STATUSES] },
    format: str,
    report_type: str,
    download_url: str,
    file_size: int,
    transaction_count: int,
    created_at: str,
    expires_at: str,
    progress: { type: 'number' },
    estimated_completion: str,
    status_url: str,
    delivery: {
      type: 'object',
      required: ['method'],
      properties: { method: { enum: ['download', 'email', 'webhook'] }, email_recipients: { type: 'array', items: str }, webhook_url: str },
    },
    error: object({ code: str, message: str }),
  },
};
const RUN_FIELDS = { period_start: str, period_end: str, export_id: str, ran_at: str };
/** docs/server.md "Scheduled reports". */
const SCHEDULE = object({
  id: str,
  workspace_id: str,
  name: str,
  every: { enum: ['daily', 'weekly', 'monthly', 'quarterly'] },
  time_zone: str,
  format: str,
  report_type: strOrNull,
  filters: { type: 'object' },
  options: { type: 'object' },
  delivery: EXPORT.properties.delivery,
  next_run_at: str,
  last_run: { oneOf: [{ type: 'null' }, object(RUN_FIELDS)] },
  created_at: str,
});
const SCHEDULE_RUN = object({ schedule_id: str, kind: { enum: ['scheduled', 'manual'] }, ...RUN_FIELDS, export: ref('Export') });
const WEBHOOK_FIELDS = { id: str, workspace_id: str, url: str, events: { type: 'array', items: str }, created_at: str };
const EVENT = object({
  id: str,
  type: str,
  workspace_id: str,
  created_at: str,
  payload: { type: 'object', description: 'The webhook body of the event (docs/server.md "Webhooks")' },
  deliveries: {
    type: 'array',
    items: object({
      webhook_id: strOrNull,
      url: str,
      status: { enum: ['pending', 'succeeded', 'failed'] },
      attempts: { type: 'array', items: object({ at: str, status_code: { type: ['integer', 'null'] }, error: strOrNull }) },
      next_attempt_at: strOrNull,
    }),
  },
});
const num = { type: 'number' };
const numOrNull = { type: ['number', 'null'] };
/** docs/lots.md: a lot is named by the id of the transaction that acquired it. */
const ALLOCATION_LINE = object({
  wallet_id: str,
  wallet_label: str,
  asset: str,
  lot: { type: ['string', 'null'], description: 'Acquiring transaction id; null: missing cost basis' },
  quantity: { type: 'string', description: 'Exact decimal' },
  date_acquired: strOrNull,
  cost_basis: numOrNull,
});
const ALLOCATION = object({
  at: str,
  order: { enum: [...ALLOCATION_ORDERS, 'specific'] },
  cost_basis: { enum: [...POOL_METHODS] },
  recorded: { type: 'boolean' },
  recorded_at: strOrNull,
  recorded_by: strOrNull,
  lines: { type: 'array', items: ALLOCATION_LINE },
});
const OPEN_LOTS = object({
  at: str,
  scope: { enum: ['universal', 'wallet'] },
  allocation: { enum: ['recorded', 'computed', null] },
  lots: {
    type: 'array',
    items: object({
      wallet_id: strOrNull,
      wallet_label: strOrNull,
      asset: str,
      lot: str,
      quantity: { type: 'string', description: 'Exact decimal' },
      date_acquired: str,
      cost_basis: num,
    }),
  },
});
const LOT_PICK = object({
  disposal_id: str,
  lot: str,
  quantity: { type: ['string', 'null'], description: 'Exact decimal; null: as much of the lot as the disposal still needs' },
  recorded_at: str,
  recorded_by: str,
  after_sale: { type: 'boolean' },
});
const OPENING_SOURCE = object({ format: { enum: ['opening-lots'] }, file_name: { type: ['string', 'null'] }, sha256: str });
const OPENING_LOT = object({
  id: { type: 'string', description: 'lot_…: the lot an opening line added' },
  wallet_id: str,
  wallet_label: str,
  asset: str,
  quantity: { type: 'string', description: 'Exact decimal' },
  date_acquired: { type: 'string', description: 'YYYY-MM-DD' },
  cost_basis: { type: 'number', description: "In the workspace's currency" },
  note: str,
  import_id: str,
  line: int,
  source: OPENING_SOURCE,
  created_at: str,
  created_by: str,
});
const PERIOD = object({
  workspace_id: str,
  through: { type: 'string', description: 'The last closed day, YYYY-MM-DD' },
  status: { enum: ['closed', 'reopened'] },
  from: { type: ['string', 'null'], description: 'First day of the period (the day after the close before it); null from the first row' },
  note: strOrNull,
  closed_at: str,
  closed_by: str,
  reopened_at: strOrNull,
  reopened_by: strOrNull,
  reason: strOrNull,
  digests: {
    type: ['object', 'null'],
    description: 'SHA-256 of the period rows and of each report (docs/periods.md "Digests")',
    properties: {
      rows: str,
      rows_version: { type: 'integer', description: "How rows was made: 2 from the rows' kept hashes; absent on closes recorded before it (version 1)" },
      reports: { type: 'object', additionalProperties: str },
    },
  },
  history: {
    type: 'array',
    items: object({ action: { enum: ['close', 'reopen'] }, at: str, actor: str, note: strOrNull, reason: strOrNull }),
  },
});
/** docs/server.md "Teams". */
const MEMBER_FIELDS = {
  id: str,
  workspace_id: str,
  email: { type: ['string', 'null'], description: 'null for the `owner` member the ledger made' },
  name: strOrNull,
  role: { enum: [...ROLES] },
  created_at: str,
  updated_at: strOrNull,
  removed_at: strOrNull,
};
const INVITATION_FIELDS = {
  id: str,
  workspace_id: str,
  email: str,
  role: { enum: [...ROLES] },
  status: { enum: [...INVITATION_STATES] },
  invited_by: { type: ['string', 'null'], description: 'The inviting member, or `cli`' },
  created_at: str,
  expires_at: { type: 'string', description: '7 days after created_at' },
  accepted_at: strOrNull,
  revoked_at: strOrNull,
  member_id: { type: ['string', 'null'], description: 'The member the acceptance made' },
};
const one = (name: string) => ({ data: ref(name) });
const many = (name: string) => ({ data: { type: 'array', items: ref(name) } });

let cached: Json | undefined;

export function openApiDocument(): Json {
  cached ??= withRoles({
    openapi: '3.1.0',
    info: {
      title: 'txa API',
      version: '1.0.0',
      description: 'Tags, transactions, exports and webhooks of a workspace (docs/server.md "API conventions"). `/v1/...` is an alias of `/api/v1/...`.',
    },
    servers: [{ url: '/api/v1' }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'txa_live_… key from `txa keys create`' } },
      schemas: {
        TagCreate: schemaOf(tagCreateSchema),
        TagUpdate: schemaOf(tagUpdateSchema),
        TagApply: schemaOf(tagApplySchema),
        TransactionUpdate: schemaOf(txUpdateSchema),
        TransferCreate: schemaOf(transferCreateSchema),
        Transaction: TRANSACTION,
        Wallet: WALLET,
        Tag: TAG,
        Attachment: ATTACHMENT,
        HistoryEntry: HISTORY_ENTRY,
        Transfer: TRANSFER,
        Export: EXPORT,
        Webhook: object(WEBHOOK_FIELDS),
        WebhookCreated: object({ ...WEBHOOK_FIELDS, secret: { type: 'string', description: 'The signing secret, returned only here' } }),
        Event: EVENT,
        Deleted: object({ id: str, deleted: { const: true } }),
        ExportCreate: schemaOf(exportCreateSchema),
        WalletCreate: schemaOf(walletCreateSchema),
        WalletUpdate: schemaOf(walletUpdateSchema),
        WalletSync: {
          type: 'object',
          required: ['id', 'wallet_id', 'status'],
          properties: {
            id: { type: 'string' },
            wallet_id: { type: 'string' },
            status: { enum: ['queued', 'running', 'completed', 'failed'] },
            chain: { type: 'string' },
            source: { enum: ['etherscan', 'blockscout', 'esplora', null] },
            new_transactions: { type: 'integer' },
            duplicates: { type: 'integer' },
            requests: { type: 'integer' },
            last_block: { type: ['integer', 'null'] },
            last_synced: { type: ['string', 'null'] },
            error: {
              oneOf: [
                { type: 'null' },
                { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } },
              ],
            },
            created_at: { type: 'string' },
            started_at: { type: ['string', 'null'] },
            completed_at: { type: ['string', 'null'] },
          },
        },
        WebhookCreate: schemaOf(webhookCreateSchema),
        ScheduleCreate: schemaOf(scheduleCreateSchema),
        Schedule: SCHEDULE,
        ScheduleRun: SCHEDULE_RUN,
        AllocationCreate: schemaOf(allocationCreateSchema),
        PicksCreate: schemaOf(picksCreateSchema),
        Allocation: ALLOCATION,
        OpenLots: OPEN_LOTS,
        LotPick: LOT_PICK,
        PicksDeleted: object({ disposal_id: str, deleted: int }),
        OpeningsCreate: schemaOf(openingsCreateSchema),
        OpeningLot: OPENING_LOT,
        OpeningImport: object({
          import_id: str,
          source: OPENING_SOURCE,
          dry_run: { type: 'boolean' },
          added: { type: 'array', items: OPENING_LOT },
          skipped: { type: 'array', items: object({ line: int, lot: str }) },
        }),
        OpeningsRemoved: object({ import_id: str, removed: int }),
        Period: PERIOD,
        Member: object(MEMBER_FIELDS),
        MemberRemoved: object({ ...MEMBER_FIELDS, revoked_keys: { type: 'integer', description: 'Keys of the member the removal revoked' } }),
        Invitation: object(INVITATION_FIELDS),
        InvitationSent: object({
          ...INVITATION_FIELDS,
          token: { type: 'string', description: 'The one-time token (txa_inv_…), returned only here' },
          email_sent: { type: 'boolean' },
          email_error: { type: ['string', 'null'], description: 'Why the e-mail did not go out' },
        }),
        InvitationAccepted: object({
          member: ref('Member'),
          api_key: object({ id: str, key: { type: 'string', description: 'txa_live_…, returned only here' }, access: str, prefix: str, created_at: str }),
        }),
        MemberInvite: schemaOf(memberInviteSchema),
        MemberUpdate: schemaOf(memberUpdateSchema),
        InvitationAccept: schemaOf(invitationAcceptSchema),
        PeriodClose: {
          type: 'object',
          required: ['through'],
          properties: { workspace_id: str, through: { type: 'string', description: 'YYYY-MM-DD' }, note: { type: 'string', maxLength: 2000 } },
        },
        PeriodReopen: {
          type: 'object',
          required: ['through', 'reason'],
          properties: { workspace_id: str, through: { type: 'string', description: 'YYYY-MM-DD' }, reason: { type: 'string', maxLength: 2000 } },
        },
        Pagination: {
          type: 'object',
          properties: { total: { type: 'integer' }, page: { type: 'integer' }, pages: { type: 'integer' }, limit: { type: 'integer' } },
        },
        Summary: {
          type: 'object',
          properties: {
            total_inflow: { type: 'number' },
            total_outflow: { type: 'number' },
            net_flow: { type: 'number' },
            transaction_count: { type: 'integer' },
          },
        },
        Error: {
          type: 'object',
          required: ['success', 'error'],
          properties: {
            success: { const: false },
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: { code: { type: 'string' }, message: { type: 'string' }, field: { type: 'string' } },
            },
          },
        },
      },
    },
    paths: {
      '/health': { get: op('Health check (no key)', { 200: success('ok') }, { security: [] }) },
      '/tags': {
        get: op('List tags, by name', { 200: success('Tags', many('Tag')) }, { parameters: [wsRequired] }),
        post: op('Create a tag (emits tag.created)', { 201: success('The tag', one('Tag')) }, { requestBody: jsonBody('TagCreate') }),
      },
      '/tags/{tag_id}': {
        patch: op(
          'Update a tag (emits tag.updated)',
          { 200: success('The tag', one('Tag')) },
          { parameters: [param('tag_id', 'path', 'Tag id')], requestBody: jsonBody('TagUpdate') },
        ),
        delete: op('Delete a tag (emits tag.deleted)', { 200: success('{id, deleted}', one('Deleted')) }, { parameters: [param('tag_id', 'path', 'Tag id')] }),
      },
      '/transactions': {
        get: op(
          'Filtered page of transactions with totals',
          { 200: success('Page', { ...many('Transaction'), ...listed, summary: ref('Summary') }) },
          {
            parameters: [wsRequired, ...TX_QUERY.map((p) => param(p, 'query', `Filter ${p} (docs/server.md "Filters, dates and amounts")`))],
          },
        ),
      },
      '/transactions/{transaction_id}': {
        get: op(
          'One transaction',
          { 200: success('The transaction', one('Transaction')) },
          { parameters: [param('transaction_id', 'path', 'Transaction id')] },
        ),
        patch: op(
          'Notes and tags (emits transaction.updated / transaction.tagged)',
          { 200: success('The transaction', one('Transaction')) },
          {
            parameters: [param('transaction_id', 'path', 'Transaction id')],
            requestBody: jsonBody('TransactionUpdate'),
          },
        ),
      },
      '/transactions/{transaction_id}/history': {
        get: op(
          'Changes of the transaction, oldest first, with actor and old/new values',
          { 200: success('History entries', many('HistoryEntry')) },
          {
            parameters: [param('transaction_id', 'path', 'Transaction id')],
          },
        ),
      },
      '/transfers': {
        get: op(
          'Own transfers: matched, then proposed (candidates)',
          { 200: success('Page', { ...many('Transfer'), ...listed }) },
          {
            parameters: [wsRequired, param('status', 'query', 'matched or candidate'), param('page', 'query', 'Page'), param('limit', 'query', '1 to 200')],
          },
        ),
        post: op(
          'Match two transactions as one own transfer (emits transaction.updated for both)',
          { 201: success('The transfer', one('Transfer')) },
          { requestBody: jsonBody('TransferCreate') },
        ),
      },
      '/transfers/{transfer_id}': {
        delete: op(
          'Unmatch: the legs become free rows (emits transaction.updated for both)',
          { 200: success('{id, deleted}', one('Deleted')) },
          {
            parameters: [param('transfer_id', 'path', 'Transfer id')],
          },
        ),
      },
      '/transactions/{transaction_id}/tags': {
        post: op(
          'Apply tags (emits transaction.tagged)',
          { 200: success('The transaction', one('Transaction')) },
          {
            parameters: [param('transaction_id', 'path', 'Transaction id')],
            requestBody: jsonBody('TagApply'),
          },
        ),
      },
      '/transactions/{transaction_id}/tags/{tag_id}': {
        delete: op(
          'Remove a tag',
          { 200: success('The transaction', one('Transaction')) },
          { parameters: [param('transaction_id', 'path', 'Transaction id'), param('tag_id', 'path', 'Tag id')] },
        ),
      },
      '/transactions/{transaction_id}/attachments': {
        post: op(
          'Attach a file (raw body, X-File-Name; 10 MB)',
          { 201: success('The attachment', one('Attachment')) },
          {
            parameters: [param('transaction_id', 'path', 'Transaction id'), { name: 'X-File-Name', in: 'header', required: true, schema: { type: 'string' } }],
            requestBody: { required: true, content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } },
          },
        ),
      },
      '/attachments/{attachment_id}': {
        get: op('The file of an attachment', { 200: { description: 'The file' } }, { parameters: [param('attachment_id', 'path', 'Attachment id')] }),
      },
      '/wallets': {
        get: op(
          'Wallets with balances',
          { 200: success('Page', { ...many('Wallet'), ...listed }) },
          { parameters: [wsRequired, param('chain', 'query', 'Chain'), param('page', 'query', 'Page'), param('limit', 'query', '1 to 100')] },
        ),
        post: op(
          'Add a wallet (emits wallet.created; 409 WALLET_ALREADY_EXISTS)',
          { 201: success('The wallet', one('Wallet')) },
          { requestBody: jsonBody('WalletCreate') },
        ),
      },
      '/wallets/{wallet_id}': {
        patch: op(
          'Rename a wallet (emits wallet.updated)',
          { 200: success('The wallet', one('Wallet')) },
          { parameters: [param('wallet_id', 'path', 'Wallet id')], requestBody: jsonBody('WalletUpdate') },
        ),
        delete: op(
          'Remove a wallet and its transactions (emits wallet.deleted)',
          { 200: success('{id, deleted}', one('Deleted')) },
          { parameters: [param('wallet_id', 'path', 'Wallet id')] },
        ),
      },
      '/wallets/{wallet_id}/sync': {
        post: op(
          "Sync the wallet from its explorer in the server's worker; answers the queued sync, or the one already queued or running",
          { 202: success('The sync', one('WalletSync')) },
          {
            parameters: [param('wallet_id', 'path', 'Wallet id')],
          },
        ),
        get: op(
          'The newest sync of the wallet (404 NOT_FOUND before the first)',
          { 200: success('The sync', one('WalletSync')) },
          { parameters: [param('wallet_id', 'path', 'Wallet id')] },
        ),
      },
      '/exports': {
        get: op(
          'Exports, newest first',
          { 200: success('Page', { ...many('Export'), ...listed }) },
          { parameters: [wsRequired, param('page', 'query', 'Page'), param('limit', 'query', 'Page size')] },
        ),
        post: op(
          'Create an export',
          { 201: success('Completed download export', one('Export')), 202: success('Queued export', one('Export')) },
          { requestBody: jsonBody('ExportCreate') },
        ),
      },
      '/exports/{export_id}': {
        get: op('Export status', { 200: success('The export', one('Export')) }, { parameters: [param('export_id', 'path', 'Export id')] }),
      },
      '/exports/{export_id}/cancel': {
        post: op(
          'Cancel a queued or processing export: it becomes failed with error EXPORT_CANCELLED (409 EXPORT_NOT_CANCELLABLE once it has ended)',
          { 200: success('The export', one('Export')) },
          {
            parameters: [param('export_id', 'path', 'Export id')],
          },
        ),
      },
      '/exports/{export_id}/download': {
        get: op(
          'The file of a completed export (signed link, no key)',
          { 200: { description: 'The file' } },
          {
            security: [],
            parameters: [
              param('export_id', 'path', 'Export id'),
              param('expires', 'query', 'Unix seconds', true),
              param('token', 'query', 'HMAC-SHA256, hex', true),
            ],
          },
        ),
      },
      '/webhooks': {
        get: op('Subscriptions', { 200: success('Webhooks', many('Webhook')) }, { parameters: [ws] }),
        post: op(
          'Subscribe (the signing secret is returned once)',
          { 201: success('The webhook with its secret', one('WebhookCreated')) },
          { requestBody: jsonBody('WebhookCreate') },
        ),
      },
      '/webhooks/{webhook_id}': {
        delete: op('Unsubscribe', { 200: success('{id, deleted}', one('Deleted')) }, { parameters: [param('webhook_id', 'path', 'Webhook id')] }),
      },
      '/schedules': {
        get: op(
          'Scheduled reports, each with its next and last run (docs/server.md "Scheduled reports")',
          { 200: success('Schedules', many('Schedule')) },
          {
            parameters: [ws],
          },
        ),
        post: op(
          'Schedule a report: each run exports the last complete day, ISO week, month or quarter and delivers it (Pro and Enterprise; free is TIER_LIMIT)',
          { 201: success('The schedule', one('Schedule')) },
          { requestBody: jsonBody('ScheduleCreate') },
        ),
      },
      '/schedules/{schedule_id}': {
        delete: op(
          'Delete a schedule (its exports stay)',
          { 200: success('{id, deleted}', one('Deleted')) },
          {
            parameters: [param('schedule_id', 'path', 'Schedule id')],
          },
        ),
      },
      '/schedules/{schedule_id}/run': {
        post: op(
          "Run now: export the last complete period and deliver it (the period's scheduled run if not made yet); the export is queued",
          { 202: success('The run and its queued export', one('ScheduleRun')) },
          { parameters: [param('schedule_id', 'path', 'Schedule id')] },
        ),
      },
      '/periods': {
        get: op('Closed periods, each with its state and history (docs/periods.md)', { 200: success('Periods', many('Period')) }, { parameters: [ws] }),
        post: op(
          'Close every day through a date: writes into it are refused with PERIOD_CLOSED; records the digests (admin key)',
          { 201: success('The period', one('Period')) },
          { requestBody: jsonBody('PeriodClose') },
        ),
      },
      '/periods/reopen': {
        post: op(
          'Reopen the latest closed period, with a reason (admin key)',
          { 200: success('The period', one('Period')) },
          { requestBody: jsonBody('PeriodReopen') },
        ),
      },
      '/events': {
        get: op(
          'Event log with delivery state',
          { 200: success('Page', { ...many('Event'), ...listed }) },
          { parameters: [wsRequired, param('type', 'query', 'Event type'), param('page', 'query', 'Page'), param('limit', 'query', '1 to 200')] },
        ),
      },
      '/lots': {
        get: op(
          'Open lots at the end of a UTC day, in the scope of that date: pooled before 2025, per wallet from then on (docs/lots.md)',
          { 200: success('The open lots', one('OpenLots')) },
          {
            parameters: [
              wsRequired,
              param('at', 'query', 'YYYY-MM-DD (default today)'),
              param('wallet_id', 'query', 'Only this wallet'),
              param('asset', 'query', 'Only this asset (symbol)'),
              param('cost_basis', 'query', 'How disposals took lots: specific (default: the picks, then fifo), fifo, lifo or hifo'),
            ],
          },
        ),
      },
      '/lots/allocation': {
        get: op(
          'The recorded transition allocation (404 NOT_FOUND while none is)',
          { 200: success('The allocation', one('Allocation')) },
          { parameters: [wsRequired] },
        ),
        post: op(
          'Compute and record the allocation of the pooled lots to wallets (emits lots.allocated; 409 ALLOCATION_EXISTS without replace; 400 INVALID_ALLOCATION for lines that do not add up)',
          { 201: success('The recorded allocation', one('Allocation')), 200: success('A dry run: computed, not recorded', one('Allocation')) },
          { requestBody: jsonBody('AllocationCreate') },
        ),
      },
      '/lots/picks': {
        get: op(
          'Picks of specific identification, of one disposal or all',
          { 200: success('Picks', many('LotPick')) },
          { parameters: [wsRequired, param('disposal_id', 'query', 'Only this disposal')] },
        ),
        post: op(
          "Record which lots a disposal takes (emits lots.picked; 400 INVALID_PICK, field the lot); answers the disposal's picks",
          { 201: success("The disposal's picks", many('LotPick')) },
          { requestBody: jsonBody('PicksCreate') },
        ),
      },
      '/lots/picks/{disposal_id}': {
        delete: op(
          "Remove a disposal's picks (emits lots.unpicked)",
          { 200: success('{disposal_id, deleted}', one('PicksDeleted')) },
          { parameters: [param('disposal_id', 'path', 'Disposal transaction id')] },
        ),
      },
      '/lots/openings': {
        get: op(
          'Opening lots (lots carried in from records kept elsewhere), by day',
          { 200: success('Opening lots', many('OpeningLot')) },
          { parameters: [wsRequired] },
        ),
        post: op(
          'Import opening lots from CSV text (`csv`) or JSON `lines` (emits lots.imported; 400 INVALID_FIELD naming the line; 409 PERIOD_CLOSED; lines already held are skipped)',
          { 201: success('The import', one('OpeningImport')), 200: success('A dry run: checked, not written', one('OpeningImport')) },
          { requestBody: jsonBody('OpeningsCreate') },
        ),
      },
      '/lots/openings/{import_id}': {
        delete: op(
          "Remove one import's opening lots (emits lots.openings_removed; 404 NOT_FOUND)",
          { 200: success('{import_id, removed}', one('OpeningsRemoved')) },
          { parameters: [param('import_id', 'path', 'The import (opn_…)')] },
        ),
      },
      '/workspaces/{workspace_id}/members': {
        get: op(
          'Members of the workspace, oldest first (docs/server.md "Teams")',
          { 200: success('Members', many('Member')) },
          {
            parameters: [param('workspace_id', 'path', "The key's workspace")],
          },
        ),
        post: op(
          'Invite an address with a role, e-mailed through the SMTP server exports use (emits member.invited; 400 INVITATION_EXISTS while one is pending; 409 MEMBER_ALREADY_EXISTS)',
          { 201: success('The invitation, with its token once', one('InvitationSent')) },
          { parameters: [param('workspace_id', 'path', "The key's workspace")], requestBody: jsonBody('MemberInvite') },
        ),
      },
      '/workspaces/{workspace_id}/members/{member_id}': {
        patch: op(
          "Change a member's role (emits member.updated; 409 LAST_ADMIN for the last admin)",
          { 200: success('The member', one('Member')) },
          {
            parameters: [param('workspace_id', 'path', "The key's workspace"), param('member_id', 'path', 'Member id')],
            requestBody: jsonBody('MemberUpdate'),
          },
        ),
        delete: op(
          'Remove a member and revoke its keys (emits member.removed; 409 LAST_ADMIN for the last admin)',
          { 200: success('The member, removed', one('MemberRemoved')) },
          { parameters: [param('workspace_id', 'path', "The key's workspace"), param('member_id', 'path', 'Member id')] },
        ),
      },
      '/workspaces/{workspace_id}/invitations': {
        get: op(
          'Invitations with their state, newest first',
          { 200: success('Invitations', many('Invitation')) },
          {
            parameters: [param('workspace_id', 'path', "The key's workspace")],
          },
        ),
      },
      '/workspaces/{workspace_id}/invitations/{invitation_id}': {
        delete: op(
          'Revoke a pending invitation (409 INVITATION_NOT_PENDING otherwise)',
          { 200: success('The invitation, revoked', one('Invitation')) },
          { parameters: [param('workspace_id', 'path', "The key's workspace"), param('invitation_id', 'path', 'Invitation id')] },
        ),
      },
      '/invitations/{token}/accept': {
        post: op(
          'Accept an invitation with the address it was sent to (no key: the token is the credential; emits member.joined; 403 FORBIDDEN for another address, 410 INVITATION_EXPIRED, 409 INVITATION_NOT_PENDING once used or revoked)',
          { 201: success('The member and its API key, shown once', one('InvitationAccepted')) },
          { parameters: [param('token', 'path', 'The token of the invitation (txa_inv_…)')], requestBody: jsonBody('InvitationAccept'), security: [] },
        ),
      },
      '/openapi.json': { get: op('This document', { 200: { description: 'OpenAPI 3.1' } }, { security: [] }) },
    },
  });
  return cached;
}

/** Each keyed operation names the roles that may call it (`x-roles`), from the one role table (permissions.ts). */
function withRoles(doc: Json): Json {
  for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(ops)) {
      const roles = rolesOf(method.toUpperCase(), path.replace(/\{\w+\}/g, ':x'));
      if (roles !== PUBLIC) op['x-roles'] = roles.map((r) => ROLE_LABELS[r]);
    }
  }
  return doc;
}
