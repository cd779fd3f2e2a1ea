/**
 * Examples at the end of every command's help, as gh shows them: a comment, then the command.
 * Keyed by the command's path; a new command adds its entry here (test/cli/help.test.ts checks
 * that every command has one).
 */
export const EXAMPLES: Record<string, string[]> = {
  txa: ['# load the demo ledger and write its reports', 'txa demo', '# this month, by amount', 'txa tx list --period this-month --sort amount_desc'],

  'txa workspace': ['txa workspace create "Acme Treasury" --tier pro', 'txa workspace list'],
  'txa workspace create': [
    "# the first workspace becomes the profile's default",
    'txa workspace create "Acme Treasury" --tier pro --currency EUR',
    'txa workspace create "Big Co" --tier enterprise --rate-limit 5000',
  ],
  'txa workspace update': [
    'txa workspace update ws_… --tier pro',
    "# a UK client: HMRC's tax year, rules and GBP (docs/jurisdictions.md)",
    'txa workspace update ws_… --jurisdiction uk',
    'txa workspace update ws_… --name "Acme Treasury 2025" --tier enterprise --rate-limit 5000',
  ],
  'txa workspace list': ['txa workspace list', 'txa workspace list --json'],
  'txa workspace use': ['txa workspace use ws_…', '# another profile', 'txa --profile work workspace use ws_…'],

  'txa wallet': ['txa wallet add --address 0x… --chain ethereum --label Main', 'txa wallet list'],
  'txa wallet add': [
    'txa wallet add --address 0x50b4…f9d5f9 --chain ethereum --label "Treasury Safe"',
    'txa wallet add --exchange coinbase --label "Coinbase"',
    'txa wallet add --chain bitcoin --address bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq --label Cold',
    'txa wallet add --chain bitcoin --xpub zpub6rFR7y4Q2AijBEqT… --label Ledger',
  ],
  'txa wallet list': ['txa wallet list', 'txa wallet list --chain polygon --json'],
  'txa wallet update': ['txa wallet update wal_… --label "Payroll (Polygon)"'],
  'txa wallet remove': ['# removes its transactions too', 'txa wallet remove wal_… --yes'],
  'txa wallet sync': [
    '# every wallet of the workspace, from the explorer APIs',
    'TXA_ETHERSCAN_API_KEY=… txa wallet sync --all',
    '# what a sync would add, without writing',
    'txa wallet sync wal_… --dry-run --json',
  ],
  'txa wallet assert': ['# the statement says 12.5 ETH at the end of March', 'txa wallet assert wal_… --token ETH --balance 12.5 --at 2025-03-31'],
  'txa wallet assertions': ['txa wallet assertions', 'txa wallet assertions wal_… --json'],
  'txa wallet unassert': ['# a mistyped day: remove it, then assert again', 'txa wallet unassert bal_…'],

  'txa tags': ['txa tags create --name Payroll --type expense', 'txa tags list'],
  'txa tags create': [
    'txa tags create --name Payroll --type expense',
    'txa tags create --name "Staking rewards" --type income --color "#059669" --description "validator rewards"',
  ],
  'txa tags list': ['txa tags list', '# ids by name, for a script', 'txa tags list | cut -f1,2'],
  'txa tags update': ['txa tags update tag_… --name "Gas fees" --color "#F59E0B"', '# clear the description', 'txa tags update tag_… --description ""'],
  'txa tags delete': ['txa tags delete tag_…', '# without a terminal', 'txa tags delete tag_… --yes'],

  'txa tx': ['txa tx list --period last-month', 'txa tx update tx_… --add-tag Payroll'],
  'txa tx list': [
    '# last month, untagged, biggest first',
    'txa tx list --period last-month --has-tags false --sort amount_desc',
    '# by tag name or id',
    'txa tx list --tag-ids Payroll,"Gas fees" --chain ethereum',
    '# every row as one JSON document',
    'txa tx list --period 2025 --all --json',
  ],
  'txa tx get': ['txa tx get tx_…', 'txa tx get tx_… --json'],
  'txa tx tag': ['txa tx tag tx_… Payroll "Gas fees"', 'txa tx tag tx_… tag_…'],
  'txa tx untag': ['txa tx untag tx_… Payroll'],
  'txa tx update': [
    'txa tx update tx_… --notes "Invoice 42" --add-tag Payroll',
    'txa tx update tx_… --remove-tag Payroll --add-tag "Vendor payment"',
    '# clear the notes',
    'txa tx update tx_… --notes ""',
  ],
  'txa tx attach': ['txa tx attach tx_… invoice-42.pdf'],
  'txa tx history': ['# every change: who, when, old → new', 'txa tx history tx_…', 'txa tx history tx_… --json'],

  'txa transfers': ['txa transfers list --status candidate', 'txa transfers match tx_… tx_…'],
  'txa transfers list': ['# bridges proposed for you to confirm', 'txa transfers list --status candidate', 'txa transfers list --status matched --json'],
  'txa transfers match': [
    '# the outflow and the inflow of one movement between your wallets',
    'txa transfers match tx_… tx_…',
    '# match every pair found in the ledger',
    'txa transfers match --auto',
  ],
  'txa transfers unmatch': ['txa transfers unmatch tx_…'],
  'txa lots': ['txa lots --at 2024-12-31', 'txa lots allocate --dry-run', 'txa lots pick tx_… tx_…:0.5'],
  'txa lots list': ['# what was left in the pool when 2024 ended', 'txa lots list --at 2024-12-31', 'txa lots list --wallet wal_… --asset ETH --json'],
  'txa lots allocate': [
    '# see it first, then record it',
    'txa lots allocate --dry-run',
    'txa lots allocate --order hifo --cost-basis fifo',
    '# by hand: CSV wallet,lot,quantity',
    'txa lots allocate --specific allocation.csv --replace',
  ],
  'txa lots allocation': ['txa lots allocation', 'txa lots allocation --json'],
  'txa lots pick': ['# the sale takes 0.5 of one lot, then what it still needs of another', 'txa lots pick tx_… tx_…:0.5 tx_…'],
  'txa lots picks': ['txa lots picks', 'txa lots picks tx_… --json'],
  'txa lots import': [
    "# last year's closing positions from the previous tool: wallet,asset,quantity,date_acquired,cost_basis,note",
    'txa lots import opening.csv --dry-run',
    'txa lots import opening.csv',
  ],
  'txa lots openings': ['txa lots openings', 'txa lots openings --json'],
  'txa lots remove-openings': ['# take back one import of opening lots (its id is in lots openings)', 'txa lots remove-openings opn_…'],
  'txa lots unpick': ['txa lots unpick tx_…'],

  'txa tokens': ['txa tokens spam ethereum:0x…', 'txa tokens list'],
  'txa tokens spam': [
    '# a token airdropped to lure you: its rows are flagged, now and in later syncs and imports',
    'txa tokens spam ethereum:0x1234567890abcdef1234567890abcdef12345678',
    'txa tokens spam base:0x… polygon:0x… --json',
  ],
  'txa tokens unspam': [
    '# a real token the checks took for a copy: its rows are unflagged and never flagged for the token again',
    'txa tokens unspam arbitrum:0x…',
  ],
  'txa tokens list': ['txa tokens list', 'txa tokens list --json'],

  'txa rules': ['txa rules apply rules.yaml --dry-run', 'txa rules apply rules.yaml'],
  'txa rules apply': [
    '# per rule: rows matched, rows it would change, a sample',
    'txa rules apply rules.yaml --dry-run',
    'txa rules apply rules.yaml --period 2025-Q1 --json',
    '# the same rules on the new rows of an import',
    'txa import export.csv --wallet wal_… --rules rules.yaml',
  ],

  'txa events': ['txa events list --type transaction.tagged'],
  'txa events list': ['txa events list', 'txa events list --type export.completed --json'],

  'txa import': [
    '# the format is detected from the content',
    'txa import export-0x50b4….csv --wallet wal_…',
    '# check first, write nothing',
    'txa import koinly.csv --wallet wal_… --format koinly --dry-run',
    'txa import ledger.ndjson',
  ],

  'txa export': ['txa export create --format csv --period last-month', 'txa export list'],
  'txa export create': [
    'txa export create --format csv --period last-month --out march.csv',
    'txa export create --format pdf --report-type tax --period 2025 --cost-basis fifo',
    '# by e-mail, tagged rows only',
    'txa export create --format pdf --report-type summary --tag-ids Payroll --email cfo@example.com',
  ],
  'txa export status': ['txa export status exp_…'],
  'txa export list': ['txa export list', 'txa export list --json'],
  'txa export download': ['txa export download exp_… --out report.pdf'],
  'txa export cancel': ['txa export cancel exp_…'],

  'txa rates': ['txa rates fill', 'txa rates import eur-rates.csv', 'txa rates list --currency EUR'],
  'txa rates fill': [
    "# the ECB's reference rates for every day since the first valued row",
    'txa rates fill',
    'txa rates fill --from 2016-01-01 --currency GBP,CAD --json',
  ],
  'txa rates import': ['# CSV date,currency,rate from the base currency', 'txa rates import eur-rates.csv'],
  'txa rates list': ['txa rates list', 'txa rates list --currency EUR --json'],

  'txa prices': ['txa prices fill', 'txa prices import prices.csv'],
  'txa prices fill': [
    '# every row without a value, from DefiLlama (no key)',
    'txa prices fill',
    '# one year, from CoinGecko (TXA_COINGECKO_API_KEY)',
    'txa prices fill --period 2025 --source coingecko --json',
  ],
  'txa prices import': ['# CSV date,token,price[,currency]; token a symbol or chain:address', 'txa prices import prices.csv'],
  'txa prices list': ['txa prices list --source import', 'txa prices list --token ETH --json'],
  'txa prices forget': [
    "# ask DefiLlama again for one token's days of 2024",
    'txa prices forget --token ethereum:0xa0b8…eb48 --period 2024',
    '# entries an older txa cached from bad answers',
    'txa prices forget --invalid --dry-run',
  ],

  'txa serve': ['txa serve --port 8080', 'txa --db /srv/txa/ledger.db serve --host 0.0.0.0 --public-url https://txa.example.com'],

  'txa keys': ['txa keys create --name ci --access read', 'txa keys list'],
  'txa keys create': [
    '# printed once',
    'txa keys create --name ci --access read',
    '# a new key for a member who lost theirs',
    'txa keys create --member mem_…',
  ],
  'txa keys list': ['txa keys list'],
  'txa keys revoke': ['txa keys revoke key_… --yes'],

  'txa period': ['txa period close --through 2024-12-31 --note "filed 2025-04-10"', 'txa period list'],
  'txa period close': ['txa period close --through 2024-12-31 --note "filed 2025-04-10"', 'txa period close --through 2024-12-31 --json'],
  'txa period reopen': ['txa period reopen --through 2024-12-31 --reason "amended return: a missed exchange account"'],
  'txa period list': ['txa period list', "txa period list --json | jq '.data[] | {through, status}'"],
  'txa webhooks': ['txa webhooks add --url https://hooks.example.com/txa --events export.completed', 'txa webhooks list'],
  'txa webhooks add': ['# the signing secret is printed once', 'txa webhooks add --url https://hooks.example.com/txa --events export.completed,tag.created'],
  'txa webhooks list': ['txa webhooks list'],
  'txa webhooks remove': ['txa webhooks remove wh_… --yes'],

  'txa members': ['txa members invite ana@example.com --role contributor', 'txa members list'],
  'txa members list': ['txa members list', "txa members list --json | jq '.data[] | {email, role}'"],
  'txa members invite': ['# e-mailed through TXA_SMTP_URL; the token is printed once', 'txa members invite ana@example.com --role viewer'],
  'txa members update': ['txa members update mem_… --role admin'],
  'txa members remove': ['# their keys stop working at once', 'txa members remove mem_… --yes'],
  'txa members invitations': ['txa members invitations'],
  'txa members revoke-invitation': ['txa members revoke-invitation inv_…'],
  'txa members accept': [
    "# the invited person, against the team's server; prints the new key once",
    'txa --base-url https://txa.example.com members accept txa_inv_… --email ana@example.com',
  ],
  'txa schedules': ['txa schedules create --name "Monthly CSV" --every monthly --format csv --email books@example.com', 'txa schedules list'],
  'txa schedules create': [
    'txa schedules create --name "Monthly CSV" --every monthly --format csv --email books@example.com',
    '# a weekly tax report of one wallet, in Berlin days, to a webhook',
    'txa schedules create --name "Weekly tax" --every weekly --time-zone Europe/Berlin --format pdf --report-type tax --wallet-ids wal_… --webhook-url https://hooks.example.com/txa',
  ],
  'txa schedules list': ['txa schedules list', "txa schedules list --json | jq '.data[] | {name, next_run_at, last_run}'"],
  'txa schedules delete': ['txa schedules delete sch_… --yes'],
  'txa schedules run': ["# now, without waiting for the period's turn", 'txa schedules run sch_…'],
  'txa schedules run-due': ['# from cron, without a server: every 15 minutes', '*/15 * * * * txa --db /srv/txa/ledger.db schedules run-due'],

  'txa login': [
    '# asks for the base URL, key and workspace',
    'txa login',
    '# in CI',
    'echo "$TXA_KEY" | txa --base-url https://txa.example.com -w ws_… login --with-token',
  ],

  'txa config': ['txa config set workspace ws_…', 'txa config list'],
  'txa config get': ['txa config get base_url'],
  'txa config set': ['txa config set db ~/books/ledger.db', 'txa --profile work config set base_url https://txa.example.com'],
  'txa config unset': ['txa config unset api_key'],
  'txa config list': ['txa config list', 'txa --profile work config list --json'],

  'txa demo': ['txa demo', 'txa demo --dir /tmp/txa-demo'],

  'txa completion': [
    '# bash: load now, or add the line to ~/.bashrc',
    'source <(txa completion bash)',
    '# zsh',
    'txa completion zsh > "${fpath[1]}/_txa"',
    '# fish',
    'txa completion fish > ~/.config/fish/completions/txa.fish',
  ],

  'txa check': [
    '# is last month ready to report? (exit 1 when anything is found)',
    'txa check --period last-month',
    '# CI: accept untagged rows, fail on the rest',
    'txa check --period last-month --allow untagged --json',
  ],
};

/** The examples as help text: a `# comment` line as it is, a command after `$ `. */
export function examplesText(lines: string[], width?: number): string {
  return `\nExamples:\n${lines.map((l) => (l.startsWith('#') ? wrapWords(`  ${l}`, '  # ', width, '') : wrapWords(`  $ ${l}`, '      ', width, ' \\'))).join('\n')}\n`;
}

/** The words of a shell line; a quoted string is one word, so a wrap never splits it. */
function shellWords(line: string): string[] {
  return line.match(/(?:[^\s"']+|"[^"]*"|'[^']*')+/g) ?? [line];
}

/**
 * `line` wrapped at word boundaries to `width` cells (a word longer than the width stays whole on
 * its line): each line but the last ends with `end` (` \` continues a shell command, so it can be
 * pasted), each continuation starts with `indent`. Without a width, the line as it is.
 */
export function wrapWords(line: string, indent: string, width: number | undefined, end: string): string {
  if (width === undefined || line.length <= width) return line;
  const lead = /^\s*(?:\$ |# )?/.exec(line)![0];
  const lines: string[] = [];
  let current = lead;
  for (const word of shellWords(line.slice(lead.length))) {
    const next = current === lead || current === indent ? current + word : `${current} ${word}`;
    if (next.length + end.length > width && current !== lead && current !== indent) {
      lines.push(current + end);
      current = indent + word;
    } else current = next;
  }
  lines.push(current);
  return lines.join('\n');
}
