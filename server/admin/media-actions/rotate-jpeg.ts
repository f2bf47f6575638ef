import { OrientationError, orientationEdit, orientationOf, readJpegHead, rotatedOrientation } from './jpeg-orientation.js';
import { type StagedFile, stageNewVersion } from './staged-file.js';
import fs from 'node:fs/promises';

/** Enough for any stack of APP segments (64 KB each) before the image data: EXIF, XMP, ICC profiles, previews. */
const HEAD_MAX_BYTES = 2 * 1024 * 1024;
const COPY_CHUNK = 1024 * 1024;

/**
 * Turns a JPEG by `quarterTurns` clockwise quarter turns, losslessly (jpeg-orientation.ts): a
 * new version with the new head and the original's bytes after it is written beside the photo
 * (staged-file.ts), to be renamed over it on commit. The new file is a new version of the
 * original (inode, mtime), so every cached thumbnail, page size and full-size JPEG of it is
 * stale and is made again. Throws OrientationError for a file it cannot handle, before
 * anything is written; the caller holds the album's queue.
 */
export async function stageJpegTurn(file: string, quarterTurns: number): Promise<{ staged: StagedFile; orientation: number }> {
  let orientation = 1;
  const staged = await stageNewVersion(file, async ({ source, before, tmp }) => {
    const head = Buffer.alloc(Math.min(before.size, HEAD_MAX_BYTES));
    const { bytesRead } = await source.read(head, 0, head.length, 0);
    const layout = readJpegHead(head.subarray(0, bytesRead));
    orientation = rotatedOrientation(orientationOf(layout), quarterTurns);
    const edit = orientationEdit(layout, orientation);

    const out = await fs.open(tmp, 'wx', before.mode & 0o777);
    try {
      await out.write(head.subarray(0, edit.start));
      await out.write(edit.bytes);
      const chunk = Buffer.alloc(COPY_CHUNK);
      for (let at = edit.start + edit.length; at < before.size; ) {
        const { bytesRead: n } = await source.read(chunk, 0, Math.min(COPY_CHUNK, before.size - at), at);
        if (n === 0) throw new OrientationError('The photo shrank while it was being rotated');
        await out.write(chunk.subarray(0, n));
        at += n;
      }
    } finally {
      await out.close();
    }
  });
  return { staged, orientation };
}

/** stageJpegTurn, committed at once. */
export async function rotateJpegFile(file: string, quarterTurns: number): Promise<{ orientation: number }> {
  const { staged, orientation } = await stageJpegTurn(file, quarterTurns);
  await staged.commit();
  return { orientation };
}
