/**
 * Versioned schema migrations. Entry N (1-based) upgrades a ledger from user_version N-1 to N.
 * Append only: never edit a migration that has shipped. See docs/storage.md for the design.
 */
export const MIGRATIONS: string[] = [
  // 1: the ledger: workspaces, wallets, transactions, tags, attachments, rollups, event log.
  `
  CREATE TABLE workspaces (
    id            TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    tier          TEXT NOT NULL CHECK (tier IN ('free', 'pro', 'enterprise')),
    base_currency TEXT NOT NULL,
    rate_limit    INTEGER,
    created_at    TEXT NOT NULL
  );

  CREATE TABLE wallets (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    address      TEXT NOT NULL,
    chain        TEXT NOT NULL,
    label        TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    last_synced  TEXT,
    UNIQUE (workspace_id, chain, address)
  );

  -- amount: canonical decimal in token units; amount_key: its order-preserving text key
  -- (core/money.ts amountKey); fiat_cents: value in the base currency, integer cents.
  CREATE TABLE transactions (
    id             TEXT PRIMARY KEY,
    workspace_id   TEXT NOT NULL,
    wallet_id      TEXT NOT NULL REFERENCES wallets (id) ON DELETE CASCADE,
    chain          TEXT NOT NULL,
    tx_hash        TEXT NOT NULL,
    transfer_key   TEXT NOT NULL,
    from_address   TEXT NOT NULL,
    to_address     TEXT NOT NULL,
    token_symbol   TEXT NOT NULL,
    token_address  TEXT,
    token_decimals INTEGER NOT NULL,
    amount         TEXT NOT NULL,
    amount_key     TEXT NOT NULL,
    fiat_cents     INTEGER,
    direction      TEXT NOT NULL CHECK (direction IN ('inflow', 'outflow')),
    type           TEXT NOT NULL,
    ts             INTEGER NOT NULL,
    notes          TEXT,
    created_at     INTEGER NOT NULL,
    UNIQUE (wallet_id, tx_hash, transfer_key)
  );
  CREATE INDEX tx_by_time   ON transactions (workspace_id, ts, id);
  CREATE INDEX tx_by_chain  ON transactions (workspace_id, chain, ts, id);
  CREATE INDEX tx_by_wallet ON transactions (workspace_id, wallet_id, ts, id);
  CREATE INDEX tx_by_token  ON transactions (workspace_id, token_symbol COLLATE NOCASE, ts, id);
  CREATE INDEX tx_by_amount ON transactions (workspace_id, amount_key, ts, id);

  CREATE TABLE tags (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    name_key     TEXT NOT NULL,
    type         TEXT NOT NULL CHECK (type IN ('income', 'expense', 'neutral')),
    color        TEXT NOT NULL,
    description  TEXT,
    created_by   TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    UNIQUE (workspace_id, name_key)
  );

  CREATE TABLE transaction_tags (
    transaction_id TEXT NOT NULL REFERENCES transactions (id) ON DELETE CASCADE,
    tag_id         TEXT NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    PRIMARY KEY (transaction_id, tag_id)
  ) WITHOUT ROWID;
  CREATE INDEX transaction_tags_by_tag ON transaction_tags (tag_id, transaction_id);

  CREATE TABLE attachments (
    id             TEXT PRIMARY KEY,
    transaction_id TEXT NOT NULL REFERENCES transactions (id) ON DELETE CASCADE,
    file_name      TEXT NOT NULL,
    content_type   TEXT NOT NULL,
    file_size      INTEGER NOT NULL,
    sha256         TEXT NOT NULL,
    stored_name    TEXT NOT NULL,
    uploaded_at    TEXT NOT NULL
  );
  CREATE INDEX attachments_by_tx ON attachments (transaction_id);

  -- Daily rollups behind exact, fast summaries (store/rollups.ts).
  CREATE TABLE rollup_daily (
    workspace_id TEXT NOT NULL,
    day          INTEGER NOT NULL,
    wallet_id    TEXT NOT NULL,
    chain        TEXT NOT NULL,
    token_symbol TEXT NOT NULL,
    direction    TEXT NOT NULL,
    tx_count     INTEGER NOT NULL,
    fiat_cents   INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, day, wallet_id, token_symbol, direction)
  ) WITHOUT ROWID;

  -- The event log (CONTRACT §8): written in the same database transaction as each change.
  CREATE TABLE events (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    id           TEXT NOT NULL UNIQUE,
    workspace_id TEXT NOT NULL,
    type         TEXT NOT NULL,
    subject_id   TEXT,
    created_at   TEXT NOT NULL,
    payload      TEXT NOT NULL
  );
  CREATE INDEX events_by_workspace ON events (workspace_id, seq);
  CREATE INDEX events_by_subject ON events (subject_id, seq);
  `,
  // 2: exports, delivery jobs and FX rates (issue "Exports"); filled in by that work.
  `SELECT 1;`,
  // 3: API keys, webhook subscriptions and deliveries, idempotency keys (issue "txa serve").
  `SELECT 1;`,
];
