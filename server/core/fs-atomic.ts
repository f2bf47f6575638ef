import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes that survive a power cut. A file is written under a temp name, flushed (fsync),
 * renamed into place, and then its directory is flushed too: the rename lives in the
 * directory, and until that is on disk a power cut can bring back the old `album.json` or
 * lose an upload whose bytes were safely written. Every rename of the owner's files (saves,
 * uploads, moves, the trash) goes through `renameDurably`.
 *
 * Caches are left out on purpose (workers/: thumbnails, full-size JPEGs, web videos, icons):
 * they are made again from the originals, and a cache file a power cut left empty reads as
 * missing and one left torn fails its identity check (server/media/tagged-cache-file.ts),
 * while two more fsyncs per cold thumbnail would cost every visitor of a new album.
 */

/** A temp name beside `file`, so the final rename stays on one filesystem. Dot-prefixed: never served. */
export function tempNameFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`);
}

/**
 * Errors of a filesystem or platform that cannot flush a directory (some FUSE and network
 * filesystems answer EINVAL; Windows cannot open one): the rename stands as the filesystem
 * keeps it, and there is nothing more to do. Any other error (EIO) is a real failure.
 */
const NO_DIRECTORY_SYNC = new Set(['EINVAL', 'ENOTSUP', 'EOPNOTSUPP', 'EISDIR', 'EPERM', 'EACCES', 'EBADF']);

/** Flushes a directory's entries (files created, renamed or removed in it) to disk. */
export async function syncDirectory(dir: string): Promise<void> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(dir, 'r');
  } catch (err) {
    if (NO_DIRECTORY_SYNC.has((err as NodeJS.ErrnoException).code ?? '')) return;
    throw err;
  }
  try {
    await handle.sync();
  } catch (err) {
    if (!NO_DIRECTORY_SYNC.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
  } finally {
    await handle.close();
  }
}

/** Flushes a written file's bytes to disk, so a rename that publishes it never exposes a partial file after a crash. */
export async function syncFile(file: string): Promise<void> {
  const handle = await fs.open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Renames `from` to `to` and flushes the directories involved (the new one first, then the
 * old one when it differs), so the rename is on disk when this resolves. The file's own
 * bytes must already be flushed (writeTempBeside, syncFile).
 */
export async function renameDurably(from: string, to: string): Promise<void> {
  await fs.rename(from, to);
  await syncDirectories(to, from);
}

/** Flushes the directories of `paths` (each once), in that order: after a link, an unlink, a mkdir. */
export async function syncDirectories(...paths: string[]): Promise<void> {
  const dirs = new Set(paths.map((p) => path.dirname(p)));
  for (const dir of dirs) await syncDirectory(dir);
}

/** Writes `data` to a new temp file beside `file` and flushes it; returns its name. */
export async function writeTempBeside(file: string, data: string | Uint8Array): Promise<string> {
  const tmp = tempNameFor(file);
  try {
    const handle = await fs.open(tmp, 'wx');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    return tmp;
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

/**
 * Puts a finished temp file in place of `file`: flushes it, renames it, flushes the
 * directory. The temp file is removed when any step fails.
 */
export async function commitTempFile(tmp: string, file: string, opts: { flushed?: boolean } = {}): Promise<void> {
  try {
    if (opts.flushed !== true) await syncFile(tmp);
    await renameDurably(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

/** Writes `data` to a temp file beside `file`, flushes it, renames it over `file` and flushes the directory. */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  await commitTempFile(await writeTempBeside(file, data), file, { flushed: true });
}

/**
 * Writes `file` only if it does not exist yet, atomically: a flushed temp file linked to the
 * final name (a link, unlike a rename, refuses to replace one), then the directory flushed.
 * False, and nothing changed, when `file` exists (written meanwhile by someone else).
 */
export async function writeFileExclusive(file: string, data: string | Uint8Array): Promise<boolean> {
  const tmp = await writeTempBeside(file, data);
  try {
    await fs.link(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    await fs.rm(tmp, { force: true });
  }
  await syncDirectory(path.dirname(file));
  return true;
}

/**
 * Moves a file to another filesystem (a mount inside the tree), where rename cannot go:
 * copied beside `to` under a temp name, flushed, renamed into place, then `from` removed;
 * each directory flushed after its change. Like rename, it replaces a file at `to`.
 */
export async function moveAcrossDevices(from: string, to: string): Promise<void> {
  const tmp = tempNameFor(to);
  try {
    await fs.copyFile(from, tmp, fs.constants.COPYFILE_EXCL);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
  await commitTempFile(tmp, to);
  await fs.rm(from, { force: true });
  await syncDirectory(path.dirname(from));
}
