/**
 * The file-system steps of the media actions (media-actions.ts): moving a file to a name that
 * must be free without ever replacing one that appeared meanwhile, durably, across devices
 * too; and the lookups that decide whether a name is free.
 */
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { moveAcrossDevices, renameDurably, syncDirectories } from '../../core/fs-atomic.js';
import { isMissing } from '../../core/paths.js';

/** Hard links are refused here: the move falls back to a rename (after the name was checked free). */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK', 'ENOSYS', 'EXDEV']);

/**
 * Moves a file to a name that must be free: a hard link fails rather than replace anything
 * (a rename would silently overwrite a file that appeared since the check). Where links are
 * not possible (some filesystems, another device), or for a change of letter case only (on a
 * case-insensitive filesystem the link would find the file itself), a rename.
 */
export async function moveNoReplace(from: string, to: string): Promise<void> {
  if (path.dirname(from) === path.dirname(to) && from.toLowerCase() === to.toLowerCase()) {
    await renameDurably(from, to);
    return;
  }
  try {
    await fs.link(from, to);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (!NO_LINKS.has(code)) throw err;
    if (code === 'EXDEV') await moveAcrossDevices(from, to);
    else await renameDurably(from, to);
    return;
  }
  await fs.unlink(from);
  // As a rename would be: both directories' changes on disk (durable writes, server/core/fs-atomic.ts).
  await syncDirectories(to, from);
}

export async function readNames(dir: string): Promise<string[]> {
  const entries: Dirent[] = await fs.readdir(dir, { withFileTypes: true });
  return entries.map((e) => e.name);
}

export async function lstatOrUndefined(file: string) {
  try {
    return await fs.lstat(file);
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw err;
  }
}

export async function anyExists(dir: string, names: readonly string[]): Promise<boolean> {
  for (const name of names) if (await lstatOrUndefined(path.join(dir, name))) return true;
  return false;
}
