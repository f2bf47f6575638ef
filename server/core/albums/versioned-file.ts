import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { renameDurably, writeTempBeside } from '../fs-atomic.js';

/** One version of a small text file: its text and what tells this version from any later one. */
export interface FileVersion {
  readonly text: string;
  /**
   * Device, inode, size, mtime and ctime (ns) plus a hash of the text. A save in place changes
   * the times, a save by rename changes the inode, and ctime cannot be set back by anyone; the
   * hash covers filesystems with coarse timestamps.
   */
  readonly key: string;
}

const MAX_READ_TRIES = 3;

/** Reads `file` with the identity that goes with exactly that text (retrying a read torn by a save in place). */
export async function readVersioned(file: string): Promise<FileVersion> {
  for (let attempt = 1; ; attempt++) {
    const handle = await fs.open(file, 'r');
    try {
      const before = await handle.stat({ bigint: true });
      const text = await handle.readFile('utf8');
      const after = await handle.stat({ bigint: true });
      const same = before.size === after.size && before.mtimeNs === after.mtimeNs && before.ctimeNs === after.ctimeNs;
      if (same || attempt === MAX_READ_TRIES) {
        const hash = crypto.createHash('sha256').update(text).digest('base64url');
        return { text, key: `${after.dev}:${after.ino}:${after.size}:${after.mtimeNs}:${after.ctimeNs}:${hash}` };
      }
    } finally {
      await handle.close();
    }
  }
}

/**
 * Puts `data` in place of `file` (temp file, fsync, rename, fsync of the directory) only if `file` is still the
 * version `expected` that the new data was derived from; answers false, leaving `file` alone,
 * when someone saved it since (or removed it). Write errors (a read-only tree) are thrown.
 *
 * Why this and not a lock: the other writers are people with editors and the gallery's other
 * process, and none of them would honour a lock file. So the new file is made ready first and
 * the check comes last, just before the rename: what is left is the time between one stat+read
 * and one rename, microseconds, instead of the whole read-modify-write. A save landing inside
 * those microseconds would still be replaced; nothing short of every writer taking a lock can
 * close that, and Linux offers no rename that compares first.
 *
 * `beforeCheck` runs after the temp file is written, right before the check: a seam for tests
 * that need a save to land in the window.
 */
export async function replaceIfUnchanged(file: string, expected: FileVersion, data: string, beforeCheck?: () => void | Promise<void>): Promise<boolean> {
  const tmp = await writeTempBeside(file, data);
  try {
    await beforeCheck?.();
    if (!(await isStill(file, expected))) {
      await fs.rm(tmp, { force: true });
      return false;
    }
    await renameDurably(tmp, file);
    return true;
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

async function isStill(file: string, expected: FileVersion): Promise<boolean> {
  try {
    return (await readVersioned(file)).key === expected.key;
  } catch {
    return false; // gone or unreadable: certainly not the version we read
  }
}
