/**
 * Data never drives the terminal: a tag name and notes holding OSC 0 (title), OSC 52 (clipboard),
 * CSI 2J (clear screen), a C1 CSI and bidi controls are shown as visible `\uXXXX` escapes in human
 * output (piped, on a pty, on a tmux terminal), also when an error message or a remote server's
 * message echoes them; `--json` returns them exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execa } from 'execa';
import { BIN, sandbox, type Sandbox } from '../helpers/cli.js';
import { inTerminal } from '../helpers/terminal.js';
import { Engine } from '../../src/engine/engine.js';
import { createWorkspace } from '../../src/engine/workspaces.js';
import { addTxs, addWallets } from '../exports/seed.js';

const NAME = 'x\u001b]0;PWNED\u0007\u001b[2J\u009b31m\u202eevil';
const NOTES = 'n\u001b]52;c;cHduZWQ=\u0007 \u001b]0;PWNED\u001b\\ \u2066iso\u2069 del\u007f\r\nline2';

/** What may not reach a terminal: C0 but tab and line breaks, DEL, C1, bidi embeddings/overrides/isolates. */
const UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

let s: Sandbox;
let txId: string;
let tagId: string;
let server: Server;
let serverUrl: string;

beforeAll(async () => {
  s = sandbox();
  const engine = Engine.open(s.env.TXA_DB);
  const ws = createWorkspace(engine, { name: 'Escapes', tier: 'pro' }).id;
  [txId] = addTxs(engine, ws, addWallets(engine, ws, ['Main']), [{ wallet: 0, day: '2025-01-02', amount: '1', fiat: '10.00', direction: 'inflow' }]);
  engine.close();
  s.env.TXA_WORKSPACE = ws;
  tagId = (await s.json(['tags', 'create', '--name', NAME, '--type', 'income'])).data.id;
  await s.json(['tx', 'update', txId, '--notes', NOTES, '--add-tag', tagId]);
  // A hostile API: every request fails with a message and field full of control characters.
  server = createServer((req, res) => {
    req.resume();
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ success: false, error: { code: 'INVALID_FIELD', message: `bad ${NAME}`, field: 'na\u009bme' } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 30_000);

afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('human output neutralises control characters', () => {
  it('piped: tags list, tx get and tx list show escapes, never the raw bytes', async () => {
    for (const args of [
      ['tags', 'list'],
      ['tx', 'get', txId],
      ['tx', 'list'],
      ['tags', 'create', '--name', NAME, '--type', 'income'],
    ]) {
      const r = await s.txa(args);
      expect(r.stdout + r.stderr, args.join(' ')).not.toMatch(UNSAFE);
    }
    const tags = await s.txa(['tags', 'list']);
    expect(tags.stdout).toContain('x\\u001b]0;PWNED\\u0007\\u001b[2J\\u009b31m\\u202eevil');
    const tx = await s.txa(['tx', 'get', txId]);
    // One TSV field: the line break inside the notes is a space (the pipe rule), the rest escapes.
    expect(tx.stdout).toContain('notes\tn\\u001b]52;c;cHduZWQ=\\u0007 \\u001b]0;PWNED\\u001b\\ \\u2066iso\\u2069 del\\u007f  line2\n');
    const dup = await s.txa(['tags', 'create', '--name', NAME, '--type', 'income']);
    expect(dup.exitCode).toBe(1);
    expect(dup.stderr).toMatch(/^error: TAG_ALREADY_EXISTS \(name\): a tag named 'x\\u001b\]0;PWNED/m);
  });

  it('--json returns the values exactly, on stdout and in the error body', async () => {
    expect((await s.json(['tags', 'list'])).data[0].name).toBe(NAME);
    const tx = (await s.json(['tx', 'get', txId])).data;
    expect(tx.notes).toBe(NOTES);
    expect(tx.tags[0].name).toBe(NAME);
    const dup = await s.txa(['tags', 'create', '--name', NAME, '--type', 'income', '--json']);
    expect(JSON.parse(dup.stderr).error.message).toBe(`a tag named '${NAME}' already exists in this workspace`);
  });

  it("a remote server's error message and field are data too", async () => {
    const r = await s.txa(['--base-url', serverUrl, 'tags', 'list']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).not.toMatch(UNSAFE);
    expect(r.stderr).toBe('error: INVALID_FIELD (na\\u009bme): bad x\\u001b]0;PWNED\\u0007\\u001b[2J\\u009b31m\\u202eevil');
    const json = await s.txa(['--base-url', serverUrl, 'tags', 'list', '--json']);
    expect(JSON.parse(json.stderr).error).toEqual({ code: 'INVALID_FIELD', message: `bad ${NAME}`, field: 'na\u009bme' });
  });

  it("on a pty, with colour: only txa's own colour sequences reach the terminal", async () => {
    const env = { ...s.env, NO_COLOR: '' };
    const r = await execa('script', ['-qec', `${BIN} tags list; ${BIN} tx get ${txId}; ${BIN} tx list`, '/dev/null'], { env, reject: false, stdin: 'ignore' });
    // A pty turns \n into \r\n; txa's own colours are SGR sequences (ESC [ … m).
    const raw = String(r.stdout).replace(/\r\n/g, '\n');
    expect(raw).toContain('\\u001b]0;PWNED');
    expect(raw).toContain('\\u001b]52;c;');
    expect(raw).toMatch(/\u001b\[1m/); // colour is on, so the check below means something
    expect(raw.replace(/\u001b\[[0-9;]*m/g, '')).not.toMatch(UNSAFE);
  }, 30_000);

  it('on a tmux terminal: the title is not set, the screen is not cleared', async () => {
    const run = await inTerminal(`sh -c 'echo before; ${BIN} tags list'`, { env: s.env, cwd: s.dir, until: /exit=\d/ });
    expect(run.screen).toMatch(/exit=0/);
    expect(run.screen).toMatch(/^before$/m);
    expect(run.screen).toContain('x\\u001b]0;PWNED\\u0007');
    expect(run.title).not.toContain('PWNED');
  }, 30_000);
});
