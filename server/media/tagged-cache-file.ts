import fs from 'node:fs';
import { notFound } from '../core/errors.js';
import { isMissing } from '../core/paths.js';
import { SOURCE_TAG_HEAD_BYTES, sourceTagIn } from '../core/media/source-tag.js';

/**
 * Cache files that carry the identity of the original they were made from (a JPEG comment,
 * server/core/media/source-tag.ts): thumbnails and full-size JPEGs. Opening one, reading its
 * tag and the original's identity, in the few steps the hot path of an album page can afford.
 */

/**
 * Thumbnails up to this size are read whole into one buffer (and go out in one write);
 * larger ones are streamed from their descriptor, so memory per response stays bounded.
 */
export const WHOLE_READ_MAX = 512 * 1024;

/**
 * A fresh cache file: its bytes when it is small (the descriptor is closed then), else its
 * open descriptor, which the caller streams from offset 0 (`fs.createReadStream` with this
 * `fd` closes it at the end) or closes itself.
 */
export type OpenThumbnail = {
  readonly path: string;
  readonly size: number;
  /** Identity of the original it was made from (source-tag.ts): it changes with the original. */
  readonly tag: string;
} & ({ readonly body: Buffer; readonly fd?: undefined } | { readonly body?: undefined; readonly fd: number });

/** The tag of a cache file without one (made before tags, or not by us): never fresh. */
export const UNTAGGED = '';

/** The callback API: on every cache hit, it costs the main thread less than fs/promises. */
export function statOriginal(file: string): Promise<fs.Stats> {
  return new Promise((resolve, reject) => {
    fs.stat(file, (err, stats) => {
      // Resolved a moment ago, gone now: the same answer as if it had never been there.
      if (err) reject(isMissing(err) ? notFound('File not found') : err);
      else resolve(stats);
    });
  });
}

/**
 * Opens a cache file and reads it: whole when it has at most `wholeReadMax` bytes (the
 * descriptor is then closed), else only its head, for the tag. Reading from the descriptor
 * keeps size, tag and bytes consistent even if the file is replaced meanwhile. The callback
 * API and a synchronous fstat and close keep the hot path of every album page short: fstat
 * of an open descriptor reads the in-memory inode, and closing a descriptor that was only
 * read does no I/O, so neither is worth a round trip through the thread pool. An empty file
 * (never written by us, writes are atomic) counts as missing.
 */
export function openIfPresent(file: string, wholeReadMax: number): Promise<OpenThumbnail | undefined> {
  return new Promise((resolve, reject) => {
    fs.open(file, 'r', (err, fd) => {
      if (err) return isMissing(err) ? resolve(undefined) : reject(err);
      let size: number;
      try {
        size = fs.fstatSync(fd).size;
      } catch (statErr) {
        closeQuietly(fd);
        return reject(statErr);
      }
      if (size === 0) {
        closeQuietly(fd);
        return resolve(undefined);
      }
      const whole = size <= wholeReadMax;
      // Unsafe is fine: a short read is an error (whole) or cut off (head).
      const buffer = Buffer.allocUnsafe(whole ? size : Math.min(size, SOURCE_TAG_HEAD_BYTES));
      fs.read(fd, buffer, 0, buffer.length, 0, (readErr, bytesRead) => {
        if (readErr || (whole && bytesRead !== size)) {
          closeQuietly(fd);
          return reject(readErr ?? new Error(`${file} shrank while being read`));
        }
        const tag = sourceTagIn(buffer.subarray(0, bytesRead)) ?? UNTAGGED;
        if (!whole) return resolve({ path: file, size, tag, fd });
        closeQuietly(fd);
        resolve({ path: file, size, tag, body: buffer });
      });
    });
  });
}

/** Lets go of a cache file that will not be sent. */
export function release(file: OpenThumbnail | undefined): void {
  if (file?.fd !== undefined) closeQuietly(file.fd);
}

export function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // Already closed: nothing is leaked.
  }
}
