import fs from 'node:fs/promises';
import { fileSource } from '../../core/media/byte-source.js';
import { turnPatches } from '../../core/media/display-matrix.js';
import { type StagedFile, stageNewVersion } from './staged-file.js';

/**
 * Turns an MP4 or MOV by `quarterTurns` clockwise quarter turns without re-encoding it: the
 * display matrix of each video track is rewritten (server/core/media/display-matrix.ts), the
 * same number of bytes in the same place, in a copy of the file beside it (a reflink where
 * the filesystem offers one, else a plain copy), to be renamed over it on commit
 * (staged-file.ts). Browsers, ffprobe and ffmpeg honour the matrix, so the video plays turned,
 * and its poster, size and web copy, made from a new version of the file, are made again.
 * Throws DisplayMatrixError, before anything is written, for a file without a plain matrix to
 * turn (a WebM, a mirrored matrix). Returns the clockwise turn the video now shows, in degrees.
 *
 * Why the file and not an album.json entry, as for photos that are not JPEGs: the matrix is the
 * container's own place for a turn, so the turn goes wherever the file goes (a download, a
 * copy, another player), while an entry would have the viewer turn a playing <video> with CSS
 * (its controls and full screen turned with it) and every web copy re-encoded to match. The
 * rewrite is safe: the matrix has a fixed size and place, nothing in the file points into it.
 */
export async function stageVideoTurn(file: string, quarterTurns: number): Promise<{ staged: StagedFile; rotation: number }> {
  let rotation = 0;
  const staged = await stageNewVersion(file, async ({ source, before, tmp }) => {
    const patches = await turnPatches(fileSource(source, before.size, 0), quarterTurns);
    rotation = patches[0]!.turns * 90;
    await fs.copyFile(file, tmp, fs.constants.COPYFILE_EXCL | fs.constants.COPYFILE_FICLONE);
    const out = await fs.open(tmp, 'r+');
    try {
      for (const patch of patches) await out.write(patch.bytes, 0, patch.bytes.length, patch.at);
    } finally {
      await out.close();
    }
  });
  return { staged, rotation };
}
