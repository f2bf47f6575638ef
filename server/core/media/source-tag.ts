/**
 * Which original a cached thumbnail was made from, kept inside the thumbnail itself as a
 * JPEG comment (COM segment) at its head.
 *
 * Why not the cache file's mtime: an original can be replaced by a file with an older mtime
 * (`cp -p`, `rsync -a`, an album deleted and made again at the same path from a backup), or
 * with the same mtime and other bytes, so "not older than the original" proves nothing.
 * An exact mtime stamp would still leave size and inode with nowhere to go, and would depend
 * on every file system keeping a stamp set through utimes (seconds as a double) to the
 * nanosecond. A comment costs nothing on a cache hit: the thumbnail is read anyway (whole
 * when small, its head when streamed) and the tag sits in its first bytes. It tells the
 * original's size, mtime (µs) and inode: whoever may see the thumbnail may fetch the
 * original too, so the tag tells nobody anything new.
 */

/** The part of fs.Stats that identifies a version of a file. */
export interface SourceIdentity {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
}

const PREFIX = 'gallery-source:';
/** Bytes from the start of a thumbnail that always hold the tag (SOI, JFIF APP0, COM). */
export const SOURCE_TAG_HEAD_BYTES = 256;
const SOI = 0xd8;
const COM = 0xfe;

/** `size.mtime.ino` in base 36: only [0-9a-z.], so it can go into an ETag as it is. */
export function sourceTagOf(stats: SourceIdentity): string {
  return `${stats.size.toString(36)}.${Math.round(stats.mtimeMs * 1000).toString(36)}.${stats.ino.toString(36)}`;
}

/**
 * `jpeg` with a comment holding `tag` after its JFIF header (or right after SOI when it has
 * none: JFIF wants its APP0 first, every decoder skips a comment).
 */
export function withSourceTag(jpeg: Buffer, tag: string): Buffer {
  if (!isJpegStart(jpeg, 0)) throw new TypeError('not a JPEG');
  const payload = Buffer.from(`${PREFIX}${tag}`, 'latin1');
  const segment = Buffer.alloc(4 + payload.length);
  segment[0] = 0xff;
  segment[1] = COM;
  segment.writeUInt16BE(2 + payload.length, 2);
  payload.copy(segment, 4);
  let at = 2;
  if (jpeg[2] === 0xff && jpeg[3] === 0xe0 && jpeg.length >= 6) at = 4 + jpeg.readUInt16BE(4);
  if (4 + payload.length > SOURCE_TAG_HEAD_BYTES - at) throw new RangeError('the tag would not fit the head read back');
  return Buffer.concat([jpeg.subarray(0, at), segment, jpeg.subarray(at)]);
}

/** The tag in the head of a thumbnail written by withSourceTag; undefined for any other file. */
export function sourceTagIn(head: Buffer): string | undefined {
  if (!isJpegStart(head, 0)) return undefined;
  // Application segments (the JFIF APP0) may come first; the comment is among the first few.
  for (let at = 2, seen = 0; seen < 3 && at + 4 <= head.length && head[at] === 0xff; seen++) {
    const marker = head[at + 1]!;
    const length = head.readUInt16BE(at + 2);
    if (marker === COM) {
      const end = at + 2 + length;
      if (end > head.length) return undefined;
      const text = head.toString('latin1', at + 4, end);
      return text.startsWith(PREFIX) ? text.slice(PREFIX.length) : undefined;
    }
    if (marker < 0xe0 || marker > 0xef) return undefined;
    at += 2 + length;
  }
  return undefined;
}

function isJpegStart(buf: Buffer, at: number): boolean {
  return buf.length >= at + 4 && buf[at] === 0xff && buf[at + 1] === SOI && buf[at + 2] === 0xff;
}
