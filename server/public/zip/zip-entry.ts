import { constants as fsConstants, type Stats } from 'node:fs';
import fs from 'node:fs/promises';
import { applyPatches } from '../../core/media/location/byte-patches.js';
import type { LocationPatcher } from '../../media/location-patcher.js';
import { ZIP_STREAM_CHUNK_BYTES } from './download-limits.js';

/**
 * One file of an album's archive, whichever way the archive is written (album-zip.ts with
 * archiver, known-crc-zip.ts when every CRC is known): what the plan promises of it, and its
 * bytes as they are read, checked against that promise.
 */

export interface SizedName {
  /** Entry name exactly as it is written (see `entryName` in album-zip.ts). */
  readonly name: string;
  readonly size: number;
}

export interface ZipLayout {
  /** Exact length of the archive in bytes. */
  readonly size: number;
  /** Whether the archive needs (and will be written with) the ZIP64 end records. */
  readonly zip64: boolean;
}

/** A file to archive, as it was when stat'ed: the archive promises exactly these bytes. */
export interface ZipEntry extends SizedName {
  /** Real absolute path to read from. */
  readonly path: string;
  readonly mtime: Date;
  /** The rest of the version stat'ed (with size): what a known CRC is the CRC of. */
  readonly mtimeMs: number;
  readonly ino: number;
  /** Archived without its location: patched as it is read, same length (docs/api.md#location-privacy). */
  readonly hideLocation?: boolean;
  /**
   * The CRC-32 of the bytes archived, known before the request (server/media/served-crc.ts):
   * then the file read must be that very version, from start to end.
   */
  readonly crc32?: number;
}

export interface ZipPlan extends ZipLayout {
  readonly entries: readonly ZipEntry[];
  /** Every entry's CRC is known: written in the local headers, none computed (known-crc-zip.ts). */
  readonly crcsKnown: boolean;
}

/** The file on disk no longer matches the plan (changed size, vanished): the archive cannot be finished. */
export class SourceChangedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SourceChangedError';
  }
}

/** The reader went away before the archive was complete. */
export class ClientClosedError extends Error {
  constructor(message = 'Client closed the connection before the archive was complete') {
    super(message);
    this.name = 'ClientClosedError';
  }
}

/** The reader took nothing for too long and was disconnected: as good as gone. */
export class ClientStalledError extends ClientClosedError {
  constructor(idleMs: number) {
    super(`Client read nothing for ${idleMs} ms and was disconnected`);
    this.name = 'ClientStalledError';
  }
}

/**
 * Reads exactly the planned bytes of a file, its location patched out when the entry hides
 * it (the same length). Archiver computes the CRC of the bytes it is given, so it is that of
 * the patched bytes; a known CRC was computed over the same patched bytes, and holds only for
 * the version it was computed from: such an entry's file must still be that version when
 * opened, and still be when read to its end (a write in place moves its mtime). Opening is
 * deferred to the first read, and the handle is closed when the generator finishes, fails
 * or is returned (stream destroyed).
 */
export async function* readExactly(entry: ZipEntry, locationPatcher: LocationPatcher): AsyncGenerator<Buffer> {
  let handle: fs.FileHandle;
  try {
    // The plan holds the real path; a symlink appearing there since is not followed.
    handle = await fs.open(entry.path, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW);
  } catch (err) {
    throw new SourceChangedError(`${entry.name}: cannot be opened any more (${(err as Error).message})`, { cause: err });
  }
  try {
    const st = await handle.stat();
    if (!st.isFile() || st.size !== entry.size) {
      throw new SourceChangedError(`${entry.name}: size changed from ${entry.size} to ${st.size} bytes`);
    }
    checkVersion(entry, st);
    const patches = entry.hideLocation ? await locationPatcher.patchesFor(entry.path, handle, st) : [];
    let position = 0;
    while (position < entry.size) {
      const want = Math.min(ZIP_STREAM_CHUNK_BYTES, entry.size - position);
      const buf = Buffer.allocUnsafe(want);
      const { bytesRead } = await handle.read(buf, 0, want, position);
      if (bytesRead === 0) {
        throw new SourceChangedError(`${entry.name}: shrank to ${position} of ${entry.size} bytes while being read`);
      }
      const chunk = bytesRead === want ? buf : buf.subarray(0, bytesRead);
      applyPatches(chunk, position, patches);
      position += bytesRead;
      yield chunk;
    }
    // One more byte proves the file did not grow: the archive must hold the whole file.
    const { bytesRead } = await handle.read(Buffer.alloc(1), 0, 1, position);
    if (bytesRead !== 0) throw new SourceChangedError(`${entry.name}: grew past ${entry.size} bytes while being read`);
    if (entry.crc32 !== undefined) checkVersion(entry, await handle.stat());
  } finally {
    await handle.close();
  }
}

/** An entry whose CRC is known must be read from that version of its file. */
function checkVersion(entry: ZipEntry, st: Stats): void {
  if (entry.crc32 === undefined || (st.mtimeMs === entry.mtimeMs && st.ino === entry.ino && st.size === entry.size)) return;
  throw new SourceChangedError(`${entry.name}: changed since the archive was planned (its CRC is of the version before)`);
}
