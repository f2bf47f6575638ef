/**
 * Which original a cached thumbnail was made from, kept inside the thumbnail itself at its
 * head: a comment (COM segment) in a JPEG, a chunk of its own in a WebP (which has no comments:
 * see withWebpSourceTag).
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
/** Bytes from the start of a thumbnail that always hold the tag (SOI, JFIF APP0, COM; or RIFF, VP8X, the tag chunk). */
export const SOURCE_TAG_HEAD_BYTES = 256;
const SOI = 0xd8;
const COM = 0xfe;

/**
 * `size.mtime.ino` in base 36: only [0-9a-z.], so it can go into an ETag as it is. A photo the
 * owner turned in album.json (server/core/albums/rotations.ts) adds `.r90`: what is made of it
 * changes with the turn though the file does not, so a thumbnail made before is stale.
 */
export function sourceTagOf(stats: SourceIdentity, rotation = 0): string {
  const tag = `${stats.size.toString(36)}.${Math.round(stats.mtimeMs * 1000).toString(36)}.${stats.ino.toString(36)}`;
  return rotation === 0 ? tag : `${tag}.r${rotation}`;
}

/** `image` (a JPEG or a WebP) carrying `tag` at its head, where sourceTagIn finds it. */
export function withSourceTag(image: Buffer, tag: string): Buffer {
  if (isWebp(image)) return withWebpSourceTag(image, tag);
  if (!isJpegStart(image, 0)) throw new TypeError('neither a JPEG nor a WebP');
  return withJpegSourceTag(image, tag);
}

/** The tag in the head of a thumbnail written by withSourceTag; undefined for any other file. */
export function sourceTagIn(head: Buffer): string | undefined {
  return isWebp(head) ? webpSourceTagIn(head) : jpegSourceTagIn(head);
}

/**
 * `jpeg` with a comment holding `tag` after its JFIF header (or right after SOI when it has
 * none: JFIF wants its APP0 first, every decoder skips a comment).
 */
function withJpegSourceTag(jpeg: Buffer, tag: string): Buffer {
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

function jpegSourceTagIn(head: Buffer): string | undefined {
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

// ---------------------------------------------------------------------------------------
// WebP (RIFF container, https://developers.google.com/speed/webp/docs/riff_container)

const RIFF_HEADER = 12;
const CHUNK_HEADER = 8;
const VP8X_PAYLOAD = 10;
/** Our own chunk: readers skip chunks they do not know (libwebp does, before the image data too). */
const TAG_CHUNK = 'GTAG';

function isWebp(buf: Buffer): boolean {
  return buf.length >= RIFF_HEADER + CHUNK_HEADER && buf.toString('latin1', 0, 4) === 'RIFF' && buf.toString('latin1', 8, 12) === 'WEBP';
}

/**
 * A WebP has no comment to carry the tag, and its EXIF and XMP chunks come after the image
 * data, at the tail, where a cache hit does not read. So the tag gets a chunk of its own right
 * after the VP8X header. sharp writes a simple WebP (a single VP8 or VP8L chunk), in which
 * only the image may stand: the file becomes an extended one, whose VP8X header (no alpha,
 * no profile, no animation) repeats the image's size, and which may hold unknown chunks.
 */
function withWebpSourceTag(webp: Buffer, tag: string): Buffer {
  const first = webp.toString('latin1', RIFF_HEADER, RIFF_HEADER + 4);
  let head: Buffer;
  let body: Buffer;
  if (first === 'VP8X') {
    head = webp.subarray(RIFF_HEADER, RIFF_HEADER + CHUNK_HEADER + VP8X_PAYLOAD);
    body = webp.subarray(RIFF_HEADER + CHUNK_HEADER + VP8X_PAYLOAD);
  } else {
    const { width, height } = webpImageSize(webp, first);
    head = Buffer.alloc(CHUNK_HEADER + VP8X_PAYLOAD);
    head.write('VP8X', 0, 'latin1');
    head.writeUInt32LE(VP8X_PAYLOAD, 4);
    // Flags and reserved bits stay 0; then the canvas size minus one, 24 bits each.
    head.writeUIntLE(width - 1, 12, 3);
    head.writeUIntLE(height - 1, 15, 3);
    body = webp.subarray(RIFF_HEADER);
  }
  const payload = Buffer.from(`${PREFIX}${tag}`, 'latin1');
  // Chunks are padded to an even size; the size field counts the payload only.
  const chunk = Buffer.alloc(CHUNK_HEADER + payload.length + (payload.length % 2));
  chunk.write(TAG_CHUNK, 0, 'latin1');
  chunk.writeUInt32LE(payload.length, 4);
  payload.copy(chunk, CHUNK_HEADER);
  if (RIFF_HEADER + head.length + chunk.length > SOURCE_TAG_HEAD_BYTES) throw new RangeError('the tag would not fit the head read back');
  const riff = Buffer.alloc(RIFF_HEADER);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(4 + head.length + chunk.length + body.length, 4);
  riff.write('WEBP', 8, 'latin1');
  return Buffer.concat([riff, head, chunk, body]);
}

/** The size in the header of a simple WebP's only chunk: lossy (VP8) or lossless (VP8L). */
function webpImageSize(webp: Buffer, chunk: string): { width: number; height: number } {
  const at = RIFF_HEADER + CHUNK_HEADER;
  if (chunk === 'VP8 ' && webp.length >= at + 10 && webp[at + 3] === 0x9d && webp[at + 4] === 0x01 && webp[at + 5] === 0x2a) {
    return { width: webp.readUInt16LE(at + 6) & 0x3fff, height: webp.readUInt16LE(at + 8) & 0x3fff };
  }
  if (chunk === 'VP8L' && webp.length >= at + 5 && webp[at] === 0x2f) {
    const bits = webp.readUInt32LE(at + 1);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  throw new TypeError(`not a WebP image sharp writes (first chunk ${JSON.stringify(chunk)})`);
}

function webpSourceTagIn(head: Buffer): string | undefined {
  if (head.toString('latin1', RIFF_HEADER, RIFF_HEADER + 4) !== 'VP8X') return undefined;
  const at = RIFF_HEADER + CHUNK_HEADER + VP8X_PAYLOAD;
  if (head.length < at + CHUNK_HEADER || head.toString('latin1', at, at + 4) !== TAG_CHUNK) return undefined;
  const end = at + CHUNK_HEADER + head.readUInt32LE(at + 4);
  if (end > head.length) return undefined;
  const text = head.toString('latin1', at + CHUNK_HEADER, end);
  return text.startsWith(PREFIX) ? text.slice(PREFIX.length) : undefined;
}
