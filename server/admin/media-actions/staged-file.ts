import type { Stats } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import { renameDurably, tempNameFor } from '../../core/fs-atomic.js';

/** A new version of a file, written and flushed beside it under a temp name, not yet in its place. */
export interface StagedFile {
  /** Renames the new version over the file; ChangedMeanwhileError (and the new version removed) when the file is no longer the one read. */
  commit(): Promise<void>;
  /** Removes the new version: the file stays as it was. */
  discard(): Promise<void>;
}

/** The file was replaced or written to while its new version was being made: nothing was changed. */
export class ChangedMeanwhileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChangedMeanwhileError';
  }
}

/** What a writer of a new version gets: the file open for reading, its identity as read, and the temp name to create. */
export interface NewVersion {
  readonly source: FileHandle;
  readonly before: Stats;
  readonly tmp: string;
}

/**
 * Makes a new version of `file` with `write`, which creates `tmp` (failing, it may leave it
 * half-written: it is removed) and should throw before writing anything when it refuses the
 * file. The new version gets the file's own permissions, whatever the umask would have made
 * of them, and is flushed; it replaces the file only on commit, and only if the file is still
 * the version that was read (inode, size, mtime). Being a new file, it is a new version of the
 * original to every cache (server/core/media/source-tag.ts). The caller holds the album's queue.
 */
export async function stageNewVersion(file: string, write: (version: NewVersion) => Promise<void>): Promise<StagedFile> {
  const tmp = tempNameFor(file);
  let before: Stats;
  try {
    const source = await fs.open(file, 'r');
    try {
      before = await source.stat();
      await write({ source, before, tmp });
    } finally {
      await source.close();
    }
    const out = await fs.open(tmp, 'r+');
    try {
      await out.chmod(before.mode & 0o777);
      await out.sync();
    } finally {
      await out.close();
    }
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
  const discard = () => fs.rm(tmp, { force: true });
  return {
    async commit() {
      try {
        // Replaced meanwhile (by hand, or a copy still being written): leave the new version of it alone.
        const now = await fs.stat(file);
        if (now.ino !== before.ino || now.size !== before.size || now.mtimeMs !== before.mtimeMs) {
          throw new ChangedMeanwhileError('it changed on disk while it was being rotated; try again');
        }
        await renameDurably(tmp, file);
      } catch (err) {
        await discard();
        throw err;
      }
    },
    discard,
  };
}
