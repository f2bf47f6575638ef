import type { FileHandle } from 'node:fs/promises';

/**
 * Random access to the bytes of one version of a file, for readers that follow offsets the
 * file itself gives (an IFD pointer, an atom size): each read is small and at a place the
 * structure names, so nothing ever reads a whole large file.
 */
export interface ByteSource {
  /** Bytes in the source: offsets at or past it hold nothing. */
  readonly size: number;
  /** Up to `length` bytes from `at`: fewer near the end, none at or past it. */
  read(at: number, length: number): Promise<Buffer>;
}

/** A source over bytes already in memory: a metadata block read once, or a test's file. */
export function bufferSource(bytes: Buffer): ByteSource {
  return {
    size: bytes.length,
    read: async (at, length) => (at < 0 || length <= 0 ? Buffer.alloc(0) : bytes.subarray(at, Math.min(bytes.length, at + length))),
  };
}

/**
 * Bytes read from disk at once for a small read past the head: a walk over many small
 * chunks (a PNG's IDATs, the frames of an animated WebP, a GIF's sub-blocks) then costs one
 * read per window, O(file size) at worst, and one per header where chunks are large.
 */
export const WINDOW_BYTES = 64 * 1024;
/** Windows kept: a walk that alternates between two places (an IFD and its values) reads each once. */
const WINDOWS_KEPT = 4;

/**
 * A source over an open file of a known size. Its head (where JPEG segments and most
 * metadata boxes are) is read once, on first need, and serves every read that falls inside;
 * other small reads are served from the last few windows of WINDOW_BYTES read.
 */
export function fileSource(handle: FileHandle, size: number, headBytes: number): ByteSource {
  let head: Promise<Buffer> | undefined;
  const windows: { at: number; bytes: Promise<Buffer> }[] = [];
  const readAt = async (at: number, length: number): Promise<Buffer> => {
    const want = Math.max(0, Math.min(length, size - at));
    if (at < 0 || want === 0) return Buffer.alloc(0);
    // Unsafe is fine: only the bytes read are kept.
    const buffer = Buffer.allocUnsafe(want);
    const { bytesRead } = await handle.read(buffer, 0, want, at);
    return buffer.subarray(0, bytesRead);
  };
  return {
    size,
    async read(at, length) {
      if (at >= 0 && at + length <= headBytes) {
        head ??= readAt(0, headBytes);
        return (await head).subarray(at, at + length);
      }
      if (at < 0 || length <= 0 || at >= size) return Buffer.alloc(0);
      if (length > WINDOW_BYTES) return readAt(at, length);
      const end = Math.min(size, at + length);
      let window = windows.find((w) => w.at <= at && end <= w.at + WINDOW_BYTES);
      if (!window) {
        window = { at, bytes: readAt(at, WINDOW_BYTES) };
        windows.unshift(window);
        if (windows.length > WINDOWS_KEPT) windows.pop();
      }
      const bytes = await window.bytes;
      return bytes.subarray(at - window.at, end - window.at);
    },
  };
}

/** The bytes from `start` to `end` of `source` as a source of their own (offsets from `start`): an image or a movie inside a file. */
export function sliceSource(source: ByteSource, start: number, end: number): ByteSource {
  const size = Math.max(0, Math.min(end, source.size) - start);
  return {
    size,
    read: (at, length) => (at < 0 || length <= 0 || at >= size ? Promise.resolve(Buffer.alloc(0)) : source.read(start + at, Math.min(length, size - at))),
  };
}
