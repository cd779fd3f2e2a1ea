/**
 * The one error type of txa. It carries the API's code (docs/reference/api.md "Error codes"), the offending
 * field (dotted when nested), the HTTP status and the CLI exit code (docs/architecture.md "Output and exit codes"), so the
 * engine, the server and the CLI all report a failure the same way.
 */

export type ErrorCode =
  | 'MISSING_REQUIRED_FIELD'
  | 'MISSING_REPORT_TYPE'
  | 'INVALID_TAG_TYPE'
  | 'INVALID_COLOR_FORMAT'
  | 'INVALID_FIELD'
  | 'INVALID_PARAMETERS'
  | 'INVALID_DATE_RANGE'
  | 'INVALID_JSON'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'INSUFFICIENT_PERMISSIONS'
  | 'INVALID_DOWNLOAD_TOKEN'
  | 'TAG_LIMIT_EXCEEDED'
  | 'TIER_LIMIT'
  | 'WORKSPACE_NOT_FOUND'
  | 'WALLET_NOT_FOUND'
  | 'TAG_NOT_FOUND'
  | 'TRANSACTION_NOT_FOUND'
  | 'EXPORT_NOT_FOUND'
  | 'WEBHOOK_NOT_FOUND'
  | 'SCHEDULE_NOT_FOUND'
  | 'KEY_NOT_FOUND'
  | 'MEMBER_NOT_FOUND'
  | 'INVITATION_NOT_FOUND'
  | 'INVITATION_EXISTS'
  | 'INVITATION_EXPIRED'
  | 'INVITATION_NOT_PENDING'
  | 'MEMBER_ALREADY_EXISTS'
  | 'LAST_ADMIN'
  | 'ATTACHMENT_NOT_FOUND'
  | 'TRANSFER_NOT_FOUND'
  | 'ASSERTION_NOT_FOUND'
  | 'INVALID_TRANSFER'
  | 'TRANSFER_EXISTS'
  | 'INVALID_ALLOCATION'
  | 'ALLOCATION_EXISTS'
  | 'INVALID_PICK'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'TAG_ALREADY_EXISTS'
  | 'WALLET_ALREADY_EXISTS'
  | 'WORKSPACE_ALREADY_EXISTS'
  | 'IDEMPOTENCY_KEY_IN_USE'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'EXPORT_EXPIRED'
  | 'EXPORT_NOT_READY'
  | 'EXPORT_TOO_LARGE'
  | 'PAYLOAD_TOO_LARGE'
  | 'RATE_LIMIT_EXCEEDED'
  | 'EXPORT_RATE_LIMIT_EXCEEDED'
  | 'CONCURRENT_EXPORT_LIMIT'
  | 'IMPORT_FAILED'
  | 'INVALID_RULES'
  | 'MISSING_RATE'
  | 'LEDGER_ERROR'
  | 'LEDGER_NOT_FOUND'
  | 'IO_ERROR'
  | 'CONNECTION_ERROR'
  | 'DELIVERY_FAILED'
  | 'INTERRUPTED'
  | 'EXPORT_CANCELLED'
  | 'EXPORT_NOT_CANCELLABLE'
  | 'LOCAL_ONLY'
  | 'SYNC_UNAUTHORIZED'
  | 'SYNC_UNSUPPORTED_CHAIN'
  | 'SYNC_FAILED'
  | 'USAGE_ERROR'
  | 'PERIOD_CLOSED'
  | 'UNRESOLVED_FINDINGS'
  | 'INTERNAL_ERROR';

interface CodeInfo {
  status: number;
  exit: number;
}

const EXIT_ERROR = 1;
const EXIT_USAGE = 2;
const EXIT_AUTH = 4;
const EXIT_LIMIT = 5;

const CODES: Record<ErrorCode, CodeInfo> = {
  MISSING_REQUIRED_FIELD: { status: 400, exit: EXIT_ERROR },
  MISSING_REPORT_TYPE: { status: 400, exit: EXIT_ERROR },
  INVALID_TAG_TYPE: { status: 400, exit: EXIT_ERROR },
  INVALID_COLOR_FORMAT: { status: 400, exit: EXIT_ERROR },
  INVALID_FIELD: { status: 400, exit: EXIT_ERROR },
  INVALID_PARAMETERS: { status: 400, exit: EXIT_ERROR },
  INVALID_DATE_RANGE: { status: 400, exit: EXIT_ERROR },
  INVALID_JSON: { status: 400, exit: EXIT_ERROR },
  UNAUTHORIZED: { status: 401, exit: EXIT_AUTH },
  FORBIDDEN: { status: 403, exit: EXIT_AUTH },
  INSUFFICIENT_PERMISSIONS: { status: 403, exit: EXIT_AUTH },
  INVALID_DOWNLOAD_TOKEN: { status: 403, exit: EXIT_AUTH },
  TAG_LIMIT_EXCEEDED: { status: 403, exit: EXIT_LIMIT },
  // A feature the workspace's tier does not include (scheduled reports on free: docs/server.md "Scheduled reports").
  TIER_LIMIT: { status: 403, exit: EXIT_LIMIT },
  WORKSPACE_NOT_FOUND: { status: 404, exit: EXIT_ERROR },
  WALLET_NOT_FOUND: { status: 404, exit: EXIT_ERROR },
  TAG_NOT_FOUND: { status: 404, exit: EXIT_ERROR },
  TRANSACTION_NOT_FOUND: { status: 404, exit: EXIT_ERROR },
  EXPORT_NOT_FOUND: { status: 404, exit: EXIT_ERROR },
  WEBHOOK_NOT_FOUND: { status: 404, exit: EXIT_ERROR },
  SCHEDULE_NOT_FOUND: { status: 404, exit: EXIT_ERROR },
  KEY_NOT_FOUND: { status: 404, exit: EXIT_ERROR },
  // Teams (docs/server.md "Teams"): an unknown member or invitation (or token); a second pending
  // invitation for one address; a link past its 7 days; one already accepted or revoked; an
  // address that is a member already; removing or demoting the workspace's last admin.
  MEMBER_NOT_FOUND: { status: 404, exit: EXIT_ERROR },
  INVITATION_NOT_FOUND: { status: 404, exit: EXIT_ERROR },
  INVITATION_EXISTS: { status: 400, exit: EXIT_ERROR },
  INVITATION_EXPIRED: { status: 410, exit: EXIT_ERROR },
  INVITATION_NOT_PENDING: { status: 409, exit: EXIT_ERROR },
  MEMBER_ALREADY_EXISTS: { status: 409, exit: EXIT_ERROR },
  LAST_ADMIN: { status: 409, exit: EXIT_ERROR },
  ATTACHMENT_NOT_FOUND: { status: 404, exit: EXIT_ERROR },
  TRANSFER_NOT_FOUND: { status: 404, exit: EXIT_ERROR },
  ASSERTION_NOT_FOUND: { status: 404, exit: EXIT_ERROR },
  INVALID_TRANSFER: { status: 400, exit: EXIT_ERROR },
  TRANSFER_EXISTS: { status: 409, exit: EXIT_ERROR },
  // Lots (docs/lots.md): a hand-made allocation that does not add up, a second allocation without
  // replace, a pick of a lot the disposal's wallet does not hold (or of more than it holds).
  INVALID_ALLOCATION: { status: 400, exit: EXIT_ERROR },
  ALLOCATION_EXISTS: { status: 409, exit: EXIT_ERROR },
  INVALID_PICK: { status: 400, exit: EXIT_ERROR },
  NOT_FOUND: { status: 404, exit: EXIT_ERROR },
  METHOD_NOT_ALLOWED: { status: 405, exit: EXIT_ERROR },
  TAG_ALREADY_EXISTS: { status: 409, exit: EXIT_ERROR },
  WALLET_ALREADY_EXISTS: { status: 409, exit: EXIT_ERROR },
  WORKSPACE_ALREADY_EXISTS: { status: 409, exit: EXIT_ERROR },
  IDEMPOTENCY_KEY_IN_USE: { status: 409, exit: EXIT_ERROR },
  IDEMPOTENCY_KEY_REUSED: { status: 422, exit: EXIT_ERROR },
  EXPORT_EXPIRED: { status: 410, exit: EXIT_ERROR },
  EXPORT_NOT_READY: { status: 409, exit: EXIT_ERROR },
  EXPORT_TOO_LARGE: { status: 413, exit: EXIT_LIMIT },
  PAYLOAD_TOO_LARGE: { status: 413, exit: EXIT_ERROR },
  RATE_LIMIT_EXCEEDED: { status: 429, exit: EXIT_LIMIT },
  EXPORT_RATE_LIMIT_EXCEEDED: { status: 429, exit: EXIT_LIMIT },
  CONCURRENT_EXPORT_LIMIT: { status: 429, exit: EXIT_LIMIT },
  IMPORT_FAILED: { status: 400, exit: EXIT_ERROR },
  INVALID_RULES: { status: 400, exit: EXIT_ERROR },
  MISSING_RATE: { status: 400, exit: EXIT_ERROR },
  LEDGER_ERROR: { status: 500, exit: EXIT_ERROR },
  // A read of a ledger file that does not exist (a mistyped --db or TXA_DB): only commands that create one may (docs/architecture.md).
  LEDGER_NOT_FOUND: { status: 404, exit: EXIT_ERROR },
  // Writing a file the user asked for failed on the device (disk full, quota, I/O error).
  IO_ERROR: { status: 500, exit: EXIT_ERROR },
  CONNECTION_ERROR: { status: 502, exit: EXIT_ERROR },
  // An export's e-mail or webhook call that did not go through: the code its record carries.
  DELIVERY_FAILED: { status: 502, exit: EXIT_ERROR },
  // An export job whose process was stopped (a signal, or gone) before it finished: a record's code.
  INTERRUPTED: { status: 500, exit: EXIT_ERROR },
  // An export ended by `txa export cancel` / POST /exports/:id/cancel: a record's code.
  EXPORT_CANCELLED: { status: 409, exit: EXIT_ERROR },
  EXPORT_NOT_CANCELLABLE: { status: 409, exit: EXIT_ERROR },
  LOCAL_ONLY: { status: 400, exit: EXIT_USAGE },
  // Wallet sync (docs/sync.md "Rate limits and errors"): the explorer refused the key, does not serve the chain, or failed.
  SYNC_UNAUTHORIZED: { status: 401, exit: EXIT_AUTH },
  SYNC_UNSUPPORTED_CHAIN: { status: 400, exit: EXIT_ERROR },
  SYNC_FAILED: { status: 502, exit: EXIT_ERROR },
  USAGE_ERROR: { status: 400, exit: EXIT_USAGE },
  // A write into a closed period (docs/periods.md).
  PERIOD_CLOSED: { status: 409, exit: EXIT_ERROR },
  // A `strict` report over a ledger with findings it notes (docs/periods.md, "Report notes").
  UNRESOLVED_FINDINGS: { status: 422, exit: EXIT_ERROR },
  INTERNAL_ERROR: { status: 500, exit: EXIT_ERROR },
};

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(CODES, code);
}

export interface TxaErrorOptions {
  field?: string;
  /** Extra members of the API's `error` object, e.g. `max_transactions` or `retry_after`. */
  extra?: Record<string, unknown>;
  /** A second line for humans: the next step. */
  hint?: string;
  cause?: unknown;
  /** The CLI's exit code when the table's does not apply (128 + the signal's number for INTERRUPTED). */
  exitCode?: number;
}

export class TxaError extends Error {
  readonly code: ErrorCode;
  readonly field: string | undefined;
  readonly extra: Record<string, unknown> | undefined;
  readonly hint: string | undefined;
  private readonly exit: number | undefined;

  constructor(code: ErrorCode, message: string, opts: TxaErrorOptions = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'TxaError';
    this.code = code;
    this.field = opts.field;
    this.extra = opts.extra;
    this.hint = opts.hint;
    this.exit = opts.exitCode;
  }

  get status(): number {
    return CODES[this.code].status;
  }

  get exitCode(): number {
    return this.exit ?? CODES[this.code].exit;
  }

  /** The API's failure body (docs/server.md "API conventions"); `field` left out where none applies. */
  toBody(): ErrorBody {
    const error: ErrorBody['error'] = { code: this.code, message: this.message };
    if (this.field !== undefined) error.field = this.field;
    if (this.extra) Object.assign(error, this.extra);
    return { success: false, error };
  }

  /** Rebuilds an error from an API failure body (the remote backend's side). */
  static fromBody(body: ErrorBody, status?: number): TxaError {
    const { code, message, field, ...extra } = body.error;
    const known: ErrorCode = isErrorCode(code) ? code : status && status >= 500 ? 'INTERNAL_ERROR' : 'INVALID_FIELD';
    const opts: TxaErrorOptions = { extra: Object.keys(extra).length ? extra : undefined };
    if (typeof field === 'string') opts.field = field;
    return new TxaError(known, String(message ?? code), opts);
  }
}

export interface ErrorBody {
  success: false;
  error: { code: string; message: string; field?: string; [extra: string]: unknown };
}

export const exitCodes = { ok: 0, error: EXIT_ERROR, usage: EXIT_USAGE, auth: EXIT_AUTH, limit: EXIT_LIMIT } as const;

export function notFound(code: ErrorCode, what: string, id: string): TxaError {
  return new TxaError(code, `${what} ${id} not found`);
}
