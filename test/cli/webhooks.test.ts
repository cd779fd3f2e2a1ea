/** `txa webhooks` and `txa events list` on the local ledger. */
import { describe, expect, it } from 'vitest';
import { sandbox } from '../helpers/cli.js';
import { startServe, until } from '../server/serve-process.js';

describe('txa webhooks', () => {
  it('adds (secret shown once), lists, removes; events list shows scheduled deliveries', async () => {
    const sb = sandbox();
    const ws = (await sb.json(['workspace', 'create', 'Acme'])).data.id;
    const added = await sb.txa(['-w', ws, 'webhooks', 'add', '--url', 'https://hooks.example.com/txa', '--events', 'tag.created,tag.deleted']);
    expect(added.exitCode).toBe(0);
    const secret = /secret\t(whsec_\S+)/.exec(added.stdout)?.[1];
    expect(secret).toBeDefined();
    const list = await sb.json(['-w', ws, 'webhooks', 'list']);
    expect(list.data).toEqual([expect.objectContaining({ url: 'https://hooks.example.com/txa', events: ['tag.created', 'tag.deleted'] })]);
    expect(JSON.stringify(list)).not.toContain(secret!);
    const all = await sb.json(['-w', ws, 'webhooks', 'add', '--url', 'https://hooks.example.com/all']);
    expect(all.data.events).toEqual(['*']);

    // A change made by the CLI gets its deliveries in its own transaction; `txa serve` sends them.
    await sb.json(['-w', ws, 'tags', 'create', '--name', 'Rent', '--type', 'expense']);
    const states = async () =>
      (await sb.json(['-w', ws, 'events', 'list', '--type', 'tag.created'])).data[0].deliveries as { url: string; status: string; attempts: unknown[] }[];
    expect((await states()).map((d) => [d.url, d.status, d.attempts.length]).sort()).toEqual([
      ['https://hooks.example.com/all', 'pending', 0],
      ['https://hooks.example.com/txa', 'pending', 0],
    ]);
    const srv = await startServe(sb.env.TXA_DB!, [], { TXA_WEBHOOK_TIMEOUT_MS: '2000' });
    try {
      await until(async () => (await states()).every((d) => d.attempts.length > 0), 15_000, 'the first attempts');
    } finally {
      await srv.stop();
    }
    const plain = await sb.txa(['-w', ws, 'events', 'list', '--type', 'tag.created']);
    expect(plain.stdout).toMatch(/tag\.created\t\S+\t(pending|succeeded|failed) \(1 tries\), (pending|succeeded|failed) \(1 tries\)/);

    const noYes = await sb.txa(['-w', ws, 'webhooks', 'remove', list.data[0].id]);
    expect(noYes.exitCode).toBe(2);
    expect((await sb.json(['-w', ws, 'webhooks', 'remove', list.data[0].id, '--yes'])).data).toEqual({ id: list.data[0].id, deleted: true });
    const after = await sb.json(['-w', ws, 'events', 'list', '--type', 'tag.created']);
    expect(after.data[0].deliveries.find((d: { url: string }) => d.url.endsWith('/txa'))).toMatchObject({ status: 'failed', webhook_id: null });
    const again = await sb.txa(['-w', ws, 'webhooks', 'remove', list.data[0].id, '--yes']);
    expect([again.exitCode, again.stderr]).toEqual([1, expect.stringContaining('WEBHOOK_NOT_FOUND')]);
  });

  it('refuses bad URLs and unknown event types', async () => {
    const sb = sandbox();
    const ws = (await sb.json(['workspace', 'create', 'Acme'])).data.id;
    // Values no flag takes are usage errors naming the flag (docs/cli.md, exit 2).
    for (const [args, field] of [
      [['--url', 'ftp://x.example/h'], 'url'],
      [['--url', 'not a url'], 'url'],
      [['--url', 'https://x.example/h', '--events', 'tag.exploded'], 'events'],
    ] as const) {
      const r = await sb.txa(['-w', ws, 'webhooks', 'add', ...args]);
      expect([r.exitCode, r.stderr], args.join(' ')).toEqual([2, expect.stringContaining(`USAGE_ERROR (${field})`)]);
    }
  });
});
