import crypto from 'node:crypto';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LOCK_SUFFIX, lockFileOf } from '../core/media-catalogue.js';
import { TaskCancelledError } from './pool-errors.js';

/**
 * Cache files made once across processes: several gallery processes (PM2's cluster, or
 * machines sharing one CACHE_DIR) asked for the same cold thumbnail at the same moment make it
 * once. The one that makes it holds a lock file beside the cache file (`{file}.lock`,
 * created with `wx`: only one creation can succeed, on a local disk as on NFS); the others
 * wait for the lock to go and then read what it made.
 *
 * The lock only saves work: every cache file is written to a temp name and renamed
 * (workers/, server/core/fs-atomic.ts), so whatever happens to a lock, nobody ever reads a
 * partial file. A holder that dies leaves its lock behind; it is taken over once stale: its
 * holder on this machine is gone (its PID names no process), or it was not refreshed for
 * STALE_MS (the holder touches each of its locks every HEARTBEAT_MS, however long its task
 * waits in the pool's queue). Two processes taking over the same stale lock at once may both
 * make the file, which costs time, never correctness.
 */
export { LOCK_SUFFIX, lockFileOf };
export const HEARTBEAT_MS = 20_000;
export const STALE_MS = 60_000;
/** How often a waiter looks at the lock: soon at first (a thumbnail takes tens of ms), then less often. */
const FIRST_WAIT_MS = 25;
const LONGEST_WAIT_MS = 500;
/** Rounds of waiting for others before making the file here without a lock (they kept failing). */
export const MAX_ROUNDS = 3;

const HOST = os.hostname();
/**
 * Lock ids: this process's random prefix and a count. Unique across processes and restarts
 * as a random id per lock would be, without asking the system for entropy on every cold tile.
 */
const ID_PREFIX = crypto.randomBytes(6).toString('hex');
let locksTaken = 0;

interface LockOwner {
  readonly host: string;
  readonly pid: number;
}

/** A lock this process holds. */
export interface HeldLock {
  readonly file: string;
  /** Removes the lock when it is still this one (a lock taken over as stale is the taker's). */
  release(): Promise<void>;
}

/** Every lock this process holds, by its file, with the id written in it; touched together by one timer. */
const held = new Map<string, string>();
let heartbeat: NodeJS.Timeout | undefined;

function startHeartbeat(): void {
  if (heartbeat) return;
  heartbeat = setInterval(() => {
    const now = new Date();
    for (const lock of held.keys()) fs.utimes(lock, now, now).catch(() => undefined);
  }, HEARTBEAT_MS);
  heartbeat.unref();
}

/** Whether a lock left by `owner`, last touched at `mtimeMs`, can be taken over. */
export function isStale(owner: LockOwner | undefined, mtimeMs: number, now = Date.now()): boolean {
  if (now - mtimeMs > STALE_MS) return true;
  if (owner?.host !== HOST || owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (err) {
    // EPERM: a process of another user has that PID, alive.
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

async function readOwner(lock: string): Promise<LockOwner | undefined> {
  try {
    const owner = JSON.parse(await fs.readFile(lock, 'utf8')) as Partial<LockOwner>;
    return typeof owner.host === 'string' && typeof owner.pid === 'number' ? { host: owner.host, pid: owner.pid } : undefined;
  } catch {
    return undefined;
  }
}

/** 'free', 'held' by a live holder, or 'stale'. */
async function lockState(lock: string): Promise<'free' | 'held' | 'stale'> {
  let mtimeMs: number;
  try {
    mtimeMs = (await fs.stat(lock)).mtimeMs;
  } catch {
    return 'free';
  }
  // A lock just created may not hold its owner yet: young, it counts as held.
  return isStale(await readOwner(lock), mtimeMs) ? 'stale' : 'held';
}

/**
 * Creates `lock` holding `owner`, and its directory when it has none yet (a cold cache: the
 * first file of a size or album); EEXIST when it stands already. Synchronous: on a local disk
 * the kernel creates and fills a file of 100 bytes in memory in microseconds, while the same
 * three calls through libuv's thread pool (whose four threads the running decodes share) held
 * a cold tile's decode back by a millisecond. On a network file system each call is a round
 * trip this process waits for, as the visitor waiting for the tile would anyway.
 */
function createLock(lock: string, owner: string): void {
  let fd: number;
  try {
    fd = fsSync.openSync(lock, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    fsSync.mkdirSync(path.dirname(lock), { recursive: true });
    fd = fsSync.openSync(lock, 'wx');
  }
  try {
    fsSync.writeSync(fd, owner);
  } catch (err) {
    fsSync.rmSync(lock, { force: true });
    throw err;
  } finally {
    fsSync.closeSync(fd);
  }
}

/** Takes the lock of `file` when nobody holds it (or its holder is gone); undefined when another process does. */
export async function tryLock(file: string): Promise<HeldLock | undefined> {
  const lock = lockFileOf(file);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      // The id tells this lock from one that replaced it (an inode number is reused at once).
      const id = `${ID_PREFIX}-${++locksTaken}`;
      createLock(lock, JSON.stringify({ host: HOST, pid: process.pid, id, since: new Date().toISOString() }));
      held.set(lock, id);
      startHeartbeat();
      return { file, release: () => release(lock, id) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if ((await lockState(lock)) !== 'stale') return undefined;
    await fs.rm(lock, { force: true });
  }
  return undefined;
}

/**
 * Removes the lock when it is still this one (not taken over as stale meanwhile).
 * Synchronous, as createLock is: a read and an unlink of a small file, which through the thread
 * pool were six trips while the other decodes ran.
 */
async function release(lock: string, id: string): Promise<void> {
  if (held.get(lock) === id) held.delete(lock);
  if (held.size === 0 && heartbeat) {
    clearInterval(heartbeat);
    heartbeat = undefined;
  }
  try {
    const owner = JSON.parse(fsSync.readFileSync(lock, 'utf8')) as { id?: unknown };
    // unlink, not rm: rm looks at the path first to choose between a file and a directory.
    if (owner.id === id) fsSync.unlinkSync(lock);
  } catch {
    // Gone already, or replaced while being written: not ours either way.
  }
}

/** Resolves once the lock of `file` is gone or stale; a TaskCancelledError when `signal` aborts first. */
export async function untilUnlocked(file: string, signal?: AbortSignal): Promise<void> {
  const lock = lockFileOf(file);
  for (let wait = FIRST_WAIT_MS; ; wait = Math.min(wait * 2, LONGEST_WAIT_MS)) {
    if (signal?.aborted) throw new TaskCancelledError();
    if ((await lockState(lock)) !== 'held') return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, wait);
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}

/**
 * Makes `file` once across processes: with its lock when it is free, else after waiting for
 * the process that holds it, when `isMade` says that process did not make it after all (it
 * failed, or went away). After MAX_ROUNDS of that it is made here regardless.
 */
export async function makeOnce(file: string, make: () => Promise<void>, isMade: () => Promise<boolean>, signal?: AbortSignal): Promise<void> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const lock = await tryLock(file);
    if (lock) {
      try {
        return await make();
      } finally {
        await lock.release();
      }
    }
    await untilUnlocked(file, signal);
    if (await isMade()) return;
  }
  return make();
}
