import fs from 'node:fs/promises';
import { tempNameFor } from '../../core/fs-atomic.js';
import { OrientationError, orientationEdit, orientationOf, readJpegHead, rotatedOrientation } from './jpeg-orientation.js';

/** Enough for any stack of APP segments (64 KB each) before the image data: EXIF, XMP, ICC profiles, previews. */
const HEAD_MAX_BYTES = 2 * 1024 * 1024;
const COPY_CHUNK = 1024 * 1024;

/**
 * Turns a JPEG by `quarterTurns` clockwise quarter turns, losslessly (jpeg-orientation.ts): a
 * new file with the new head and the original's bytes after it is written beside the photo,
 * flushed, given the photo's permissions, and renamed over it. The new file is a new version
 * of the original (inode, mtime), so every cached thumbnail, page size and full-size JPEG of
 * it is stale and is made again. Throws OrientationError for a file it cannot handle, before
 * anything is written; the caller holds the album's queue.
 */
export async function rotateJpegFile(file: string, quarterTurns: number): Promise<{ orientation: number }> {
  const source = await fs.open(file, 'r');
  const tmp = tempNameFor(file);
  try {
    const before = await source.stat();
    const head = Buffer.alloc(Math.min(before.size, HEAD_MAX_BYTES));
    const { bytesRead } = await source.read(head, 0, head.length, 0);
    const layout = readJpegHead(head.subarray(0, bytesRead));
    const orientation = rotatedOrientation(orientationOf(layout), quarterTurns);
    const edit = orientationEdit(layout, orientation);

    const out = await fs.open(tmp, 'wx', before.mode & 0o777);
    try {
      await out.write(head.subarray(0, edit.start));
      await out.write(edit.bytes);
      const chunk = Buffer.alloc(COPY_CHUNK);
      for (let at = edit.start + edit.length; at < before.size; ) {
        const { bytesRead: n } = await source.read(chunk, 0, Math.min(COPY_CHUNK, before.size - at), at);
        if (n === 0) throw new Error('the photo shrank while it was being rotated');
        await out.write(chunk.subarray(0, n));
        at += n;
      }
      // The photo's own permissions, whatever the umask would have made of them.
      await out.chmod(before.mode & 0o777);
      await out.sync();
    } finally {
      await out.close();
    }
    // Replaced meanwhile (by hand, or a copy still being written): leave the new version alone.
    const after = await fs.stat(file);
    if (after.ino !== before.ino || after.size !== before.size || after.mtimeMs !== before.mtimeMs) {
      throw new OrientationError('The photo changed on disk while it was being rotated; try again');
    }
    await fs.rename(tmp, file);
    return { orientation };
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  } finally {
    await source.close();
  }
}
