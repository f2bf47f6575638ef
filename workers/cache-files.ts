/**
 * The media worker's side of the cache files (server/media/thumbnails.ts, full-size.ts): each
 * written whole under a temp name and renamed, carrying the identity tag of the original it
 * was made from (server/core/media/source-tag.ts), and asked for that tag when a task starts,
 * so work another process has done meanwhile is not done twice.
 */
import fsSync from 'node:fs';
import path from 'node:path';
import type { Sharp } from 'sharp';
import { tempNameFor } from '../server/core/fs-atomic.js';
import { SOURCE_TAG_HEAD_BYTES, sourceTagIn, withSourceTag } from '../server/core/media/source-tag.js';
import type { Dimensions } from './tasks.js';

/** Whether the cache file `file` was made from the version `tag` of its original (its head only). */
export function holdsTag(file: string, tag: string): boolean {
  let fd: number;
  try {
    fd = fsSync.openSync(file, 'r');
  } catch {
    return false;
  }
  try {
    const head = Buffer.alloc(SOURCE_TAG_HEAD_BYTES);
    return sourceTagIn(head.subarray(0, fsSync.readSync(fd, head, 0, head.length, 0))) === tag;
  } catch {
    return false;
  } finally {
    fsSync.closeSync(fd);
  }
}

/**
 * Encodes `pipeline` and writes the result to a temp name, renamed to `dest`. The file calls
 * are synchronous: this thread runs one task at a time and has nothing else to do meanwhile,
 * while each asynchronous call is a round trip through libuv's four threads, two of which the
 * running decodes hold (measured: 2 ms of a cold tile's 78 ms in the worker, two tiles at a time).
 */
export async function writeAtomically(pipeline: Sharp, dest: string, tag: string | undefined): Promise<Dimensions & { bytes: Buffer }> {
  ensureDir(path.dirname(dest));
  const tmp = tempNameFor(dest);
  try {
    const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
    const bytes = tag === undefined ? data : withSourceTag(data, tag);
    writeNew(tmp, bytes);
    fsSync.renameSync(tmp, dest);
    return { width: info.width, height: info.height, bytes };
  } catch (err) {
    fsSync.rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * Directories of the cache this worker has made: a cold tile is a mkdir less. One deleted
 * since (the admin clearing the cache) is made again when the write into it finds it gone.
 */
const knownDirs = new Set<string>();

function ensureDir(dir: string): void {
  if (knownDirs.has(dir)) return;
  fsSync.mkdirSync(dir, { recursive: true });
  knownDirs.add(dir);
}

/** Writes `bytes` to the new file `tmp`, making its directory again if it went since ensureDir saw it. */
function writeNew(tmp: string, bytes: Buffer): void {
  try {
    fsSync.writeFileSync(tmp, bytes, { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    knownDirs.delete(path.dirname(tmp));
    ensureDir(path.dirname(tmp));
    fsSync.writeFileSync(tmp, bytes, { flag: 'wx' });
  }
}
