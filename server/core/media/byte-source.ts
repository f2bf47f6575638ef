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
 * A source over an open file of a known size. Its head (where JPEG segments and most
 * metadata boxes are) is read once, on first need, and serves every read that falls inside.
 */
export function fileSource(handle: FileHandle, size: number, headBytes: number): ByteSource {
  let head: Promise<Buffer> | undefined;
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
      return readAt(at, length);
    },
  };
}
