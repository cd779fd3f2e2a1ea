/** `txa tags delete` on a terminal asks with the tag's name and how many transactions carry it. */
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, sandbox, type Sandbox } from '../helpers/cli.js';
import { inTerminal } from '../helpers/terminal.js';
import { Engine } from '../../src/engine/engine.js';
import { createWorkspace } from '../../src/engine/workspaces.js';
import { addTxs, addWallets } from '../exports/seed.js';

let s: Sandbox;
let txId: string;

beforeAll(async () => {
  s = sandbox();
  const engine = Engine.open(s.env.TXA_DB!);
  const ws = createWorkspace(engine, { name: 'Prompts', tier: 'pro' }).id;
  [txId] = addTxs(engine, ws, addWallets(engine, ws, ['Main']), [{ wallet: 0, day: '2025-01-02', amount: '1', fiat: '10.00', direction: 'inflow' }]);
  engine.close();
  s.env.TXA_WORKSPACE = ws;
}, 30_000);

const onTerminal = (args: string, line: string) => inTerminal(`${BIN} ${args}`, { env: s.env, answers: [{ prompt: /Delete tag/, line }], until: /exit=\d/ });

describe('tags delete on a terminal', () => {
  it('names the tag and its uses; "n" cancels and keeps it', async () => {
    const id = (await s.json(['tags', 'create', '--name', 'Payroll', '--type', 'income'])).data.id;
    await s.json(['tx', 'tag', txId!, id]);
    const { screen } = await onTerminal(`tags delete ${id}`, 'n');
    expect(screen).toContain(`Delete tag 'Payroll' (${id}) and remove it from the transaction that carries it?`);
    expect(screen).toMatch(/Cancelled\.\s+exit=1/);
    expect((await s.json(['tags', 'list'])).data.map((t: { id: string }) => t.id)).toEqual([id]);
  });

  it('an unused tag says so; "y" deletes it', async () => {
    const id = (await s.json(['tags', 'create', '--name', 'Spare', '--type', 'neutral'])).data.id;
    const { screen } = await onTerminal(`tags delete ${id}`, 'y');
    expect(screen).toContain(`Delete tag 'Spare' (${id})? No transaction carries it.`);
    expect(screen).toMatch(new RegExp(`Deleted tag ${id}\\.\\s+exit=0`));
  });

  it('wallet remove: "n" is Cancelled. and exit 1 (a declined destructive prompt), the wallet kept', async () => {
    const wallets = async () => (await s.json(['wallet', 'list'])).data.map((w: { id: string }) => w.id);
    const [id] = await wallets();
    const { screen } = await inTerminal(`${BIN} wallet remove ${id}`, { env: s.env, answers: [{ prompt: /Remove wallet/, line: 'n' }], until: /exit=\d/ });
    expect(screen).toMatch(/Cancelled\.\s+exit=1/);
    expect(await wallets()).toEqual([id]);
  });

  it('an unknown id is TAG_NOT_FOUND before any question', async () => {
    const { screen } = await inTerminal(`${BIN} tags delete tag_0000000000000000000a`, { env: s.env, until: /exit=\d/ });
    expect(screen).not.toContain('Delete tag');
    expect(screen).toMatch(/error: TAG_NOT_FOUND: tag tag_0000000000000000000a not found[\s\S]*exit=1/);
  });
});
