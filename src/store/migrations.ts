/**
 * Versioned schema migrations. Entry N (1-based) upgrades a ledger from user_version N-1 to N.
 * Append only: never edit a migration that has shipped. See docs/storage.md for the design.
 */
/** The columns of `transactions` a row's digest line holds (migration 33's triggers; docs/periods.md "Digests"). */
const ROW_HASH_COLUMNS = `id, workspace_id, wallet_id, chain, tx_hash, transfer_key, from_address, to_address,
    token_symbol, token_address, token_decimals, amount, fiat_cents, fiat_value_source, direction, type, ts, notes, spam, method,
    transfer_id, tag_count, attachment_count`;

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

  -- id is derived from the identity (wallet, tx_hash, transfer_key) (core/ids.ts), so the primary
  -- key alone enforces it. amount: canonical decimal in token units; amount_key: its
  -- order-preserving text key (core/money.ts amountKey); fiat_cents: base currency, integer cents.
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
    created_at     INTEGER NOT NULL
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

  -- The event log (docs/storage.md "The event log"): written in the same database transaction as each change.
  CREATE TABLE events (
    seq          INTEGER PRIMARY KEY,
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
  `
  -- The export records double as the job queue (engine/export-jobs.ts): queued rows are claimed
  -- atomically; worker + heartbeat_ts tell a live job from one left behind by a dead process.
  CREATE TABLE exports (
    id                   TEXT PRIMARY KEY,
    workspace_id         TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    status               TEXT NOT NULL CHECK (status IN ('queued', 'processing', 'completed', 'failed', 'expired')),
    format               TEXT NOT NULL CHECK (format IN ('csv', 'json', 'pdf')),
    report_type          TEXT,
    request              TEXT NOT NULL,
    delivery             TEXT NOT NULL,
    file_name            TEXT,
    file_size            INTEGER,
    transaction_count    INTEGER,
    sha256               TEXT,
    progress             INTEGER NOT NULL DEFAULT 0,
    estimated_completion TEXT,
    error_code           TEXT,
    error_message        TEXT,
    worker               TEXT,
    heartbeat_ts         INTEGER,
    created_at           TEXT NOT NULL,
    created_ts           INTEGER NOT NULL,
    completed_at         TEXT,
    expires_at           TEXT NOT NULL,
    expires_ts           INTEGER NOT NULL
  );
  CREATE INDEX exports_by_workspace ON exports (workspace_id, created_ts);
  CREATE INDEX exports_by_status ON exports (status, created_ts);

  -- Daily FX rates: 1 unit of the workspace's base currency = rate units of currency (exact decimal text).
  CREATE TABLE rates (
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    day          TEXT NOT NULL,
    currency     TEXT NOT NULL,
    rate         TEXT NOT NULL,
    PRIMARY KEY (workspace_id, currency, day)
  ) WITHOUT ROWID;

  -- Ledger-wide settings, e.g. the secret that signs download links (created on first use).
  CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) WITHOUT ROWID;

  -- Per-workspace secret signing export.completed deliveries to delivery.webhook_url.
  CREATE TABLE workspace_secrets (
    workspace_id   TEXT PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    webhook_secret TEXT NOT NULL
  ) WITHOUT ROWID;
  `,
  // 3: API keys, webhook subscriptions and deliveries, idempotency keys (issue "txa serve").
  `
  -- Keys are stored only as SHA-256 hashes; prefix (the first characters) is what keys list shows.
  CREATE TABLE api_keys (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    name         TEXT,
    access       TEXT NOT NULL CHECK (access IN ('read', 'write', 'full')),
    key_hash     TEXT NOT NULL UNIQUE,
    prefix       TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    last_used_at TEXT,
    revoked_at   TEXT
  );
  CREATE INDEX api_keys_by_workspace ON api_keys (workspace_id, created_at);

  -- The hourly request budget of each workspace (fixed window), flushed by serve every second.
  CREATE TABLE api_usage (
    workspace_id TEXT PRIMARY KEY,
    window_start INTEGER NOT NULL,
    count        INTEGER NOT NULL
  );

  -- Idempotency-Key records (docs/server.md "Idempotency-Key"): kept 24 hours.
  CREATE TABLE idempotency_keys (
    workspace_id TEXT NOT NULL,
    key          TEXT NOT NULL,
    fingerprint  TEXT NOT NULL,
    state        TEXT NOT NULL CHECK (state IN ('running', 'done')),
    status       INTEGER,
    response     TEXT,
    created_at   INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, key)
  );

  CREATE TABLE webhooks (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    url          TEXT NOT NULL,
    events       TEXT NOT NULL,
    secret       TEXT NOT NULL,
    created_at   TEXT NOT NULL
  );
  CREATE INDEX webhooks_by_workspace ON webhooks (workspace_id, created_at);

  -- One row per (event, subscription); next_attempt_at (Unix ms) is the retry schedule.
  CREATE TABLE webhook_deliveries (
    id              TEXT PRIMARY KEY,
    event_id        TEXT NOT NULL,
    webhook_id      TEXT REFERENCES webhooks (id) ON DELETE SET NULL,
    url             TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
    attempt_count   INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER
  );
  CREATE INDEX deliveries_by_event ON webhook_deliveries (event_id);
  CREATE INDEX deliveries_due ON webhook_deliveries (status, next_attempt_at);

  -- Every event gets its deliveries in the transaction that appends it, whichever process
  -- writes it (serve, the CLI, an import): an event is never committed without them.
  CREATE TRIGGER events_schedule_deliveries AFTER INSERT ON events
  BEGIN
    INSERT INTO webhook_deliveries (id, event_id, webhook_id, url, status, attempt_count, next_attempt_at)
    SELECT 'dlv_' || lower(hex(randomblob(10))), NEW.id, w.id, w.url, 'pending', 0, CAST(unixepoch('subsec') * 1000 AS INTEGER)
    FROM webhooks w
    WHERE w.workspace_id = NEW.workspace_id
      AND EXISTS (SELECT 1 FROM json_each(w.events) e WHERE e.value IN ('*', NEW.type));
  END;

  CREATE TABLE webhook_attempts (
    delivery_id TEXT NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempt     INTEGER NOT NULL,
    at          TEXT NOT NULL,
    status_code INTEGER,
    error       TEXT,
    PRIMARY KEY (delivery_id, attempt)
  ) WITHOUT ROWID;
  `,
  // 4: monthly rollups (issue "monthly rollups"), filled from the daily ones of existing ledgers.
  `
  -- month: the epoch day (days since 1970-01-01) of the first day of the UTC month, so it
  -- compares with rollup_daily.day directly (store/rollups.ts monthOf).
  CREATE TABLE rollup_monthly (
    workspace_id TEXT NOT NULL,
    month        INTEGER NOT NULL,
    wallet_id    TEXT NOT NULL,
    chain        TEXT NOT NULL,
    token_symbol TEXT NOT NULL,
    direction    TEXT NOT NULL,
    tx_count     INTEGER NOT NULL,
    fiat_cents   INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, month, wallet_id, token_symbol, direction)
  ) WITHOUT ROWID;

  INSERT INTO rollup_monthly (workspace_id, month, wallet_id, chain, token_symbol, direction, tx_count, fiat_cents)
  SELECT workspace_id, unixepoch(day * 86400, 'unixepoch', 'start of month') / 86400 AS month,
         wallet_id, min(chain), token_symbol, direction, sum(tx_count), sum(fiat_cents)
  FROM rollup_daily
  GROUP BY workspace_id, month, wallet_id, token_symbol, direction;
  `,
  // 5: the amount index also carries direction and fiat value, so a summary of an amount range
  // reads the index alone instead of visiting every matching row.
  `
  DROP INDEX tx_by_amount;
  CREATE INDEX tx_by_amount ON transactions (workspace_id, amount_key, ts, id, direction, fiat_cents);
  `,
  // 6: each transaction counts its tags and attachments, kept by triggers in the link's own
  // transaction, so readers that stream many rows (exports, has_tags) look the links up only for
  // rows that have some instead of probing the link tables once per row.
  `
  ALTER TABLE transactions ADD COLUMN tag_count INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE transactions ADD COLUMN attachment_count INTEGER NOT NULL DEFAULT 0;
  UPDATE transactions SET tag_count = (SELECT count(*) FROM transaction_tags x WHERE x.transaction_id = transactions.id)
  WHERE id IN (SELECT transaction_id FROM transaction_tags);
  UPDATE transactions SET attachment_count = (SELECT count(*) FROM attachments a WHERE a.transaction_id = transactions.id)
  WHERE id IN (SELECT transaction_id FROM attachments);
  CREATE TRIGGER tag_link_added AFTER INSERT ON transaction_tags BEGIN
    UPDATE transactions SET tag_count = tag_count + 1 WHERE id = NEW.transaction_id;
  END;
  CREATE TRIGGER tag_link_removed AFTER DELETE ON transaction_tags BEGIN
    UPDATE transactions SET tag_count = tag_count - 1 WHERE id = OLD.transaction_id;
  END;
  CREATE TRIGGER attachment_added AFTER INSERT ON attachments BEGIN
    UPDATE transactions SET attachment_count = attachment_count + 1 WHERE id = NEW.transaction_id;
  END;
  CREATE TRIGGER attachment_removed AFTER DELETE ON attachments BEGIN
    UPDATE transactions SET attachment_count = attachment_count - 1 WHERE id = OLD.transaction_id;
  END;
  `,
  // 7: wallet sync (issue 11): per wallet and explorer list (txlist, txlistinternal, tokentx,
  // txsBeaconWithdrawal), the block the next sync asks from. Rows of blocks before it are stored.
  `
  CREATE TABLE sync_cursors (
    wallet_id TEXT NOT NULL REFERENCES wallets (id) ON DELETE CASCADE,
    list      TEXT NOT NULL,
    block     INTEGER NOT NULL,
    PRIMARY KEY (wallet_id, list)
  ) WITHOUT ROWID;
  `,
  // 8: accounting data (docs/transfers.md): own transfers, the source of each fiat value, spam.
  `
  -- An own transfer: a movement between two wallets of one workspace. Its legs are the rows whose
  -- transfer_id names it, so a row is in at most one transfer; tx_transfer_legs (UNIQUE) allows
  -- one outflow and one inflow leg each. store/transfers.ts keeps both tables in step.
  CREATE TABLE transfers (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    kind         TEXT NOT NULL CHECK (kind IN ('internal', 'bridge')),
    matched_by   TEXT NOT NULL CHECK (matched_by IN ('auto', 'user', 'rule')),
    created_at   TEXT NOT NULL
  );
  CREATE INDEX transfers_by_workspace ON transfers (workspace_id, created_at);

  -- Pairs a user unmatched (in_id '' for a one-leg transfer): never matched or proposed again automatically.
  CREATE TABLE transfer_rejections (
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    out_id       TEXT NOT NULL,
    in_id        TEXT NOT NULL,
    PRIMARY KEY (out_id, in_id)
  ) WITHOUT ROWID;

  ALTER TABLE transactions ADD COLUMN transfer_id TEXT;
  ALTER TABLE transactions ADD COLUMN fiat_value_source TEXT CHECK (fiat_value_source IN ('import', 'price', 'manual'));
  ALTER TABLE transactions ADD COLUMN spam INTEGER NOT NULL DEFAULT 0 CHECK (spam IN (0, 1));
  UPDATE transactions SET fiat_value_source = 'import' WHERE fiat_cents IS NOT NULL;
  CREATE UNIQUE INDEX tx_transfer_legs ON transactions (transfer_id, direction) WHERE transfer_id IS NOT NULL;
  -- Rollups count non-spam rows only; the few spam rows are summed from here when asked for.
  CREATE INDEX tx_spam ON transactions (workspace_id, ts) WHERE spam = 1;

  -- A deleted leg (its wallet removed) ends its transfer: the other leg is no longer one.
  CREATE TRIGGER transfer_leg_deleted AFTER DELETE ON transactions WHEN OLD.transfer_id IS NOT NULL BEGIN
    UPDATE transactions SET transfer_id = NULL WHERE transfer_id = OLD.transfer_id;
    DELETE FROM transfers WHERE id = OLD.transfer_id;
  END;
  `,
  // 9: exports may be journals (\`ledger\`, \`beancount\`, docs/journals.md). SQLite cannot change a CHECK
  // constraint, so the table is rebuilt with the same columns and indexes (nothing references it).
  `
  CREATE TABLE exports_new (
    id                   TEXT PRIMARY KEY,
    workspace_id         TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    status               TEXT NOT NULL CHECK (status IN ('queued', 'processing', 'completed', 'failed', 'expired')),
    format               TEXT NOT NULL CHECK (format IN ('csv', 'json', 'pdf', 'ledger', 'beancount')),
    report_type          TEXT,
    request              TEXT NOT NULL,
    delivery             TEXT NOT NULL,
    file_name            TEXT,
    file_size            INTEGER,
    transaction_count    INTEGER,
    sha256               TEXT,
    progress             INTEGER NOT NULL DEFAULT 0,
    estimated_completion TEXT,
    error_code           TEXT,
    error_message        TEXT,
    worker               TEXT,
    heartbeat_ts         INTEGER,
    created_at           TEXT NOT NULL,
    created_ts           INTEGER NOT NULL,
    completed_at         TEXT,
    expires_at           TEXT NOT NULL,
    expires_ts           INTEGER NOT NULL
  );
  INSERT INTO exports_new SELECT * FROM exports;
  DROP TABLE exports;
  ALTER TABLE exports_new RENAME TO exports;
  CREATE INDEX exports_by_workspace ON exports (workspace_id, created_ts);
  CREATE INDEX exports_by_status ON exports (status, created_ts);
  `,
  // 10: balance assertions (docs/check.md "Balance assertions", \`txa wallet assert\`): "this wallet held exactly \`balance\` of
  // the token at the end of \`day\`" (UTC); \`end_ts\` is the first second after that day. One per
  // wallet, token and day: asserting it again replaces the balance.
  `
  CREATE TABLE balance_assertions (
    id             TEXT PRIMARY KEY,
    workspace_id   TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    wallet_id      TEXT NOT NULL REFERENCES wallets (id) ON DELETE CASCADE,
    token_symbol   TEXT NOT NULL,
    token_address  TEXT,
    token_decimals INTEGER NOT NULL,
    balance        TEXT NOT NULL,
    day            TEXT NOT NULL,
    end_ts         INTEGER NOT NULL,
    created_at     TEXT NOT NULL
  );
  CREATE UNIQUE INDEX balance_assertions_key ON balance_assertions (wallet_id, token_symbol, ifnull(token_address, ''), day);
  CREATE INDEX balance_assertions_by_workspace ON balance_assertions (workspace_id, day);
  `,
  // 11: wallet syncs run by \`txa serve\` (docs/sync.md "Served", POST /wallets/:id/sync): the status record. At
  // most one queued or running sync per wallet; \`worker\` is the owner (engine/job-owner.ts).
  `
  CREATE TABLE wallet_syncs (
    id               TEXT PRIMARY KEY,
    workspace_id     TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    wallet_id        TEXT NOT NULL REFERENCES wallets (id) ON DELETE CASCADE,
    status           TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
    chain            TEXT NOT NULL,
    source           TEXT,
    new_transactions INTEGER NOT NULL DEFAULT 0,
    duplicates       INTEGER NOT NULL DEFAULT 0,
    requests         INTEGER NOT NULL DEFAULT 0,
    last_block       INTEGER,
    last_synced      TEXT,
    error_code       TEXT,
    error_message    TEXT,
    worker           TEXT,
    heartbeat_ts     INTEGER,
    created_at       TEXT NOT NULL,
    started_at       TEXT,
    completed_at     TEXT
  );
  CREATE UNIQUE INDEX wallet_syncs_active ON wallet_syncs (wallet_id) WHERE status IN ('queued', 'running');
  CREATE INDEX wallet_syncs_by_wallet ON wallet_syncs (wallet_id);
  `,
  // 12: the price cache (\`txa prices\`, docs/prices.md): one price per source, token and UTC day, in
  // \`currency\` (USD for the APIs). \`token\` is \`chain:address\` (txa's chain names), \`coingecko:<id>\`
  // for a native coin, or an imported symbol; \`price\` NULL records that the source had none that day,
  // so a second fill does not ask again. Ledger-wide: a price is a fact about a token, not a workspace.
  `
  CREATE TABLE prices (
    source     TEXT NOT NULL CHECK (source IN ('import', 'defillama', 'coingecko')),
    token      TEXT NOT NULL,
    day        TEXT NOT NULL,
    price      TEXT,
    currency   TEXT NOT NULL,
    price_ts   INTEGER,
    fetched_at TEXT NOT NULL,
    PRIMARY KEY (source, token, day)
  ) WITHOUT ROWID;
  `,
  // 13: the contract method an explorer names for a row's transaction (\`Transfer\`, \`Swap Exact ETH
  // For Tokens\`, or a 4-byte selector), for rules' \`match.method\` (docs/rules.md). NULL where the
  // source has none (Koinly, rotki, rows imported before this column). Adding a column rewrites nothing.
  `
  ALTER TABLE transactions ADD COLUMN method TEXT;
  `,
  // 14: spam (docs/sync.md, "Spam"). \`token_marks\`: the user's verdict on a token of a chain (\`txa
  // tokens spam|unspam\`), 1 spam, 0 not spam. \`spam_reasons\`: why a row's flag was set, so a verdict
  // on its token flips only the rows the token's judgement decided (accounting/spam.ts SpamReason);
  // a spam row without one was flagged by hand or rule before this migration, and is left alone.
  `
  CREATE TABLE token_marks (
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    chain        TEXT NOT NULL,
    address      TEXT NOT NULL,
    spam         INTEGER NOT NULL CHECK (spam IN (0, 1)),
    marked_at    TEXT NOT NULL,
    PRIMARY KEY (workspace_id, chain, address)
  ) WITHOUT ROWID;
  CREATE TABLE spam_reasons (
    transaction_id TEXT PRIMARY KEY REFERENCES transactions (id) ON DELETE CASCADE,
    reason         TEXT NOT NULL CHECK (reason IN ('poisoning', 'lookalike', 'bait', 'marked', 'user'))
  ) WITHOUT ROWID;
  `,
  // 15: daily token flows for
  // \`txa check\`'s running balances (store/balance-days.ts). Exact decimal sums, which SQL cannot
  // make, so a ledger with rows gets them on first use; an empty one is complete from the start.
  `
  CREATE TABLE balance_days (
    workspace_id  TEXT NOT NULL,
    wallet_id     TEXT NOT NULL,
    token_symbol  TEXT NOT NULL,
    token_address TEXT NOT NULL,
    day           INTEGER NOT NULL,
    inflow        TEXT NOT NULL,
    outflow       TEXT NOT NULL,
    PRIMARY KEY (workspace_id, wallet_id, token_symbol, token_address, day)
  ) WITHOUT ROWID;
  INSERT INTO settings (key, value) SELECT 'balance_days', 'complete' WHERE NOT EXISTS (SELECT 1 FROM transactions);
  `,
  // 16: tag rollups (issue 13): the daily rollups again with a tag in the key, so a summary of one
  // tag (tag_ids with one id) or of has_tags reads them instead of every tagged row. tag_id ''
  // counts each tagged row once, for has_tags. Like the rollups, non-spam rows only. Days only, no
  // months: each link pays one upsert per table (~8 µs), and a summary of a tag over all its days
  // still reads a few thousand cells (bench/RESULTS.md, session 6).
  // Triggers keep them in step in the writer's own transaction, whoever writes the links or a
  // row's value or spam flag; removing a wallet drops its rows (store/rollups.ts). Each tag also
  // counts its links (usage_count), which listing tags (and so resolving a tag flag) otherwise
  // counted from the link index on every call: 150–700 ms on the 1M-row ledger.
  tagRollupsMigration(),
  // 17: a token's rows by its contract address, for a verdict on the token (\`txa tokens spam|unspam\`,
  // store/spam.ts tokenRowIds), which otherwise reads every row of the chain (1.5–2.0 s on the
  // 1M-row ledger). Native coins (no address) are left out. Inserts pay no measurable cost: a
  // ledger holds few tokens, so new keys land at the end of their token's range.
  `
  CREATE INDEX tx_by_token_address ON transactions (workspace_id, chain, token_address) WHERE token_address IS NOT NULL;
  `,
  // 18: who asked for a served sync (the API key's id), so the rows and events the worker writes
  // carry that actor (docs/transfers.md "The audit trail"), as the request's other changes do.
  `
  ALTER TABLE wallet_syncs ADD COLUMN requested_by TEXT;
  `,
  // 19: sync hardening (docs/sync.md, Rows a sync refuses; Served). The hashes of a wallet's
  // reverted transactions as its txlist showed them, so a sync resumed after txlist ignores their
  // internal and token rows as one clean sync does (the ledger alone keeps only those the wallet
  // sent, by their fee row). And how often a served sync was started, so one that kills its
  // process is not resumed into the same death for ever.
  `
  CREATE TABLE sync_failed_txs (
    wallet_id TEXT NOT NULL REFERENCES wallets (id) ON DELETE CASCADE,
    tx_hash   TEXT NOT NULL,
    PRIMARY KEY (wallet_id, tx_hash)
  ) WITHOUT ROWID;
  ALTER TABLE wallet_syncs ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
  `,
  // 20: closed periods (docs/periods.md). One row per close or reopen of a workspace's dates
  // through a day, never updated or deleted: the history stays, and the state of a through-date
  // is its latest row. A close keeps the digests of the period's rows and reports (JSON
  // `{rows, reports: {tax: …}}`); a reopen its reason. The guard itself is triggers made from
  // the current state (store/periods.ts), not part of this migration.
  `
  CREATE TABLE period_records (
    seq          INTEGER PRIMARY KEY,
    id           TEXT NOT NULL UNIQUE,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    through      TEXT NOT NULL,
    action       TEXT NOT NULL CHECK (action IN ('close', 'reopen')),
    note         TEXT,
    reason       TEXT,
    actor        TEXT NOT NULL,
    at           TEXT NOT NULL,
    digests      TEXT
  );
  CREATE INDEX period_records_by_through ON period_records (workspace_id, through, seq);
  `,
  // 21: lots (docs/lots.md). The transition allocation: the lots left in the pool at \`at\` assigned
  // to wallets, one recorded allocation per workspace (its header, \`lot_allocations\`, and its
  // lines, replaced as a whole). A line with no \`lot_id\` is a wallet's balance no pooled lot
  // covered (missing cost basis). Quantities are exact decimal text, costs integer cents of the
  // workspace's currency. And the picks of specific identification: which lots a disposal takes
  // (\`quantity\` NULL = what the disposal still needs of the lot), each with when it was recorded
  // and by whom.
  `
  CREATE TABLE lot_allocations (
    workspace_id     TEXT PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    at               TEXT NOT NULL,
    allocation_order TEXT NOT NULL CHECK (allocation_order IN ('fifo', 'hifo', 'lifo', 'specific')),
    cost_basis       TEXT NOT NULL CHECK (cost_basis IN ('fifo', 'lifo', 'hifo')),
    recorded_at      TEXT NOT NULL,
    actor            TEXT NOT NULL
  );
  CREATE TABLE lot_allocation_lines (
    workspace_id TEXT NOT NULL REFERENCES lot_allocations (workspace_id) ON DELETE CASCADE,
    seq          INTEGER NOT NULL,
    wallet_id    TEXT NOT NULL REFERENCES wallets (id) ON DELETE CASCADE,
    asset_key    TEXT NOT NULL,
    asset_symbol TEXT NOT NULL,
    lot_id       TEXT,
    quantity     TEXT NOT NULL,
    acquired_at  TEXT,
    cost_cents   INTEGER,
    PRIMARY KEY (workspace_id, seq)
  ) WITHOUT ROWID;
  CREATE TABLE lot_picks (
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    disposal_id  TEXT NOT NULL REFERENCES transactions (id) ON DELETE CASCADE,
    seq          INTEGER NOT NULL,
    lot_id       TEXT NOT NULL,
    quantity     TEXT,
    recorded_at  TEXT NOT NULL,
    actor        TEXT NOT NULL,
    PRIMARY KEY (disposal_id, seq)
  ) WITHOUT ROWID;
  CREATE INDEX lot_picks_by_workspace ON lot_picks (workspace_id, disposal_id);
  `,
  // 22: where a row stands in its chain, for the order of the rows of one second (docs/accounting.md
  // "Order within one second"): the block number and the transaction's index in the block, as a
  // wallet sync or an explorer file gives them; null where the source has none.
  `
  ALTER TABLE transactions ADD COLUMN block INTEGER;
  ALTER TABLE transactions ADD COLUMN block_position INTEGER;
  `,
  // 23: exchange wallets (docs/storage.md "Exchange wallets"): a wallet's kind, and the exchange of a
  // custodial account, whose chain is the internal 'exchange' (core/chains.ts EXCHANGE_CHAIN) and
  // whose address is its own id, so the UNIQUE (workspace_id, chain, address) still holds. Own
  // transfers gain the kind 'exchange'; SQLite cannot change a CHECK constraint, so \`transfers\` is
  // rebuilt with its rows, index and the trigger that names it.
  `
  ALTER TABLE wallets ADD COLUMN kind TEXT NOT NULL DEFAULT 'address' CHECK (kind IN ('address', 'exchange'));
  ALTER TABLE wallets ADD COLUMN exchange TEXT CHECK (exchange IN ('coinbase', 'kraken', 'binance', 'gemini', 'other'));

  DROP TRIGGER transfer_leg_deleted;
  CREATE TABLE transfers_new (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    kind         TEXT NOT NULL CHECK (kind IN ('internal', 'bridge', 'exchange')),
    matched_by   TEXT NOT NULL CHECK (matched_by IN ('auto', 'user', 'rule')),
    created_at   TEXT NOT NULL
  );
  INSERT INTO transfers_new SELECT id, workspace_id, kind, matched_by, created_at FROM transfers;
  DROP TABLE transfers;
  ALTER TABLE transfers_new RENAME TO transfers;
  CREATE INDEX transfers_by_workspace ON transfers (workspace_id, created_at);
  CREATE TRIGGER transfer_leg_deleted AFTER DELETE ON transactions WHEN OLD.transfer_id IS NOT NULL BEGIN
    UPDATE transactions SET transfer_id = NULL WHERE transfer_id = OLD.transfer_id;
    DELETE FROM transfers WHERE id = OLD.transfer_id;
  END;
  -- An exchange's rows by hash, so a chain row finds the withdrawal of its network hash
  -- (docs/accounting.md "Exchange accounts"); small: only exchange rows are in it.
  CREATE INDEX tx_exchange_hash ON transactions (workspace_id, tx_hash) WHERE chain = 'exchange';
  `,
  // 24: opening lots (docs/lots.md "Opening lots"): lots carried in from records kept elsewhere,
  // each an acquisition at its day and cost with no chain row of its own. \`identity\` (wallet,
  // asset, day, quantity, cost, note and the how-manieth such line of its file) makes a
  // re-import add nothing; \`import_id\` groups one import's lots so they can be removed together.
  `
  CREATE TABLE opening_lots (
    id             TEXT PRIMARY KEY,
    workspace_id   TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    wallet_id      TEXT NOT NULL REFERENCES wallets (id) ON DELETE CASCADE,
    import_id      TEXT NOT NULL,
    line           INTEGER NOT NULL,
    token_symbol   TEXT NOT NULL,
    token_address  TEXT,
    token_decimals INTEGER NOT NULL,
    quantity       TEXT NOT NULL,
    acquired_on    TEXT NOT NULL,
    cost_cents     INTEGER NOT NULL,
    note           TEXT NOT NULL,
    identity       TEXT NOT NULL,
    file_name      TEXT,
    sha256         TEXT NOT NULL,
    created_at     TEXT NOT NULL,
    actor          TEXT NOT NULL,
    UNIQUE (workspace_id, identity)
  );
  CREATE INDEX opening_lots_by_day ON opening_lots (workspace_id, acquired_on);
  CREATE INDEX opening_lots_by_import ON opening_lots (workspace_id, import_id);
  `,
  // 25: a workspace's jurisdiction (docs/accounting.md "Jurisdictions"): its tax year, rules, report
  // lines and default report currency. Every workspace so far is a US one.
  `
  ALTER TABLE workspaces ADD COLUMN jurisdiction TEXT NOT NULL DEFAULT 'us' CHECK (jurisdiction IN ('us', 'uk', 'ca', 'de', 'au'));
  `,
  // 26: broker lines (docs/import.md "1099-DA"): a broker's Form 1099-DA (or 1099-B) lines for
  // one wallet, kept apart from its transactions; the reconciliation and Form 8949's boxes match
  // disposals to them. A re-import replaces the wallet's lines of the years the file holds.
  `
  CREATE TABLE broker_lines (
    workspace_id     TEXT NOT NULL,
    wallet_id        TEXT NOT NULL REFERENCES wallets (id) ON DELETE CASCADE,
    year             INTEGER NOT NULL,
    line             INTEGER NOT NULL,
    date_sold        TEXT NOT NULL,
    date_acquired    TEXT,
    asset            TEXT NOT NULL,
    units            TEXT NOT NULL,
    proceeds_cents   INTEGER NOT NULL,
    cost_basis_cents INTEGER,
    basis_reported   INTEGER NOT NULL,
    file_name        TEXT NOT NULL,
    imported_at      TEXT NOT NULL,
    PRIMARY KEY (wallet_id, year, line)
  ) WITHOUT ROWID;
  CREATE INDEX broker_lines_by_workspace ON broker_lines (workspace_id, date_sold);
  `,
  // 27: members and invitations (docs/server.md "Teams"). Every API key belongs to a member and
  // acts with its role; the keys made before members existed go to an `admin` member named
  // `owner`, one per workspace (every workspace gets one, so each has an admin to start with).
  // A removed member's row stays (removed_at), as histories name it. An invitation keeps only its
  // token's SHA-256; its state (pending, accepted, expired, revoked) follows from its times.
  `
  CREATE TABLE members (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    email        TEXT,
    name         TEXT,
    role         TEXT NOT NULL CHECK (role IN ('admin', 'contributor', 'viewer')),
    created_at   TEXT NOT NULL,
    updated_at   TEXT,
    removed_at   TEXT
  );
  CREATE INDEX members_by_workspace ON members (workspace_id, created_at);
  CREATE UNIQUE INDEX members_by_email ON members (workspace_id, email) WHERE removed_at IS NULL AND email IS NOT NULL;

  CREATE TABLE invitations (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    email        TEXT NOT NULL,
    role         TEXT NOT NULL CHECK (role IN ('admin', 'contributor', 'viewer')),
    token_hash   TEXT NOT NULL UNIQUE,
    invited_by   TEXT,
    created_at   TEXT NOT NULL,
    expires_at   TEXT NOT NULL,
    accepted_at  TEXT,
    revoked_at   TEXT,
    member_id    TEXT
  );
  CREATE INDEX invitations_by_workspace ON invitations (workspace_id, email, created_at);

  INSERT INTO members (id, workspace_id, email, name, role, created_at)
  SELECT 'mem_' || lower(hex(randomblob(10))), id, NULL, 'owner', 'admin', created_at FROM workspaces;
  ALTER TABLE api_keys ADD COLUMN member_id TEXT REFERENCES members (id);
  UPDATE api_keys SET member_id = (SELECT m.id FROM members m WHERE m.workspace_id = api_keys.workspace_id);
  CREATE INDEX api_keys_by_member ON api_keys (member_id);
  `,
  // 28: scheduled reports (docs/server.md "Scheduled reports"). A schedule keeps the export body
  // each run makes, less its dates. A run row is written in the transaction that records its
  // export, so a run never exists without its export nor an export without its run; the partial
  // UNIQUE index lets one process only ever claim a (schedule, period) as its scheduled run, however
  // many servers or \`run-due\` processes share the ledger. Manual repeats (\`kind\` manual) are free.
  `
  CREATE TABLE schedules (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    every        TEXT NOT NULL CHECK (every IN ('daily', 'weekly', 'monthly', 'quarterly')),
    time_zone    TEXT NOT NULL,
    template     TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    created_ts   INTEGER NOT NULL,
    actor        TEXT NOT NULL
  );
  CREATE INDEX schedules_by_workspace ON schedules (workspace_id, created_ts);
  CREATE TABLE schedule_runs (
    schedule_id  TEXT NOT NULL REFERENCES schedules (id) ON DELETE CASCADE,
    kind         TEXT NOT NULL CHECK (kind IN ('scheduled', 'manual')),
    period_start TEXT NOT NULL,
    period_end   TEXT NOT NULL,
    export_id    TEXT NOT NULL,
    ran_at       TEXT NOT NULL,
    ran_ts       INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX schedule_runs_once ON schedule_runs (schedule_id, period_start) WHERE kind = 'scheduled';
  CREATE INDEX schedule_runs_latest ON schedule_runs (schedule_id, ran_ts);
  `,
  // 29: the European Central Bank's reference rates (docs/prices.md "Exchange rates"): a
  // ledger-wide cache of its euro quotes and of the days each currency's cache is complete for,
  // and where a workspace's rate came from (an imported file, or the ECB with the published day
  // it was taken from, an earlier one on weekends and holidays).
  `
  CREATE TABLE fx_reference (
    currency TEXT NOT NULL,
    day      TEXT NOT NULL,
    per_eur  TEXT NOT NULL,
    PRIMARY KEY (currency, day)
  ) WITHOUT ROWID;
  CREATE TABLE fx_coverage (
    currency    TEXT PRIMARY KEY,
    first_day   TEXT NOT NULL,
    through_day TEXT NOT NULL,
    fetched_at  TEXT NOT NULL
  ) WITHOUT ROWID;
  ALTER TABLE rates ADD COLUMN source TEXT NOT NULL DEFAULT 'import';
  ALTER TABLE rates ADD COLUMN published_day TEXT;
  `,
  // 30: the free rows that can be legs of an own transfer, with the columns a proposal reads
  // (store/transfers.ts freeLegs): proposals walk this index alone, in time order, instead of
  // each row of tx_by_time (bench/RESULTS.md "Session 12 — exchange↔chain proposals"). Partial:
  // a row leaves it when it becomes a leg, and fees, zero amounts and spam are never in it.
  `
  CREATE INDEX tx_free_legs ON transactions (workspace_id, ts, id, direction, chain, token_symbol, amount, wallet_id)
    WHERE spam = 0 AND type <> 'fee' AND amount <> '0' AND transfer_id IS NULL;
  `,
  // 31: the addresses an xpub wallet's syncs derived (store/xpub-addresses.ts, docs/sync.md
  // "Bitcoin"): a later sync reads them instead of deriving each again (bench/RESULTS.md
  // "Session 13"). They go with their wallet.
  `
  CREATE TABLE xpub_addresses (
    wallet_id TEXT NOT NULL REFERENCES wallets (id) ON DELETE CASCADE,
    chain     INTEGER NOT NULL CHECK (chain IN (0, 1)),
    idx       INTEGER NOT NULL CHECK (idx >= 0),
    address   TEXT NOT NULL,
    PRIMARY KEY (wallet_id, chain, idx)
  ) WITHOUT ROWID;
  `,
  // 32: each row's digest hash (docs/periods.md "Digests", version 2): the SHA-256 of the row's
  // digest line, kept with the row so a close or check hashes only the rows changed since
  // (engine/rows-digest.ts). NULL until a close computes it; the triggers set it back to NULL on
  // any change to what the line holds, the row's own columns, its tags (links and names), its
  // attachments, its wallet's address, its transfer and the other leg, so no edit, by txa or by
  // SQL, can leave a stale hash. A rename or removal the line reads through (a tag, a wallet) does
  // the same. The digest reads the hashes from tx_row_hashes alone, in its order (time, then
  // hash), and finds the rows left to hash at the head of each second there (NULL sorts first).
  `
  ALTER TABLE transactions ADD COLUMN row_hash BLOB;
  CREATE INDEX tx_row_hashes ON transactions (workspace_id, ts, row_hash);
  CREATE TRIGGER row_hash_changed AFTER UPDATE OF id, workspace_id, wallet_id, chain, tx_hash, transfer_key, from_address, to_address,
    token_symbol, token_address, token_decimals, amount, fiat_cents, fiat_value_source, direction, type, ts, notes, spam, method,
    transfer_id, tag_count, attachment_count ON transactions BEGIN
    UPDATE transactions SET row_hash = NULL WHERE id IN (OLD.id, NEW.id) AND row_hash IS NOT NULL;
    UPDATE transactions SET row_hash = NULL WHERE transfer_id IN (OLD.transfer_id, NEW.transfer_id) AND row_hash IS NOT NULL;
  END;
  CREATE TRIGGER row_hash_leg_added AFTER INSERT ON transactions WHEN NEW.transfer_id IS NOT NULL BEGIN
    UPDATE transactions SET row_hash = NULL WHERE transfer_id = NEW.transfer_id AND row_hash IS NOT NULL;
  END;
  CREATE TRIGGER row_hash_leg_removed AFTER DELETE ON transactions WHEN OLD.transfer_id IS NOT NULL BEGIN
    UPDATE transactions SET row_hash = NULL WHERE transfer_id = OLD.transfer_id AND row_hash IS NOT NULL;
  END;
  CREATE TRIGGER row_hash_tag_linked AFTER INSERT ON transaction_tags BEGIN
    UPDATE transactions SET row_hash = NULL WHERE id = NEW.transaction_id AND row_hash IS NOT NULL;
  END;
  CREATE TRIGGER row_hash_tag_unlinked AFTER DELETE ON transaction_tags BEGIN
    UPDATE transactions SET row_hash = NULL WHERE id = OLD.transaction_id AND row_hash IS NOT NULL;
  END;
  CREATE TRIGGER row_hash_tag_relinked AFTER UPDATE ON transaction_tags BEGIN
    UPDATE transactions SET row_hash = NULL WHERE id IN (OLD.transaction_id, NEW.transaction_id) AND row_hash IS NOT NULL;
  END;
  CREATE TRIGGER row_hash_tag_renamed AFTER UPDATE OF id, name ON tags BEGIN
    UPDATE transactions SET row_hash = NULL WHERE id IN (SELECT transaction_id FROM transaction_tags WHERE tag_id IN (OLD.id, NEW.id)) AND row_hash IS NOT NULL;
  END;
  CREATE TRIGGER row_hash_tag_removed AFTER DELETE ON tags BEGIN
    UPDATE transactions SET row_hash = NULL WHERE id IN (SELECT transaction_id FROM transaction_tags WHERE tag_id = OLD.id) AND row_hash IS NOT NULL;
  END;
  CREATE TRIGGER row_hash_attachment_added AFTER INSERT ON attachments BEGIN
    UPDATE transactions SET row_hash = NULL WHERE id = NEW.transaction_id AND row_hash IS NOT NULL;
  END;
  CREATE TRIGGER row_hash_attachment_removed AFTER DELETE ON attachments BEGIN
    UPDATE transactions SET row_hash = NULL WHERE id = OLD.transaction_id AND row_hash IS NOT NULL;
  END;
  CREATE TRIGGER row_hash_attachment_changed AFTER UPDATE OF transaction_id, sha256 ON attachments BEGIN
    UPDATE transactions SET row_hash = NULL WHERE id IN (OLD.transaction_id, NEW.transaction_id) AND row_hash IS NOT NULL;
  END;
  CREATE TRIGGER row_hash_wallet_changed AFTER UPDATE OF id, address ON wallets BEGIN
    UPDATE transactions SET row_hash = NULL WHERE transfer_id IN (SELECT transfer_id FROM transactions WHERE wallet_id IN (OLD.id, NEW.id) AND transfer_id IS NOT NULL)
      AND row_hash IS NOT NULL;
    UPDATE transactions SET row_hash = NULL WHERE wallet_id IN (OLD.id, NEW.id) AND row_hash IS NOT NULL;
  END;
  CREATE TRIGGER row_hash_wallet_removed AFTER DELETE ON wallets BEGIN
    UPDATE transactions SET row_hash = NULL WHERE transfer_id IN (SELECT transfer_id FROM transactions WHERE wallet_id = OLD.id AND transfer_id IS NOT NULL)
      AND row_hash IS NOT NULL;
    UPDATE transactions SET row_hash = NULL WHERE wallet_id = OLD.id AND row_hash IS NOT NULL;
  END;
  CREATE TRIGGER row_hash_transfer_added AFTER INSERT ON transfers BEGIN
    UPDATE transactions SET row_hash = NULL WHERE transfer_id = NEW.id AND row_hash IS NOT NULL;
  END;
  CREATE TRIGGER row_hash_transfer_changed AFTER UPDATE ON transfers BEGIN
    UPDATE transactions SET row_hash = NULL WHERE transfer_id IN (OLD.id, NEW.id) AND row_hash IS NOT NULL;
  END;
  CREATE TRIGGER row_hash_transfer_removed AFTER DELETE ON transfers BEGIN
    UPDATE transactions SET row_hash = NULL WHERE transfer_id = OLD.id AND row_hash IS NOT NULL;
  END;
  `,
  // 33: migration 32's row_hash_changed, split in two with a WHEN each, so an update that cannot
  // stale a hash runs no statement: the row's own hash only when it has one (an import's rows have
  // none, yet their tag counts are updated per link), the legs' only when the row is or was a
  // leg. Unguarded, `transfer_id IN (NULL, NULL)` was sought per update, and where the index on
  // transfer_id is not there yet (indexes built after a large import's rows) scanned the table
  // per update: bench/RESULTS.md "Session 14".
  `
  DROP TRIGGER row_hash_changed;
  CREATE TRIGGER row_hash_changed AFTER UPDATE OF ${ROW_HASH_COLUMNS} ON transactions WHEN NEW.row_hash IS NOT NULL BEGIN
    UPDATE transactions SET row_hash = NULL WHERE id IN (OLD.id, NEW.id) AND row_hash IS NOT NULL;
  END;
  CREATE TRIGGER row_hash_leg_changed AFTER UPDATE OF ${ROW_HASH_COLUMNS} ON transactions
    WHEN OLD.transfer_id IS NOT NULL OR NEW.transfer_id IS NOT NULL BEGIN
    UPDATE transactions SET row_hash = NULL WHERE transfer_id IN (OLD.transfer_id, NEW.transfer_id) AND row_hash IS NOT NULL;
  END;
  `,
];

/**
 * Migration 16's SQL: the table, filled from the ledger, and the triggers. Each trigger adds `n`
 * rows and `cents` to the day of one transaction (`r`) under each tag of `tags`.
 */
function tagRollupsMigration(): string {
  const upsert = (r: string, tags: string, n: string, cents: string, where: string) => `
    INSERT INTO tag_rollup_daily (workspace_id, tag_id, day, wallet_id, chain, token_symbol, direction, tx_count, fiat_cents)
    SELECT ${r}.workspace_id, k.tag_id, unixepoch(${r}.ts, 'unixepoch', 'start of day') / 86400, ${r}.wallet_id, ${r}.chain, ${r}.token_symbol, ${r}.direction, ${n}, ${cents}
    FROM ${tags} WHERE ${where}
    ON CONFLICT (workspace_id, tag_id, day, wallet_id, token_symbol, direction)
    DO UPDATE SET tx_count = tx_count + excluded.tx_count, fiat_cents = fiat_cents + excluded.fiat_cents;`;
  return `
  CREATE TABLE tag_rollup_daily (
    workspace_id TEXT NOT NULL,
    tag_id       TEXT NOT NULL,
    day          INTEGER NOT NULL,
    wallet_id    TEXT NOT NULL,
    chain        TEXT NOT NULL,
    token_symbol TEXT NOT NULL,
    direction    TEXT NOT NULL,
    tx_count     INTEGER NOT NULL,
    fiat_cents   INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, tag_id, day, wallet_id, token_symbol, direction)
  ) WITHOUT ROWID;

  INSERT INTO tag_rollup_daily (workspace_id, tag_id, day, wallet_id, chain, token_symbol, direction, tx_count, fiat_cents)
  SELECT t.workspace_id, k.tag_id, unixepoch(t.ts, 'unixepoch', 'start of day') / 86400 AS day, t.wallet_id, min(t.chain), t.token_symbol, t.direction,
         count(*), ifnull(sum(t.fiat_cents), 0)
  FROM (SELECT transaction_id, tag_id FROM transaction_tags UNION ALL SELECT id, '' FROM transactions WHERE tag_count > 0) k
  JOIN transactions t ON t.id = k.transaction_id
  WHERE t.spam = 0
  GROUP BY t.workspace_id, k.tag_id, day, t.wallet_id, t.token_symbol, t.direction;

  -- A link counts its row in under its tag, and under '' when it is the row's first.
  CREATE TRIGGER tag_rollup_link_added AFTER INSERT ON transaction_tags BEGIN${upsert(
    't',
    `(SELECT NEW.tag_id AS tag_id UNION ALL SELECT '' WHERE NOT EXISTS
       (SELECT 1 FROM transaction_tags o WHERE o.transaction_id = NEW.transaction_id AND o.tag_id <> NEW.tag_id)) k, transactions t`,
    '1',
    'ifnull(t.fiat_cents, 0)',
    't.id = NEW.transaction_id AND t.spam = 0',
  )}
  END;
  -- A link removed counts its row out under its tag, and under '' when it was the row's last. Not
  -- under a tag deleted with it: that tag's cells go whole (tag_rollup_tag_deleted). A link that
  -- goes with its transaction (a wallet removed) finds no row, and the wallet's cells go whole.
  CREATE TRIGGER tag_rollup_link_removed AFTER DELETE ON transaction_tags BEGIN${upsert(
    't',
    `(SELECT OLD.tag_id AS tag_id WHERE EXISTS (SELECT 1 FROM tags g WHERE g.id = OLD.tag_id)
      UNION ALL SELECT '' WHERE NOT EXISTS (SELECT 1 FROM transaction_tags o WHERE o.transaction_id = OLD.transaction_id)) k, transactions t`,
    '-1',
    '-ifnull(t.fiat_cents, 0)',
    't.id = OLD.transaction_id AND t.spam = 0',
  )}
  END;
  ALTER TABLE tags ADD COLUMN usage_count INTEGER NOT NULL DEFAULT 0;
  UPDATE tags SET usage_count = (SELECT count(*) FROM transaction_tags x WHERE x.tag_id = tags.id);
  CREATE TRIGGER tag_usage_added AFTER INSERT ON transaction_tags BEGIN
    UPDATE tags SET usage_count = usage_count + 1 WHERE id = NEW.tag_id;
  END;
  CREATE TRIGGER tag_usage_removed AFTER DELETE ON transaction_tags BEGIN
    UPDATE tags SET usage_count = usage_count - 1 WHERE id = OLD.tag_id;
  END;

  CREATE TRIGGER tag_rollup_tag_deleted AFTER DELETE ON tags BEGIN
    DELETE FROM tag_rollup_daily WHERE workspace_id = OLD.workspace_id AND tag_id = OLD.id;
  END;
  -- A value edit or a spam flip moves a tagged row's value (or the row) under each of its tags and ''.
  CREATE TRIGGER tag_rollup_value_changed AFTER UPDATE OF fiat_cents, spam ON transactions
  WHEN NEW.tag_count > 0 AND (OLD.fiat_cents IS NOT NEW.fiat_cents OR OLD.spam <> NEW.spam) BEGIN${upsert(
    'NEW',
    "(SELECT tag_id FROM transaction_tags WHERE transaction_id = NEW.id UNION ALL SELECT '') k",
    '(NEW.spam = 0) - (OLD.spam = 0)',
    'iif(NEW.spam = 0, ifnull(NEW.fiat_cents, 0), 0) - iif(OLD.spam = 0, ifnull(OLD.fiat_cents, 0), 0)',
    'true',
  )}
  END;
  `;
}
