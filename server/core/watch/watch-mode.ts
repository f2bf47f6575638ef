import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * How a tree is watched, and how `WATCH=auto` finds out that the kernel's file events cannot
 * be trusted there (README "Running several processes / machines"):
 *
 * 1. The filesystem's type (statfs): on NFS, SMB/CIFS, FUSE (sshfs, Docker Desktop's and
 *    virtiofs' bind mounts), 9p, Ceph, AFS and cluster filesystems, inotify reports only the
 *    changes made by this machine, never those of the admin on another one: polling.
 * 2. A canary: once the watchers are set, a dot-file is written into the tree's root and
 *    must be reported by the root's watcher within PROBE_TIMEOUT_MS, else events do not
 *    arrive here (an overlay or bind mount of some container runtimes): polling. Only where
 *    the root is writable; a read-only tree keeps events, since nothing can be tested.
 * 3. A watcher that cannot be made (`ENOSPC`: the inotify watch limit is reached): polling.
 */
export type WatchMode = 'events' | 'poll';

/** Names of the canary files: dot-files, so no scan lists them, and every watcher ignores them. */
export const PROBE_PREFIX = '.gallery-watch-probe-';
export const PROBE_TIMEOUT_MS = 5000;

/** statfs(2) `f_type` of the filesystems where inotify does not see other machines' changes. */
const REMOTE_FILESYSTEMS: ReadonlyMap<number, string> = new Map([
  [0x6969, 'nfs'],
  [0x517b, 'smb'],
  [0xff534d42, 'cifs'],
  [0xfe534d42, 'smb2'],
  [0x65735546, 'fuse'],
  [0x01021997, '9p'],
  [0x00c36400, 'ceph'],
  [0x5346414f, 'afs'],
  [0x73757245, 'coda'],
  [0x7461636f, 'ocfs2'],
  [0x01161970, 'gfs2'],
  [0x0bd00bd0, 'lustre'],
  [0x47504653, 'gpfs'],
]);

/** The name of a filesystem type known to miss other machines' changes, or undefined. */
export function remoteFilesystemName(type: number | bigint): string | undefined {
  // statfs reports the magic as an unsigned long; compare its low 32 bits.
  return REMOTE_FILESYSTEMS.get(Number(BigInt(type) & 0xffffffffn));
}

/** The remote filesystem `dir` is on, or undefined (a local one, or statfs unavailable). */
export async function remoteFilesystemOf(dir: string): Promise<string | undefined> {
  try {
    return remoteFilesystemName((await fs.statfs(dir)).type);
  } catch {
    return undefined;
  }
}

/** A fresh canary name for this process. */
export function probeName(): string {
  return `${PROBE_PREFIX}${os.hostname()}-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
}

export const isProbeFile = (name: string | Buffer | null | undefined): boolean => typeof name === 'string' && name.startsWith(PROBE_PREFIX);

/**
 * Writes the canary `name` into `dir` and resolves true when `seen` resolves first, false
 * after `timeoutMs`; undefined when the canary cannot be written (a read-only tree). The
 * canary is removed either way.
 */
export async function probeEvents(dir: string, name: string, seen: Promise<void>, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean | undefined> {
  const file = path.join(dir, name);
  try {
    await fs.writeFile(file, '', { flag: 'wx' });
  } catch {
    return undefined;
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      seen.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
        timer.unref();
      }),
    ]);
  } finally {
    clearTimeout(timer);
    await fs.rm(file, { force: true });
  }
}
