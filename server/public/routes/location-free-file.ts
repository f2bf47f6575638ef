import { constants as fsConstants } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Request, Response } from 'express';
import { HttpError, notFound } from '../../core/errors.js';
import { applyPatches, type BytePatch } from '../../core/media/location/byte-patches.js';
import { isMissing } from '../../core/paths.js';
import { type LocationPatcher, locationFreeEtag } from '../../media/location-patcher.js';

export interface LocationFreeFile {
  /** Real absolute path of the file, as the resolver (or a cache) gives it. */
  readonly absPath: string;
  readonly contentType: string;
  readonly cacheControl: string;
}

/** Bytes per read while streaming. */
const CHUNK_BYTES = 128 * 1024;

/**
 * Sends a file without its location (docs/api.md#location-privacy), answering as
 * `res.sendFile` (send) answers for the file itself: Range (one range; several, or a
 * malformed header, get the whole file), If-Range, If-None-Match / If-Modified-Since (304),
 * If-Match / If-Unmodified-Since (412), HEAD, 416 with the size in `Content-Range`. The
 * bytes are the file's with the patches applied as they stream, so the length, and every
 * range, are those of the file; the ETag is the patched one (locationFreeEtag).
 *
 * One handle serves the stat, the search for the patches and the reads: they all see the
 * same version of the file, even one replaced meanwhile.
 */
export async function sendLocationFree(req: Request, res: Response, file: LocationFreeFile, patcher: LocationPatcher): Promise<void> {
  let handle: FileHandle;
  try {
    // The path is already real: a symlink appearing there since is not followed.
    handle = await fs.open(file.absPath, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW);
  } catch (err) {
    if (isMissing(err) || (err as NodeJS.ErrnoException).code === 'ELOOP') throw notFound('File not found');
    throw err;
  }
  let streaming = false;
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw notFound('File not found');
    const patches = await patcher.patchesFor(file.absPath, handle, stats);
    res.setHeader('Accept-Ranges', 'bytes');
    res.setHeader('Cache-Control', file.cacheControl);
    res.setHeader('Last-Modified', stats.mtime.toUTCString());
    res.setHeader('ETag', locationFreeEtag(stats));
    res.setHeader('Content-Type', file.contentType);
    if (preconditionFailed(req, res)) throw new HttpError(412, 'Precondition failed');
    if (req.fresh) {
      for (const name of ['Content-Type', 'Content-Length', 'Content-Range']) res.removeHeader(name);
      res.status(304).end();
      return;
    }

    let start = 0;
    let length = stats.size;
    const range = /^ *bytes=/.test(req.headers.range ?? '') && rangeIsFresh(req, res) ? req.range(stats.size, { combine: true }) : undefined;
    if (range === -1) {
      throw new HttpError(416, 'Range not satisfiable', { headers: { 'Content-Range': `bytes */${stats.size}` } });
    }
    if (Array.isArray(range) && range.length === 1) {
      const only = range[0]!;
      res.status(206);
      res.setHeader('Content-Range', `bytes ${only.start}-${only.end}/${stats.size}`);
      start = only.start;
      length = only.end - only.start + 1;
    }
    res.setHeader('Content-Length', length);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }

    const body = Readable.from(readPatched(handle, start, start + length, patches), { objectMode: false, highWaterMark: CHUNK_BYTES });
    streaming = true;
    // A file that changed under the reader ends the response as a failure, never a short success.
    body.on('error', (err) => res.destroy(err));
    res.on('close', () => body.destroy());
    body.pipe(res);
  } finally {
    if (!streaming) await handle.close();
  }
}

/**
 * The bytes from `start` to `end` (exclusive) of the open file, with `patches` applied.
 * Owns `handle`: closes it when done, failed, or returned early (the stream destroyed).
 */
async function* readPatched(handle: FileHandle, start: number, end: number, patches: readonly BytePatch[]): AsyncGenerator<Buffer> {
  try {
    let position = start;
    while (position < end) {
      const want = Math.min(CHUNK_BYTES, end - position);
      const buffer = Buffer.allocUnsafe(want);
      const { bytesRead } = await handle.read(buffer, 0, want, position);
      if (bytesRead === 0) throw new Error(`the file shrank to ${position} bytes while being sent`);
      const chunk = buffer.subarray(0, bytesRead);
      applyPatches(chunk, position, patches);
      position += bytesRead;
      yield chunk;
    }
  } finally {
    await handle.close();
  }
}

/** If-Match / If-Unmodified-Since, as send judges them. */
function preconditionFailed(req: Request, res: Response): boolean {
  const etag = String(res.getHeader('ETag'));
  const match = req.headers['if-match'];
  if (match) {
    if (match.trim() === '*') return false;
    return match.split(',').every((m) => {
      const tag = m.trim();
      return tag !== etag && `W/${tag}` !== etag && tag !== `W/${etag}`;
    });
  }
  const unmodifiedSince = Date.parse(req.headers['if-unmodified-since'] ?? '');
  if (!Number.isNaN(unmodifiedSince)) return Date.parse(String(res.getHeader('Last-Modified'))) > unmodifiedSince;
  return false;
}

/** If-Range: the range applies only to the representation the client has (its ETag, or not modified since its date). */
function rangeIsFresh(req: Request, res: Response): boolean {
  const ifRange = req.get('If-Range');
  if (!ifRange) return true;
  if (ifRange.includes('"')) return ifRange.includes(String(res.getHeader('ETag')));
  return Date.parse(String(res.getHeader('Last-Modified'))) <= Date.parse(ifRange);
}
