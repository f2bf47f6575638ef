/**
 * Photos and videos that carry a location, made for the location-privacy tests
 * (docs/api.md#location-privacy), and the tests' own ways of finding a location in a file:
 * a plain EXIF walker that follows every pointer (not the server's bounded one), raw byte
 * patterns, ffprobe's reading of a movie's tags and sharp's of a photo's EXIF and XMP.
 *
 * - JPEG, PNG, WebP, AVIF: sharp's `withExif` with a GPS IFD (IFD3), the position of CAMERA_GPS.
 * - TIFF: written by hand (sharp writes no EXIF into a TIFF), uncompressed grey pixels and a
 *   GPS IFD, in either byte order.
 * - Hostile EXIF: blocks laid out entry by entry with TiffLayout.
 * - Movies: the shipped ffmpeg with `-metadata location=…` (`©xyz` in a MOV, `loci` in an
 *   MP4), with Apple's `com.apple.quicktime.location.ISO6709` key (`use_metadata_tags`), and
 *   that key's `meta` atom moved up into `moov` where iPhones write it.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import sharp, { type Exif } from 'sharp';
import { probeFormatTags } from './live-photo-files.js';

const run = promisify(execFile);

/** Where the test photos were taken: the Eiffel tower, as cameras write it (degrees, minutes, seconds). */
export const CAMERA_GPS: Exif = {
  IFD0: { Make: 'Canon', Model: 'EOS R5' },
  IFD3: {
    GPSLatitudeRef: 'N',
    GPSLatitude: '48/1 51/1 30/1',
    GPSLongitudeRef: 'E',
    GPSLongitude: '2/1 17/1 40/1',
    GPSAltitude: '35/1',
    GPSProcessingMethod: 'GPS',
  },
};

/** The latitude's three rationals as stored (48/1 51/1 30/1): a reader-independent trace of the position. */
export function latitudeBytes(littleEndian = true): Buffer {
  const b = Buffer.alloc(24);
  [48, 1, 51, 1, 30, 1].forEach((v, i) => {
    littleEndian ? b.writeUInt32LE(v, i * 4) : b.writeUInt32BE(v, i * 4);
  });
  return b;
}

/** The ISO 6709 position the test movies carry. */
export const MOVIE_LOCATION = '+48.8577+002.2950/';

/** A 320×240 gradient with CAMERA_GPS, in `format`. */
export async function gpsImage(format: 'jpeg' | 'png' | 'webp' | 'avif', exif: Exif = CAMERA_GPS): Promise<Buffer> {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="240"><defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="#e07030"/><stop offset="1" stop-color="#3040a0"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>';
  return sharp(Buffer.from(svg)).withExif(exif)[format]().toBuffer();
}

// ---------------------------------------------------------------------------------------
// Reading the location back, the tests' own way

export interface GpsFinding {
  /** GPS IFDs reached from any IFD (IFD0, its chain, the Exif IFD). */
  readonly gpsIfds: number;
  /** Their entries by tag, with the raw bytes of each value. */
  readonly tags: ReadonlyMap<number, Buffer>;
}

/**
 * The GPS tags of an EXIF block as sharp hands it out (with or without 'Exif\0\0'), walking
 * every IFD the block points to, each once, with no other bound: what a lenient reader finds.
 */
export function gpsIn(exif: Buffer | undefined): GpsFinding {
  const tags = new Map<number, Buffer>();
  if (!exif) return { gpsIfds: 0, tags };
  const tiff = exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? exif.subarray(6) : exif;
  if (tiff.length < 8 || !['II', 'MM'].includes(tiff.toString('latin1', 0, 2))) return { gpsIfds: 0, tags };
  const le = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (at + 2 <= tiff.length ? (le ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at)) : 0);
  const u32 = (at: number) => (at + 4 <= tiff.length ? (le ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at)) : 0);
  const sizes: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8 };
  const seen = new Set<number>();
  let gpsIfds = 0;
  const walk = (at: number, gps: boolean, chain: boolean) => {
    if (at === 0 || at + 2 > tiff.length || seen.has(at)) return;
    seen.add(at);
    if (gps) gpsIfds++;
    const count = u16(at);
    for (let i = 0; i < count && at + 2 + i * 12 + 12 <= tiff.length; i++) {
      const e = at + 2 + i * 12;
      const tag = u16(e);
      const bytes = (sizes[u16(e + 2)] ?? 0) * u32(e + 4);
      const valueAt = bytes <= 4 ? e + 8 : u32(e + 8);
      if (gps) tags.set(tag, tiff.subarray(valueAt, valueAt + bytes));
      else if (tag === 0x8825) walk(u32(e + 8), true, false);
      else if (tag === 0x8769) walk(u32(e + 8), false, false);
    }
    if (chain) walk(u32(at + 2 + count * 12), false, true);
  };
  walk(u32(4), false, true);
  return { gpsIfds, tags };
}

/** The GPS tags sharp's EXIF of `image` holds (sharp reads JPEG, PNG, WebP, HEIF containers itself). */
export async function gpsOfImage(image: Buffer): Promise<GpsFinding> {
  return gpsIn((await sharp(image).metadata()).exif);
}

/** The tags of a movie that ffprobe reports with a position in them (a digit in a location-like tag). */
export async function movieLocationTags(file: string): Promise<Record<string, string>> {
  const tags = await probeFormatTags(file);
  return Object.fromEntries(Object.entries(tags).filter(([key, value]) => /location|xyz|6709/i.test(key) && /\d/.test(value)));
}

// ---------------------------------------------------------------------------------------
// Hand-made TIFF structures

/** Writes a TIFF block entry by entry at chosen offsets: for TIFF files and hostile EXIF. */
export class TiffLayout {
  readonly bytes: Buffer;

  constructor(
    size: number,
    readonly littleEndian = true,
    ifd0 = 8,
  ) {
    this.bytes = Buffer.alloc(size);
    this.bytes.write(littleEndian ? 'II' : 'MM', 0, 'latin1');
    this.u16(2, 42).u32(4, ifd0);
  }

  u16(at: number, v: number): this {
    this.littleEndian ? this.bytes.writeUInt16LE(v, at) : this.bytes.writeUInt16BE(v, at);
    return this;
  }

  u32(at: number, v: number): this {
    this.littleEndian ? this.bytes.writeUInt32LE(v, at) : this.bytes.writeUInt32BE(v, at);
    return this;
  }

  /** An IFD at `at`: entries `[tag, type, count, value or offset]` (a SHORT value goes in the first 2 bytes), then `next`. */
  ifd(at: number, entries: readonly (readonly [number, number, number, number])[], next = 0, declared = entries.length): this {
    this.u16(at, declared);
    entries.forEach(([tag, type, count, value], i) => {
      const e = at + 2 + i * 12;
      this.u16(e, tag)
        .u16(e + 2, type)
        .u32(e + 4, count);
      if (type === 3 && count === 1) this.u16(e + 8, value);
      else this.u32(e + 8, value);
    });
    return this.u32(at + 2 + entries.length * 12, next);
  }

  rationals(at: number, values: readonly number[]): this {
    values.forEach((v, i) => {
      this.u32(at + i * 8, v).u32(at + i * 8 + 4, 1);
    });
    return this;
  }

  ascii(at: number, text: string): this {
    this.bytes.write(`${text}\0`, at, 'latin1');
    return this;
  }
}

/** The GPS IFD of the tests at `at` (4 entries, 54 bytes), its rationals at `valuesAt` (48 bytes). */
export function writeGpsIfd(t: TiffLayout, at: number, valuesAt: number, next = 0): void {
  t.ifd(
    at,
    [
      [1, 2, 2, 0x4e], // GPSLatitudeRef 'N', inline
      [2, 5, 3, valuesAt], // GPSLatitude
      [3, 2, 2, 0x45], // GPSLongitudeRef 'E'
      [4, 5, 3, valuesAt + 24], // GPSLongitude
    ],
    next,
  );
  // Inline ASCII is written from the first byte whatever the byte order.
  t.bytes.write('N\0', at + 2 + 8, 'latin1');
  t.bytes.write('E\0', at + 2 + 24 + 8, 'latin1');
  t.rationals(valuesAt, [48, 51, 30, 2, 17, 40]);
}

/**
 * An uncompressed 8-bit grey TIFF of `width` × `height` with a GPS IFD, sharp-readable:
 * IFD0 at 8 (10 entries), the GPS IFD at 200, its rationals at 300, pixels from 400.
 */
export function tiffWithGps(littleEndian: boolean, width = 16, height = 12): Buffer {
  const pixelsAt = 400;
  const t = new TiffLayout(pixelsAt + width * height, littleEndian);
  t.ifd(8, [
    [256, 3, 1, width],
    [257, 3, 1, height],
    [258, 3, 1, 8],
    [259, 3, 1, 1],
    [262, 3, 1, 1],
    [273, 4, 1, pixelsAt],
    [277, 3, 1, 1],
    [278, 3, 1, height],
    [279, 4, 1, width * height],
    [0x8825, 4, 1, 200],
  ]);
  writeGpsIfd(t, 200, 300);
  for (let i = 0; i < width * height; i++) t.bytes[pixelsAt + i] = (i * 7) & 0xff;
  return t.bytes;
}

/** A real JPEG (sharp) with a TIFF block as its Exif APP1 segment, right after SOI. */
export { jpegWithExif as jpegWithExifBlock } from './live-photo-files.js';

/** A JPEG whose XMP APP1 packet gives a position and a city, as editors write them. */
export async function jpegWithXmp(): Promise<Buffer> {
  const jpeg = await gpsImage('jpeg', { IFD0: { Make: 'Canon' } });
  const xmp =
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
    '<rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" ' +
    'exif:GPSLatitude="48,51.5N" exif:GPSLongitude=\'2,17.6667E\' photoshop:Headline="Family">' +
    '<photoshop:City>Paris</photoshop:City><exif:GPSAltitude>35/1</exif:GPSAltitude></rdf:Description></rdf:RDF></x:xmpmeta>';
  const payload = Buffer.concat([Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1'), Buffer.from(xmp, 'utf8')]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), header, payload, jpeg.subarray(2)]);
}

// ---------------------------------------------------------------------------------------
// Movies

export type LocatedMovie = 'mov' | 'mp4' | 'apple-keys' | 'iphone';

/**
 * A 1 s H.264 movie carrying MOVIE_LOCATION: `mov` (`udta/©xyz`), `mp4` (`udta/loci`),
 * `apple-keys` (`udta/meta` with Apple's ISO 6709 key, plus `loci`), `iphone` (the same
 * `meta` directly in `moov`). The index is written last (no faststart), so `moov` can be
 * rebuilt without moving any frame.
 */
export async function writeLocatedMovie(file: string, kind: LocatedMovie): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const keys = kind === 'apple-keys' || kind === 'iphone';
  const target = kind === 'iphone' ? `${file}.tmp.mov` : file;
  const encode = '-hide_banner -loglevel error -y -f lavfi -i testsrc=duration=1:size=160x120:rate=10 -c:v libx264 -preset ultrafast -pix_fmt yuv420p';
  const location = keys
    ? ['-movflags', 'use_metadata_tags', '-metadata', `com.apple.quicktime.location.ISO6709=${MOVIE_LOCATION}`]
    : ['-metadata', `location=${MOVIE_LOCATION}`];
  await run(ffmpegInstaller.path, [...encode.split(' '), ...location, '-f', kind === 'mp4' ? 'mp4' : 'mov', target]);
  if (kind === 'iphone') {
    fs.writeFileSync(file, metaMovedIntoMoov(fs.readFileSync(target)));
    fs.rmSync(target);
  }
}

/** The movie with `moov/udta/meta` moved to `moov/meta` (moov is last: no offset into mdat changes). */
function metaMovedIntoMoov(movie: Buffer): Buffer {
  const children = (buf: Buffer, start: number, end: number) => {
    const out: { type: string; at: number; end: number }[] = [];
    for (let at = start; at + 8 <= end; ) {
      const size = buf.readUInt32BE(at);
      out.push({ type: buf.toString('latin1', at + 4, at + 8), at, end: at + size });
      at += size;
    }
    return out;
  };
  const top = children(movie, 0, movie.length);
  const moov = top.find((a) => a.type === 'moov');
  if (!moov || moov !== top[top.length - 1]) throw new Error('expected moov last');
  const inMoov = children(movie, moov.at + 8, moov.end);
  const udta = inMoov.find((a) => a.type === 'udta');
  const meta = udta && children(movie, udta.at + 8, udta.end).find((a) => a.type === 'meta');
  if (!udta || !meta) throw new Error('expected moov/udta/meta');
  const box = (type: string, ...parts: Buffer[]) => {
    const body = Buffer.concat(parts);
    const header = Buffer.alloc(8);
    header.writeUInt32BE(body.length + 8);
    header.write(type, 4, 'latin1');
    return Buffer.concat([header, body]);
  };
  const slice = (a: { at: number; end: number }) => movie.subarray(a.at, a.end);
  const newUdta = box(
    'udta',
    ...children(movie, udta.at + 8, udta.end)
      .filter((a) => a !== meta)
      .map(slice),
  );
  const newMoov = box('moov', ...inMoov.filter((a) => a !== udta).map(slice), slice(meta), newUdta);
  return Buffer.concat([movie.subarray(0, moov.at), newMoov]);
}
