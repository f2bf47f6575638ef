import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { onPath } from '../support/redis-server.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = promisify(execFile);

/** What the traced process did to the files, in the order the calls returned. */
type FileEvent =
  | { readonly kind: 'create' | 'fsync' | 'unlink'; readonly path: string }
  | { readonly kind: 'rename' | 'link'; readonly from: string; readonly to: string };

const SYSCALLS = ['openat', 'fsync', 'fdatasync', 'rename', 'renameat', 'renameat2', 'link', 'linkat', 'unlink', 'unlinkat', 'close'];

/**
 * Reads `strace -f` output: joins calls that other threads interrupted (`<unfinished ...>`,
 * `<... resumed>`), follows which path each descriptor was opened on, and keeps the calls
 * that succeeded. Paths are absolute here (the server never works relative to its cwd).
 */
function fileEvents(trace: string): FileEvent[] {
  const pending = new Map<string, string>();
  const fds = new Map<number, string>();
  const events: FileEvent[] = [];
  for (const line of trace.split('\n')) {
    const m = /^(\d+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const [, pid, rest] = m as unknown as [string, string, string];
    if (rest.endsWith('<unfinished ...>')) {
      pending.set(pid, rest.slice(0, -'<unfinished ...>'.length));
      continue;
    }
    const resumed = /^<\.\.\. \w+ resumed>(.*)$/.exec(rest);
    const call = resumed ? `${pending.get(pid) ?? ''}${resumed[1]}` : rest;
    const c = /^(\w+)\((.*)\)\s+=\s+(-?\d+)/.exec(call);
    if (!c) continue;
    const [, name, args, ret] = c as unknown as [string, string, string, string];
    if (Number(ret) < 0) continue;
    const paths = [...args.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((p) => p[1]!);
    const fd = Number(/^(\d+)/.exec(args)?.[1]);
    switch (name) {
      case 'openat':
        fds.set(Number(ret), paths[0]!);
        if (args.includes('O_CREAT')) events.push({ kind: 'create', path: paths[0]! });
        break;
      case 'close':
        fds.delete(fd);
        break;
      case 'fsync':
      case 'fdatasync':
        if (fds.has(fd)) events.push({ kind: 'fsync', path: fds.get(fd)! });
        break;
      case 'rename':
      case 'renameat':
      case 'renameat2':
      case 'link':
      case 'linkat':
        events.push({ kind: name.startsWith('link') ? 'link' : 'rename', from: paths[0]!, to: paths[1]! });
        break;
      case 'unlink':
      case 'unlinkat':
        events.push({ kind: 'unlink', path: paths[0]! });
        break;
    }
  }
  return events;
}

/** strace is installed and may trace here (a container can forbid ptrace). */
async function straceWorks(): Promise<boolean> {
  if (!onPath('strace')) return false;
  try {
    await run('strace', ['-qq', '-e', 'trace=none', 'true']);
    return true;
  } catch {
    return false;
  }
}

/** What is missing for the move at `i` to survive a power cut; empty when nothing is. */
function undurable(events: readonly FileEvent[], i: number): string[] {
  const move = events[i] as Extract<FileEvent, { kind: 'rename' | 'link' }>;
  const synced = (p: string, from: number, to = events.length) =>
    events.slice(from, to).some((e) => e.kind === 'fsync' && path.normalize(e.path) === path.normalize(p));
  const problems: string[] = [];
  // A file this process wrote must be on disk before a name points at it.
  const created = events.slice(0, i).some((e) => e.kind === 'create' && e.path === move.from);
  if (created && !synced(move.from, 0, i)) problems.push('the file was not flushed before it was put in place');
  if (!synced(path.dirname(move.to), i + 1)) problems.push(`${path.dirname(move.to)} not flushed after it`);
  // The old name goes with the rename, or with the unlink that ends a move by hard link.
  const unlinked = events.findIndex((e, j) => j > i && e.kind === 'unlink' && e.path === move.from);
  // A rename within one directory was checked above.
  const gone = move.kind === 'rename' ? (path.dirname(move.from) === path.dirname(move.to) ? -1 : i) : unlinked;
  if (gone >= 0 && !synced(path.dirname(move.from), gone + 1)) problems.push(`${path.dirname(move.from)} not flushed after the old name went`);
  return problems;
}

/**
 * Durable writes (server/core/fs-atomic.ts): after every rename of the owner's files the
 * directory is flushed, so a power cut can neither bring back the old album.json nor lose an
 * upload. Observed on the real system calls, with strace, of a process making every kind of
 * write the admin makes (test/support/admin-writes.ts).
 */
describe('durable writes', function () {
  this.timeout(120_000);

  describe('every write of the admin, traced with strace', () => {
    let events: FileEvent[];
    let albumsDir: string;

    before(async function () {
      if (!(await straceWorks())) {
        console.log('    (skipped: strace not installed, or not allowed to trace here; Debian: apt-get install strace)');
        this.skip();
      }
      const dir = makeTempDir('gallery-strace-');
      try {
        const traceFile = path.join(dir, 'trace');
        const args = ['-f', '-qq', '--seccomp-bpf', '-s', '4096', '-e', `trace=${SYSCALLS.join(',')}`, '-o', traceFile];
        const { stdout } = await run('strace', [...args, process.execPath, '--import', 'tsx', 'test/support/admin-writes.ts'], { cwd: ROOT });
        const done = JSON.parse(stdout.trim().split('\n').at(-1)!) as { root: string; cacheDir: string };
        removeTempDir(done.root);
        albumsDir = path.join(done.root, 'albums');
        // Cache files are made again from the originals: they are not the owner's data (fs-atomic.ts).
        events = fileEvents(fs.readFileSync(traceFile, 'utf8')).filter((e) => !('to' in e) || !e.to.startsWith(`${done.cacheDir}/`));
      } finally {
        removeTempDir(dir);
      }
    });

    it('should have seen each kind of write', () => {
      const moved = events.flatMap((e) => ('to' in e ? [path.relative(path.dirname(albumsDir), e.to)] : []));
      for (const expected of [
        /^albums\/trip\/album\.json$/, // created, then edited
        /^albums\/trip\/a\.jpg$/, // an upload
        /^albums\/trip\/renamed\.jpg$/, // a photo renamed (hard link)
        /^albums\/other\/renamed\.jpg$/, // moved to another album, then turned
        /^albums\/\.trash\/[^/]+\/trip\/b\.jpg$/, // a photo deleted
        /^content\/home\.json$/,
        /^content\/assets\/landing\/landing\.jpg$/,
        /^albums\/\.trash\/[^/]+\/other$/, // an album deleted
        /^albums\/2019\/lisbon\/album\.json$/, // a folder adopted (hard link: never over one written meanwhile)
      ]) {
        expect(
          moved.some((m) => expected.test(m)),
          `${expected} among ${moved.join(', ')}`,
        ).to.equal(true);
      }
      if (fs.existsSync('/dev/shm') && fs.statSync('/dev/shm').dev !== fs.statSync(ROOT).dev) {
        // An upload received on another filesystem: its copy renamed into place.
        expect(moved).to.include('albums/trip/from-mount.jpg');
      }
    });

    it('should flush each file before its rename, and its directory after', () => {
      const problems = events.flatMap((e, i) =>
        e.kind === 'rename' || e.kind === 'link' ? undurable(events, i).map((p) => `${e.kind} ${e.from} -> ${e.to}: ${p}`) : [],
      );
      expect(problems, problems.join('\n')).to.deep.equal([]);
    });
  });

  describe('the code', () => {
    it('should rename only through server/core/fs-atomic.ts (caches in workers/ aside)', () => {
      const offenders: string[] = [];
      const walk = (dir: string) => {
        for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
          const file = path.join(dir, entry.name);
          if (entry.isDirectory()) walk(file);
          else if (file.endsWith('.ts') && path.relative(ROOT, file) !== path.join('server', 'core', 'fs-atomic.ts')) {
            fs.readFileSync(file, 'utf8')
              .split('\n')
              .forEach((line, n) => {
                if (/\brename(Sync)?\(/.test(line) && /\bfs(Sync)?\.|\bfsp\./.test(line))
                  offenders.push(`${path.relative(ROOT, file)}:${n + 1}: ${line.trim()}`);
              });
          }
        }
      };
      walk(path.join(ROOT, 'server'));
      expect(offenders, offenders.join('\n')).to.deep.equal([]);
    });
  });
});
