/**
 * Apple's content identifier of a Live Photo's two files (docs/api.md#live-photos): an iPhone
 * writes one UUID into the still (its EXIF MakerNote) and into the movie (its QuickTime
 * metadata), which is how a still and a movie whose names differ are found to be one Live
 * Photo, and two files named alike found not to be.
 *
 * Only headers are read, within fixed bounds, whatever the file claims: the head of a JPEG,
 * the EXIF block sharp finds in a HEIC's header, and for a movie the atom headers down to
 * `moov`'s metadata atom and that atom itself when it is small (it holds a few keys; a Live
 * Photo's whole `moov` is a few KB). The movie is read here rather than with ffprobe: a few
 * reads instead of a child process per file, for folders with thousands of Live Photos.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import sharp from 'sharp';
import { readTopLevelAtoms } from '../server/core/media/mp4-atoms.js';
import { contentIdText, readAppleContentId, readJpegHead } from './exif-reader.js';
import { type ContentIdResult, type ContentIdTask, type TaskClock, taskStarted } from './tasks.js';

/** The QuickTime metadata key Apple writes the identifier under. */
export const QUICKTIME_CONTENT_ID_KEY = 'com.apple.quicktime.content.identifier';

/** The pool's `contentId` task (workers/tasks.ts). */
export async function contentId(task: ContentIdTask & TaskClock): Promise<ContentIdResult> {
  parentPort?.postMessage(taskStarted(task.runId));
  // A FIFO or device would block the open for good (see regularFile in open-image.ts).
  if (!(await fs.stat(task.src)).isFile()) throw new Error(`${path.basename(task.src)} is not a regular file`);
  return { contentId: task.kind === 'video' ? await readQuickTimeContentId(task.src) : await readStillContentId(task.src) };
}

/** The identifier of a JPEG, HEIC or HEIF still; null when it has none. */
export async function readStillContentId(file: string): Promise<string | null> {
  const head = await readAt(file, 0, JPEG_HEAD_BYTES);
  if (head.length > 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) {
    const { exif } = readJpegHead(head);
    return exif ? readAppleContentId(exif) : null;
  }
  // HEIC/HEIF: libvips reads the header only, EXIF included, without decoding any pixel.
  const { exif } = await sharp(file, { failOn: 'error' }).metadata();
  return exif ? readAppleContentId(exif) : null;
}

/** The EXIF APP1 segment is at most 64 KB, near the start; this leaves room for others before it. */
const JPEG_HEAD_BYTES = 256 * 1024;
/** A metadata atom holds a handful of keys; one larger than this is not Apple's, and is not read. */
export const MAX_META_BYTES = 256 * 1024;
/** Children of `moov` (or `udta`) whose headers are read, at most: real files have a few. */
const MAX_CHILD_ATOMS = 256;
/** Keys and items of one metadata atom read, at most. */
const MAX_KEYS = 256;

interface Atom {
  readonly type: string;
  /** Where the body starts (after the 8- or 16-byte header). */
  readonly bodyAt: number;
  /** Where the atom ends. */
  readonly end: number;
}

/**
 * The identifier of a QuickTime movie; null when it has none. Apple puts the metadata atom
 * (`meta`: `hdlr` 'mdta', `keys`, `ilst`) directly in `moov`; ffmpeg writes it in `moov/udta`.
 * Both are looked at, `moov`'s own first.
 */
export async function readQuickTimeContentId(file: string): Promise<string | null> {
  const { atoms } = await readTopLevelAtoms(file);
  const moov = atoms.find((a) => a.type === 'moov');
  if (!moov) return null;
  const handle = await fs.open(file, 'r');
  try {
    const inMoov = await childAtoms(handle, moov.offset + 8, moov.offset + moov.size);
    const metas = inMoov.filter((a) => a.type === 'meta');
    const udta = inMoov.find((a) => a.type === 'udta');
    if (udta) metas.push(...(await childAtoms(handle, udta.bodyAt, udta.end)).filter((a) => a.type === 'meta'));
    for (const meta of metas) {
      if (meta.end - meta.bodyAt > MAX_META_BYTES) continue;
      const body = await readFrom(handle, meta.bodyAt, meta.end - meta.bodyAt);
      const id = contentIdOfMeta(body);
      if (id !== null) return id;
    }
    return null;
  } finally {
    await handle.close();
  }
}

/**
 * The identifier in the body of a QuickTime metadata atom, or null. QuickTime's `meta` starts
 * with its children; ISO's (as ffmpeg writes it) with 4 bytes of version and flags first.
 */
export function contentIdOfMeta(body: Buffer): string | null {
  const start = body.toString('latin1', 4, 8) === 'hdlr' ? 0 : 4;
  const children = atomsIn(body, start, body.length);
  const hdlr = children.find((a) => a.type === 'hdlr');
  // hdlr: version and flags (4), pre-defined (4), then the handler type.
  if (!hdlr || body.toString('latin1', hdlr.bodyAt + 8, hdlr.bodyAt + 12) !== 'mdta') return null;
  const keys = children.find((a) => a.type === 'keys');
  const ilst = children.find((a) => a.type === 'ilst');
  if (!keys || !ilst) return null;
  const keyIndex = indexOfKey(body, keys, QUICKTIME_CONTENT_ID_KEY);
  if (keyIndex === null) return null;
  // ilst: one atom per value, its type the 1-based key index, holding a `data` atom.
  for (const item of atomsIn(body, ilst.bodyAt, ilst.end)) {
    if (body.readUInt32BE(item.bodyAt - 4) !== keyIndex) continue;
    const data = atomsIn(body, item.bodyAt, item.end).find((a) => a.type === 'data');
    // data: type (4; 1 is UTF-8) and locale (4), then the value.
    if (!data || data.end - data.bodyAt < 8 || body.readUInt32BE(data.bodyAt) !== 1) return null;
    return contentIdText(body.toString('utf8', data.bodyAt + 8, data.end));
  }
  return null;
}

/** The 1-based index of `name` in a `keys` atom: version and flags (4), count (4), then (size, namespace, name) entries. */
function indexOfKey(body: Buffer, keys: Atom, name: string): number | null {
  if (keys.end - keys.bodyAt < 8) return null;
  const count = Math.min(body.readUInt32BE(keys.bodyAt + 4), MAX_KEYS);
  let at = keys.bodyAt + 8;
  for (let i = 1; i <= count && at + 8 <= keys.end; i++) {
    const size = body.readUInt32BE(at);
    if (size < 8 || at + size > keys.end) return null;
    if (body.toString('latin1', at + 4, at + 8) === 'mdta' && body.toString('utf8', at + 8, at + size) === name) return i;
    at += size;
  }
  return null;
}

/** The child atoms of `buf` between `start` and `end`: at most MAX_KEYS, stopping at a size that cannot be. */
function atomsIn(buf: Buffer, start: number, end: number): Atom[] {
  const found: Atom[] = [];
  let at = start;
  while (at + 8 <= end && found.length < MAX_KEYS) {
    let size = buf.readUInt32BE(at);
    if (size === 0) size = end - at;
    if (size < 8 || at + size > end) break;
    found.push({ type: buf.toString('latin1', at + 4, at + 8), bodyAt: at + 8, end: at + size });
    at += size;
  }
  return found;
}

/** The child atoms of a container atom in a file, header by header, bounded like atomsIn. */
async function childAtoms(handle: fs.FileHandle, start: number, end: number): Promise<Atom[]> {
  const found: Atom[] = [];
  const header = Buffer.alloc(16);
  let at = start;
  while (at + 8 <= end && found.length < MAX_CHILD_ATOMS) {
    const { bytesRead } = await handle.read(header, 0, 16, at);
    if (bytesRead < 8) break;
    let size = header.readUInt32BE(0);
    let headerSize = 8;
    if (size === 1) {
      if (bytesRead < 16) break;
      const large = header.readBigUInt64BE(8);
      if (large > BigInt(end - at)) break;
      size = Number(large);
      headerSize = 16;
    } else if (size === 0) size = end - at;
    if (size < headerSize || at + size > end) break;
    found.push({ type: header.toString('latin1', 4, 8), bodyAt: at + headerSize, end: at + size });
    at += size;
  }
  return found;
}

async function readAt(file: string, position: number, length: number): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    return await readFrom(handle, position, length);
  } finally {
    await handle.close();
  }
}

async function readFrom(handle: fs.FileHandle, position: number, length: number): Promise<Buffer> {
  // Unsafe is fine: only the bytes read are kept.
  const buffer = Buffer.allocUnsafe(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}
