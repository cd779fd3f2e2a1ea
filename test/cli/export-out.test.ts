/**
 * Where `txa export create|download` writes, on the local ledger and against a hostile server
 * (a real HTTP server on 127.0.0.1): a server's export id never picks the path, `--out` never
 * replaces a FIFO, socket or device (nor one behind a symlink), and a failed write (a dropped
 * connection, a full disk) leaves no file behind. The full disk is a real 16 KiB tmpfs, mounted
 * when the tests run as root (as in CI's container); elsewhere those two tests are skipped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { sandbox, type Sandbox } from '../helpers/cli.js';
import { Engine } from '../../src/engine/engine.js';
import { createWorkspace } from '../../src/engine/workspaces.js';
import { addMany, addWallets } from '../exports/seed.js';

/** A 16 KiB tmpfs to fill, or undefined where mounting is not allowed. */
function smallDisk(): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'txa-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}
const disk = smallDisk();

/** Every path under `dir`, so a test sees any file a command left behind. */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((p) => relative(dir, join(dir, p)))
    .sort();
}

let s: Sandbox;
let exportId: string;

/** The hostile API: an export record with whatever id the test sets, and its file. */
let record: Record<string, unknown>;
let serveFile: (res: ServerResponse) => void;
const downloads: string[] = [];
let server: Server;
let url: string;

function answer(id: unknown, format = 'csv'): void {
  record = { id, status: 'completed', format, delivery: { method: 'download' }, download_url: `${url}/dl?token=t`, transaction_count: 1, file_size: 4 };
}

beforeAll(async () => {
  s = sandbox();
  const engine = Engine.open(s.env.TXA_DB);
  const ws = createWorkspace(engine, { name: 'Out', tier: 'pro' }).id;
  addMany(engine, ws, addWallets(engine, ws, ['Main']), 400);
  engine.close();
  s.env.TXA_WORKSPACE = ws;
  exportId = (await s.json(['export', 'create', '--format', 'csv', '-o', 'first.csv'])).data.id;

  server = createServer((req, res) => {
    req.resume();
    if (req.url!.startsWith('/dl')) {
      downloads.push(req.url!);
      serveFile(res);
      return;
    }
    res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, data: record }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 30_000);

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  if (disk) {
    execFileSync('umount', [disk]);
    rmSync(disk, { recursive: true, force: true });
  }
});

const remote = (args: string[], cwd = s.dir) => s.txa(['--base-url', url, '-w', 'ws_remote', ...args], { cwd });

describe('a server export id is untrusted', () => {
  it('an id that is not a plain name is refused before anything is fetched or written', async () => {
    const nested = join(s.dir, 'a', 'b');
    mkdirSync(nested, { recursive: true });
    serveFile = (res) => res.end('a,b\n');
    const before = tree(s.dir);
    const refused = /^error: INTERNAL_ERROR \(id\): the server answered export id .*, which is not a plain file name; nothing was written$/m;
    for (const id of ['../../x', join(s.dir, 'abs'), '.hidden', 'a/b', 'x\\y', 'x\u0000y', '..', '']) {
      answer(id);
      const r = await remote(['export', 'create', '--format', 'csv'], nested);
      expect([r.exitCode, r.stderr], `id ${JSON.stringify(id)}`).toEqual([1, expect.stringMatching(refused)]);
      if (id.startsWith('..') || id.startsWith('/')) expect((await remote(['export', 'download', 'exp_1'], nested)).stderr).toMatch(refused);
    }
    answer('exp_1', '../../x');
    expect((await remote(['export', 'download', 'exp_1'], nested)).stderr).toMatch(/^error: INTERNAL_ERROR \(format\): /m);
    expect(tree(s.dir)).toEqual(before);
    expect(downloads).toEqual([]);
  });

  it('a plain id names ./<id>.<ext>; --out (-o) names the file whatever the id', async () => {
    const dir = mkdtempSync(join(s.dir, 'plain-'));
    serveFile = (res) => res.end('a,b\n');
    answer('exp_Remote-1');
    expect((await remote(['export', 'download', 'exp_Remote-1'], dir)).exitCode).toBe(0);
    answer('../../x');
    const named = await remote(['export', 'download', 'exp_1', '--out', 'mine.csv'], dir);
    expect(named.exitCode).toBe(0);
    expect((await remote(['export', 'download', 'exp_1', '-o', 'short.csv'], dir)).exitCode).toBe(0);
    expect(tree(dir)).toEqual(['exp_Remote-1.csv', 'mine.csv', 'short.csv']);
    expect(readFileSync(join(dir, 'mine.csv'), 'utf8')).toBe('a,b\n');
  });

  it('a connection that drops mid-file is CONNECTION_ERROR and leaves no file', async () => {
    const dir = mkdtempSync(join(s.dir, 'drop-'));
    answer('exp_1');
    serveFile = (res) => {
      res.writeHead(200, { 'content-length': '100000' });
      res.write('x'.repeat(1000), () => res.destroy());
    };
    const r = await remote(['export', 'download', 'exp_1', '--out', 'x.csv'], dir);
    expect([r.exitCode, r.stderr]).toEqual([1, expect.stringMatching(/^error: CONNECTION_ERROR: download of export exp_1 from .* failed/m)]);
    expect(tree(dir)).toEqual([]);
  });
});

describe('--out onto something that is not a regular file', () => {
  it('a FIFO, a socket, a device and a symlink to a device are refused (code and field out) and left as they were', async () => {
    const fifo = join(s.dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const sockPath = join(s.dir, 'sock');
    const sock = createNetServer().listen(sockPath);
    await new Promise((r) => sock.once('listening', r));
    const link = join(s.dir, 'null-link');
    symlinkSync('/dev/null', link);
    const exportsBefore = (await s.json(['export', 'list'])).pagination.total;
    const fetched = downloads.length;
    try {
      for (const [out, kind] of [
        [fifo, 'is a FIFO'],
        [sockPath, 'is a socket'],
        ['/dev/full', 'is a character device'],
        [link, 'is a symbolic link to a character device'],
      ]) {
        const refused = new RegExp(`^error: USAGE_ERROR \\(out\\): --out ${out} ${kind}; txa writes only regular files$`, 'm');
        for (const args of [
          ['export', 'create', '--format', 'csv'],
          ['export', 'download', exportId],
        ]) {
          const r = await s.txa([...args, '--out', out!]);
          expect([r.exitCode, r.stderr], `${args[1]} --out ${out}`).toEqual([2, expect.stringMatching(refused)]);
        }
        const r = await remote(['export', 'download', 'exp_1', '--out', out!]);
        expect([r.exitCode, r.stderr]).toEqual([2, expect.stringMatching(refused)]);
      }
    } finally {
      sock.close();
    }
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(statSync('/dev/full').isCharacterDevice()).toBe(true);
    expect(readlinkSync(link)).toBe('/dev/null');
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
    expect((await s.json(['export', 'list'])).pagination.total).toBe(exportsBefore);
    expect(downloads).toHaveLength(fetched);
  });

  it('a symlink to a regular file is written through: the link stays, its target gets the file', async () => {
    const target = join(s.dir, 'target.csv');
    writeFileSync(target, 'old');
    const link = join(s.dir, 'link.csv');
    symlinkSync(target, link);
    const r = await s.txa(['export', 'download', exportId, '--out', link]);
    expect([r.exitCode, r.stdout]).toEqual([0, target]);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target)).toEqual(readFileSync(join(s.dir, 'first.csv')));
  });
});

describe.skipIf(!disk)('a full disk', () => {
  it('local: IO_ERROR (out), exit 1, nothing left on the disk', async () => {
    const r = await s.txa(['export', 'download', exportId, '--out', join(disk!, 'x.csv')]);
    expect([r.exitCode, r.stderr]).toEqual([
      1,
      expect.stringMatching(/^error: IO_ERROR \(out\): cannot write .*x\.csv: no space left on device \(ENOSPC\); nothing was written$/m),
    ]);
    expect(tree(disk!)).toEqual([]);
  });

  it('remote: IO_ERROR (out), exit 1, nothing left on the disk', async () => {
    answer('exp_1');
    serveFile = (res) => res.end('x'.repeat(200_000));
    const r = await remote(['export', 'download', 'exp_1', '--out', join(disk!, 'x.csv')]);
    expect([r.exitCode, r.stderr]).toEqual([
      1,
      expect.stringMatching(/^error: IO_ERROR \(out\): cannot write .*x\.csv: no space left on device \(ENOSPC\); nothing was written$/m),
    ]);
    expect(tree(disk!)).toEqual([]);
  });
});
