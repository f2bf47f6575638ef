import fs from 'node:fs/promises';
import path from 'node:path';
import { tempNameFor } from '../../fs-atomic.js';
import type { KeyedQueue } from '../keyed-queue.js';
import { uniqueFileName } from './safe-file-name.js';

/** Flushes a received file to disk, so the rename that publishes it never exposes a partial file after a crash. */
async function flush(file: string): Promise<void> {
  const handle = await fs.open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Moves a verified temp file into `destDir` under `base + ext` made unique there, and returns
 * the name it got. Choosing the name and renaming happen inside the directory's queue, so two
 * uploads of "IMG_1.jpg" at once become IMG_1.jpg and IMG_1-2.jpg, never one over the other.
 */
export async function placeFile(opts: { tempPath: string; destDir: string; base: string; ext: string; queue: KeyedQueue }): Promise<string> {
  await flush(opts.tempPath);
  return opts.queue.run(opts.destDir, async () => {
    const taken = new Set((await fs.readdir(opts.destDir)).map((n) => n.toLowerCase()));
    const name = uniqueFileName(opts.base, opts.ext, taken);
    await moveFile(opts.tempPath, path.join(opts.destDir, name));
    return name;
  });
}

/** rename, or — when the destination is on another filesystem (a mount inside the tree) — copy beside it, then rename. */
async function moveFile(from: string, to: string): Promise<void> {
  try {
    await fs.rename(from, to);
    return;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
  }
  const tmp = tempNameFor(to);
  try {
    await fs.copyFile(from, tmp, fs.constants.COPYFILE_EXCL);
    await flush(tmp);
    await fs.rename(tmp, to);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
  await fs.rm(from, { force: true });
}
