import fs from 'node:fs/promises';
import path from 'node:path';
import { moveAcrossDevices, renameDurably, syncFile } from '../../core/fs-atomic.js';
import type { KeyedQueue } from '../keyed-queue.js';
import { uniqueFileName } from './safe-file-name.js';

/** A verified temp file and the name it should get. */
export interface Placement {
  readonly tempPath: string;
  readonly base: string;
  readonly ext: string;
}

/**
 * Moves verified temp files into `destDir`, each under `base + ext` made unique there, and
 * returns the names they got, in order. The batch is placed whole or not at all: if one move
 * fails (disk full, a name the filesystem refuses), the files already placed are removed and
 * the error is thrown. Choosing the names and renaming happen inside the directory's queue,
 * so two uploads of "IMG_1.jpg" at once become IMG_1.jpg and IMG_1-2.jpg, never one over the other.
 */
export async function placeFiles(opts: { files: readonly Placement[]; destDir: string; queue: KeyedQueue }): Promise<string[]> {
  if (opts.files.length === 0) return [];
  // Flushed before the queue is taken: a big upload's fsync must not hold up other writes to the album.
  for (const file of opts.files) await syncFile(file.tempPath);
  return opts.queue.run(opts.destDir, async () => {
    const taken = new Set((await fs.readdir(opts.destDir)).map((n) => n.toLowerCase()));
    const placed: string[] = [];
    try {
      for (const file of opts.files) {
        const name = uniqueFileName(file.base, file.ext, taken);
        await moveFile(file.tempPath, path.join(opts.destDir, name));
        taken.add(name.toLowerCase());
        placed.push(name);
      }
    } catch (err) {
      await Promise.all(placed.map((name) => fs.rm(path.join(opts.destDir, name), { force: true })));
      throw err;
    }
    return placed;
  });
}

/** A durable rename or, when the destination is on another filesystem (a mount inside the tree), a copy beside it renamed into place. */
async function moveFile(from: string, to: string): Promise<void> {
  try {
    await renameDurably(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await moveAcrossDevices(from, to);
  }
}
