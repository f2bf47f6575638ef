/**
 * The two files of an iPhone Live Photo, made here with their content identifier: a JPEG whose
 * EXIF carries Apple's MakerNote (written byte by byte: sharp cannot write a MakerNote) and a
 * QuickTime movie with the identifier in its metadata (written by the ffmpeg we ship).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import ffprobeInstaller from '@ffprobe-installer/ffprobe';
import sharp from 'sharp';

const run = promisify(execFile);

export const CONTENT_ID_KEY = 'com.apple.quicktime.content.identifier';

type Entry = [tag: number, type: number, count: number, value: Buffer];

/**
 * An IFD at `at` of a block whose offsets count from `base` (0: the block's start): entries,
 * then the values longer than four bytes. Big-endian unless `le`.
 */
function ifd(entries: readonly Entry[], at: number, le: boolean): Buffer {
  const table = Buffer.alloc(2 + entries.length * 12 + 4);
  const u16 = (v: number, o: number) => (le ? table.writeUInt16LE(v, o) : table.writeUInt16BE(v, o));
  const u32 = (v: number, o: number) => (le ? table.writeUInt32LE(v, o) : table.writeUInt32BE(v, o));
  u16(entries.length, 0);
  let data = at + table.length;
  const blobs: Buffer[] = [];
  entries.forEach(([tag, type, count, value], i) => {
    const o = 2 + i * 12;
    u16(tag, o);
    u16(type, o + 2);
    u32(count, o + 4);
    if (value.length <= 4) value.copy(table, o + 8);
    else {
      u32(data, o + 8);
      blobs.push(value);
      data += value.length;
    }
  });
  return Buffer.concat([table, ...blobs]);
}

const ascii = (s: string) => Buffer.from(`${s}\0`, 'latin1');

/**
 * Apple's MakerNote: 'Apple iOS\0', version 1, 'MM', then an IFD at 14 whose offsets count
 * from the MakerNote's first byte, holding a version tag and, unless null, the content
 * identifier (tag 0x0011).
 */
export function appleMakerNote(contentId: string | null): Buffer {
  const header = Buffer.concat([Buffer.from('Apple iOS\0', 'latin1'), Buffer.from([0, 1]), Buffer.from('MM', 'latin1')]);
  const version = Buffer.alloc(4);
  version.writeInt32BE(14);
  const entries: Entry[] = [[0x0001, 9, 1, version]];
  if (contentId !== null) entries.push([0x0011, 2, contentId.length + 1, ascii(contentId)]);
  return Buffer.concat([header, ifd(entries, header.length, false)]);
}

/**
 * A little-endian TIFF block (as an iPhone's JPEG export writes) with IFD0 (Make 'Apple' and
 * the Exif pointer) and an Exif sub-IFD holding `makerNote` as tag 0x927C (UNDEFINED bytes).
 */
export function exifWithMakerNote(makerNote: Buffer): Buffer {
  const header = Buffer.from([0x49, 0x49, 42, 0, 8, 0, 0, 0]);
  const ifd0Size = 2 + 2 * 12 + 4 + ascii('Apple').length;
  const exifAt = header.length + ifd0Size;
  const pointer = Buffer.alloc(4);
  pointer.writeUInt32LE(exifAt);
  const ifd0 = ifd(
    [
      [0x010f, 2, 6, ascii('Apple')],
      [0x8769, 4, 1, pointer],
    ],
    header.length,
    true,
  );
  const exif = ifd([[0x927c, 7, makerNote.length, makerNote]], exifAt, true);
  return Buffer.concat([header, ifd0, exif]);
}

/** A JPEG (a 64×48 gradient) whose APP1 holds `exif` (a TIFF block), right after SOI as cameras put it. */
export async function jpegWithExif(exif: Buffer, hue = 200): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="48"><rect width="100%" height="100%" fill="hsl(${hue},60%,50%)"/></svg>`;
  const jpeg = await sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), exif]);
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xffe1, 0);
  segment.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, payload, jpeg.subarray(2)]);
}

/** The still of a Live Photo: a JPEG carrying `contentId` in its Apple MakerNote. */
export async function writeLiveStill(file: string, contentId: string | null, hue?: number): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, await jpegWithExif(exifWithMakerNote(appleMakerNote(contentId)), hue));
}

export interface LiveMovieSpec {
  /** HEVC tagged hvc1, as an iPhone set to "High Efficiency" (its default) records; H.264 ("Most Compatible") otherwise. */
  readonly hevc?: boolean;
  readonly seconds?: number;
  /** '64x48' unless told. */
  readonly size?: string;
}

/**
 * The movie of a Live Photo: half a second of H.264 unless told, index first, with `contentId`
 * in its QuickTime metadata (ffmpeg's `use_metadata_tags`).
 */
export async function writeLiveMovie(file: string, contentId: string | null, spec: LiveMovieSpec = {}): Promise<void> {
  const { hevc = false, seconds = 0.5, size = '64x48' } = spec;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const metadata = contentId === null ? [] : ['-metadata', `${CONTENT_ID_KEY}=${contentId}`];
  const codec = hevc ? ['-c:v', 'libx265', '-x265-params', 'log-level=error', '-tag:v', 'hvc1'] : ['-c:v', 'libx264'];
  await run(ffmpegInstaller.path, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc=duration=${seconds}:size=${size}:rate=10`,
    ...codec,
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart+use_metadata_tags',
    ...metadata,
    '-f',
    'mov',
    file,
  ]);
}

/** The movie's format tags as ffprobe reads them (the test's own reading, not the server's). */
export async function probeFormatTags(file: string): Promise<Record<string, string>> {
  const { stdout } = await run(ffprobeInstaller.path, ['-v', 'error', '-print_format', 'json', '-show_format', file]);
  return (JSON.parse(stdout) as { format: { tags?: Record<string, string> } }).format.tags ?? {};
}
