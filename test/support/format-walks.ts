/**
 * The tests' own plain walks of file structures (PNG chunks, RIFF chunks, JPEG segments),
 * without the server's bounds, to check that a served file keeps its structure: the same
 * chunks and segments at the same places, only their contents blanked. And the patches of a
 * file applied, as a visitor of an album that hides locations gets it.
 */
import { bufferSource } from '../../server/core/media/byte-source.js';
import { applyPatches, type BytePatch } from '../../server/core/media/location/byte-patches.js';
import { locationPatches, type WalkLimits } from '../../server/core/media/location/location-patches.js';

/** The file as a visitor of a hideLocation album gets it, and the patches that made it. */
export async function served(file: Buffer, limits?: WalkLimits): Promise<{ out: Buffer; patches: readonly BytePatch[] }> {
  const patches = await locationPatches(bufferSource(file), limits);
  const out = Buffer.from(file);
  applyPatches(out, 0, patches);
  return { out, patches };
}

/** Whether the file was zeroed whole (the fail-closed answer to a structure that cannot be walked). */
export const zeroedWhole = (out: Buffer): boolean => out.every((b) => b === 0);

/** Offsets where two buffers of one length differ. */
export function changedOffsets(a: Buffer, b: Buffer): number[] {
  const out: number[] = [];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) out.push(i);
  return out;
}

export interface Chunk {
  readonly type: string;
  readonly at: number;
  readonly length: number;
  readonly data: Buffer;
}

/** A PNG's chunks, each with whether its CRC matches its type and data. */
export function pngChunks(png: Buffer): (Chunk & { crcOk: boolean })[] {
  const out: (Chunk & { crcOk: boolean })[] = [];
  for (let at = 8; at + 12 <= png.length; ) {
    const length = png.readUInt32BE(at);
    const data = png.subarray(at + 8, at + 8 + length);
    const crc = png.readUInt32BE(at + 8 + length);
    out.push({ type: png.toString('latin1', at + 4, at + 8), at, length, data, crcOk: crc === crc32(png.subarray(at + 4, at + 8 + length)) });
    at += 12 + length;
  }
  return out;
}

/** PNG chunk: length, type, data, CRC. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]);
}

/** `png` with `chunks` inserted before the chunk of type `before`. */
export function withPngChunks(png: Buffer, chunks: readonly Buffer[], before = 'IEND'): Buffer {
  const at = pngChunks(png).find((c) => c.type === before)!.at;
  return Buffer.concat([png.subarray(0, at), ...chunks, png.subarray(at)]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A RIFF file's chunks from `start` to `end`, as a WebP holds them. */
export function riffChunks(riff: Buffer, start = 12, end = riff.length): Chunk[] {
  const out: Chunk[] = [];
  for (let at = start; at + 8 <= end; ) {
    const length = riff.readUInt32LE(at + 4);
    out.push({ type: riff.toString('latin1', at, at + 4), at, length, data: riff.subarray(at + 8, at + 8 + length) });
    at += 8 + length + (length % 2);
  }
  return out;
}

/** A RIFF chunk: type, little-endian length, data, padding to an even length. */
export function riffChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(type, 0, 'latin1');
  head.writeUInt32LE(data.length, 4);
  return Buffer.concat([head, data, Buffer.alloc(data.length % 2)]);
}

/** A WebP with `chunks` appended, its RIFF size set again. */
export function withRiffChunks(webp: Buffer, chunks: readonly Buffer[]): Buffer {
  const out = Buffer.concat([webp, ...chunks]);
  out.writeUInt32LE(out.length - 8, 4);
  return out;
}

/** A JPEG's segments before its first scan: marker and where the segment is. */
export function jpegSegments(jpeg: Buffer): { marker: number; at: number; end: number }[] {
  const out: { marker: number; at: number; end: number }[] = [];
  for (let at = 2; at + 4 <= jpeg.length; ) {
    const marker = jpeg[at + 1]!;
    const end = at + 2 + jpeg.readUInt16BE(at + 2);
    out.push({ marker, at, end });
    if (marker === 0xda) break;
    at = end;
  }
  return out;
}

/**
 * The entries of IFD0 and of the Exif IFD of an EXIF block (with or without 'Exif\0\0'), by
 * tag, each with its value's bytes: what a plain reader finds.
 */
export function exifEntries(exif: Buffer): Map<number, Buffer> {
  const tiff = exif.toString('latin1', 0, 6) === 'Exif\0\0' ? exif.subarray(6) : exif;
  const le = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (le ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (le ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const sizes: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 9: 4, 10: 8 };
  const out = new Map<number, Buffer>();
  const walk = (ifd: number) => {
    for (let i = 0; i < u16(ifd); i++) {
      const e = ifd + 2 + i * 12;
      const bytes = (sizes[u16(e + 2)] ?? 1) * u32(e + 4);
      const at = bytes <= 4 ? e + 8 : u32(e + 8);
      out.set(u16(e), tiff.subarray(at, at + bytes));
      if (u16(e) === 0x8769) walk(u32(e + 8));
    }
  };
  walk(u32(4));
  return out;
}

export const text = (value: Buffer | undefined): string => value?.toString('latin1').replace(/\0+$/, '') ?? '';
