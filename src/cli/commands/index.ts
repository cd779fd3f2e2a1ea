/**
 * The nouns of the CLI. Only the noun named on the command line is loaded: loading every command
 * module costs tens of milliseconds that `txa tx list` should not pay (bench/RESULTS.md).
 *
 * One shape for every command (tx/get.ts is the model): `commands/<noun>/<verb>.ts` (a noun
 * without verbs, such as `import`, in `commands/<noun>/<noun>.ts`) exports
 * - `<Verb>Options`: its flags and arguments as one typed object,
 * - `run(ctx, opts)`: the command's work, on the Backend for data (`ctx.backend()`) or on the
 *   local services for local-only work (`ctx.local(…)`), all output through `ctx.out`,
 * - `register(parent)`: the commander wiring, which turns flags and arguments into the options
 *   and calls `run` through `action`.
 * `commands/<noun>/index.ts` only makes the noun and registers its verbs. Tests run `run` in
 * process (test/helpers/in-process.ts); spawned-binary tests stay for exit codes, signals, TTYs.
 */
import type { Command } from 'commander';

type Register = (program: Command) => void;

const NOUNS: Record<string, () => Promise<Register>> = {
  workspace: async () => (await import('./workspace/index.js')).registerWorkspace,
  wallet: async () => (await import('./wallet/index.js')).registerWallet,
  tags: async () => (await import('./tags/index.js')).registerTags,
  tx: async () => (await import('./tx/index.js')).registerTx,
  transfers: async () => (await import('./transfers/index.js')).registerTransfers,
  lots: async () => (await import('./lots/index.js')).registerLots,
  events: async () => (await import('./events/index.js')).registerEvents,
  import: async () => (await import('./import/import.js')).register,
  export: async () => (await import('./export/index.js')).registerExport,
  rates: async () => (await import('./rates/index.js')).registerRates,
  prices: async () => (await import('./prices/index.js')).registerPrices,
  serve: async () => (await import('./serve/serve.js')).register,
  keys: async () => (await import('./keys/index.js')).registerKeys,
  webhooks: async () => (await import('./webhooks/index.js')).registerWebhooks,
  members: async () => (await import('./members/index.js')).registerMembers,
  schedules: async () => (await import('./schedules/index.js')).registerSchedules,
  login: async () => (await import('./login/index.js')).registerLogin,
  config: async () => (await import('./config/index.js')).registerConfig,
  demo: async () => (await import('./demo/demo.js')).register,
  check: async () => (await import('./check/check.js')).register,
  rules: async () => (await import('./rules/index.js')).registerRules,
  tokens: async () => (await import('./tokens/index.js')).registerTokens,
  period: async () => (await import('./period/index.js')).registerPeriod,
  completion: async () => (await import('./completion/completion.js')).register,
};

/** Nouns that describe the whole tree, so every noun is registered with them. */
const WHOLE_TREE = new Set(['completion']);

/** Global options that take a value, so the word after them is not the noun. */
const VALUE_OPTIONS = new Set(['--db', '--base-url', '--api-key', '--profile', '-w', '--workspace']);

/** The first word of the command line that is not a global option (or its value). */
export function nounOf(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('-')) return arg;
    if (VALUE_OPTIONS.has(arg)) i++;
  }
  return undefined;
}

/** Registers the named noun; for help, an unknown word, none at all or `completion`, every noun. */
export async function registerCommands(program: Command, args: string[]): Promise<void> {
  const noun = nounOf(args);
  const wanted = noun !== undefined && Object.hasOwn(NOUNS, noun) && !WHOLE_TREE.has(noun) ? [noun] : Object.keys(NOUNS);
  const registers = await Promise.all(wanted.map((name) => NOUNS[name]!()));
  for (const register of registers) register(program);
}
