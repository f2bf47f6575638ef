/**
 * The media worker's `checksum` task (media-worker.ts): the CRC-32 of a stretch of one
 * version of a file as a visitor is sent it, for the ZIP's local headers (server/media/served-crc.ts
 * runs it over a file a stretch at a time, each task continuing the last one's CRC, during the
 * album's preparation). Here rather than on the main thread: a 24 MP photo is 7 MB of reading
 * and CRC, a video gigabytes.
 */
import { constants as fsConstants, type Stats } from 'node:fs';
import fs from 'node:fs/promises';
import zlib from 'node:zlib';
import { fileSource } from '../server/core/media/byte-source.js';
import { applyPatches, type BytePatch } from '../server/core/media/location/byte-patches.js';
import { locationPatches } from '../server/core/media/location/location-patches.js';
import { startTask } from './task-budget.js';
import type { ChecksumResult, ChecksumTask, TaskClock } from './tasks.js';

/** Bytes read at once: one buffer, reused. */
const READ_BYTES = 1024 * 1024;
/** As server/media/location-patcher.ts reads a file's head for its patches (only the reads differ). */
const PATCH_HEAD_BYTES = 256 * 1024;

/**
 * The CRC of the bytes from `start` to `end`, continuing `crc`, patched as served when the
 * file goes out without its location. `crc32: null` when the file is not the version asked
 * for, or changed while it was read: the caller's version is gone, which is no failure.
 */
export async function checksum(task: ChecksumTask & TaskClock): Promise<ChecksumResult> {
  startTask(task);
  const { src, version, start, end } = task;
  if (!(Number.isSafeInteger(start) && Number.isSafeInteger(end) && 0 <= start && start <= end && end <= version.size)) {
    throw new RangeError(`checksum: the stretch ${start}–${end} is not within the file's ${version.size} bytes`);
  }
  // The caller stat'ed a real path: a symlink appearing there since is not followed, and a
  // FIFO is not waited on (O_NONBLOCK changes nothing for a regular file).
  const handle = await fs.open(src, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK);
  try {
    if (!isVersion(await handle.stat(), version)) return { crc32: null };
    const patches: readonly BytePatch[] = task.withoutLocation
      ? await locationPatches(fileSource(handle, version.size, Math.min(PATCH_HEAD_BYTES, version.size)))
      : [];
    const buffer = Buffer.allocUnsafe(Math.min(READ_BYTES, Math.max(1, end - start)));
    let crc = task.crc;
    for (let at = start; at < end; ) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, end - at), at);
      if (bytesRead === 0) return { crc32: null };
      const chunk = buffer.subarray(0, bytesRead);
      applyPatches(chunk, at, patches);
      crc = zlib.crc32(chunk, crc);
      at += bytesRead;
    }
    // Written to while it was read (in place, so the handle saw it): its mtime has moved.
    return isVersion(await handle.stat(), version) ? { crc32: crc } : { crc32: null };
  } finally {
    await handle.close();
  }
}

function isVersion(stats: Stats, version: ChecksumTask['version']): boolean {
  return stats.isFile() && stats.size === version.size && stats.mtimeMs === version.mtimeMs && stats.ino === version.ino;
}
