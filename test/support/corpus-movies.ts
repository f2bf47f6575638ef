/**
 * The movies of the location corpus (location-corpus.ts), each carrying PLACE where a phone,
 * a camera or a tool puts it: ffmpeg's `-metadata location=` (MOV `©xyz`, MP4 `loci`, WebM
 * tags), Apple's keys in `moov/meta`, ExifTool's XMP (a top-level `uuid` in an MP4,
 * `udta/XMP_` in a MOV) and QuickTime GPS, a `©xyz` in a track's `udta`, a GoPro-style `gpmd`
 * track (GPS5 samples), a drone-style subtitle track with the position in its text, more than
 * 256 keys and more than 256 children of `moov`. Made with the shipped ffmpeg, ExifTool and,
 * where no tool writes it, boxes written by hand (iso-boxes.ts).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import { PLACE } from './corpus-place.js';
import { box, boxesIn, fullBox, i32, u16, u32, u32s, typeOf, withMoovRebuilt } from './iso-boxes.js';

const run = promisify(execFile);

/** A 1 s clip (10 frames of ffmpeg's test pattern and a tone: H.264 and AAC, or VP8 and Vorbis in a WebM), its index last. */
export async function clip(file: string, container: 'mov' | 'mp4' | 'webm', extra: readonly string[] = []): Promise<void> {
  const codec =
    container === 'webm'
      ? ['-c:v', 'libvpx', '-b:v', '200k', '-c:a', 'libvorbis']
      : ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'];
  await run(ffmpegInstaller.path, [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=1:size=160x120:rate=10'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-shortest'],
    ...codec,
    ...extra,
    '-f',
    container,
    file,
  ]);
}

const exiftoolWrite = (file: string, args: readonly string[]) => run('exiftool', ['-q', '-overwrite_original', ...args, file]);

/** ffmpeg's `-metadata location=` and a title naming the place: `udta/©xyz` and `©nam` in a MOV. */
export const movFfmpegLocation = (file: string) =>
  clip(file, 'mov', ['-metadata', `location=${PLACE.iso6709}`, '-metadata', `title=${PLACE.landmark} at dawn`]);

/** The same into an MP4: `udta/loci`, and the title in `udta/meta/ilst`. */
export const mp4FfmpegLocation = (file: string) =>
  clip(file, 'mp4', ['-metadata', `location=${PLACE.iso6709}`, '-metadata', `title=${PLACE.landmark} at dawn`]);

/** ffmpeg's location and title in a WebM (its `Tags`). */
export const webmFfmpegLocation = (file: string) =>
  clip(file, 'webm', ['-metadata', `location=${PLACE.iso6709}`, '-metadata', `title=${PLACE.landmark} at dawn`]);

/** Apple's keys (`com.apple.quicktime.*`) in `moov/meta`, as an iPhone writes them: location, make, model, content identifier. */
export async function movIphoneKeys(file: string): Promise<void> {
  const tmp = `${file}.tmp.mov`;
  const keys = {
    'com.apple.quicktime.location.ISO6709': PLACE.iso6709,
    'com.apple.quicktime.location.name': PLACE.landmark,
    'com.apple.quicktime.make': 'Apple',
    'com.apple.quicktime.model': 'iPhone 15',
    'com.apple.quicktime.content.identifier': '6F2A1C44-3B1D-4C51-9C2E-1D2F3A4B5C6D',
  };
  await clip(tmp, 'mov', ['-movflags', 'use_metadata_tags', ...Object.entries(keys).flatMap(([k, v]) => ['-metadata', `${k}=${v}`])]);
  fs.writeFileSync(file, metaMovedIntoMoov(fs.readFileSync(tmp)));
  fs.rmSync(tmp);
}

/** 300 keys before Apple's location key (the old walk read 256). */
export const mp4ManyKeys = (file: string) =>
  clip(file, 'mp4', [
    '-movflags',
    'use_metadata_tags',
    ...Array.from({ length: 300 }, (_, i) => ['-metadata', `org.example.key${i}=value ${i}`]).flat(),
    '-metadata',
    `com.apple.quicktime.location.ISO6709=${PLACE.iso6709}`,
  ]);

/** ExifTool's XMP (a top-level `uuid` box in an MP4), with QuickTime GPS in `udta` and in Apple's keys. */
export async function mp4ExiftoolXmp(file: string): Promise<void> {
  await clip(file, 'mp4');
  await exiftoolWrite(file, [
    `-XMP-photoshop:City=${PLACE.city}`,
    `-XMP-photoshop:Country=${PLACE.country}`,
    `-XMP-exif:GPSLatitude=${PLACE.latitude}`,
    `-XMP-exif:GPSLongitude=${PLACE.longitude}`,
    `-UserData:GPSCoordinates=${PLACE.latitude}, ${PLACE.longitude}`,
    `-Keys:GPSCoordinates=${PLACE.latitude}, ${PLACE.longitude}`,
  ]);
}

/** ExifTool's XMP in a QuickTime movie (`udta/XMP_`), with place names of IPTC's extension. */
export async function movExiftoolXmp(file: string): Promise<void> {
  await clip(file, 'mov');
  await exiftoolWrite(file, [
    `-XMP-iptcExt:LocationShownCity=${PLACE.city}`,
    `-XMP-iptcExt:LocationShownSublocation=${PLACE.sublocation}`,
    `-XMP-photoshop:State=${PLACE.state}`,
    `-XMP-exif:GPSLatitude=${PLACE.latitude}`,
  ]);
}

/** ffmpeg's `©xyz` moved from `moov/udta` into the video track's `udta`. */
export async function mp4TrackUserData(file: string): Promise<void> {
  const tmp = `${file}.tmp.mov`;
  await clip(tmp, 'mov', ['-metadata', `location=${PLACE.iso6709}`]);
  const movie = fs.readFileSync(tmp);
  fs.rmSync(tmp);
  fs.writeFileSync(
    file,
    withMoovRebuilt(movie, (children) => {
      const udta = children.find((c) => typeOf(c) === 'udta');
      if (!udta) throw new Error('no udta');
      const items = boxesIn(udta, 8).map((b) => udta.subarray(b.at, b.end));
      const xyz = items.filter((i) => typeOf(i) === '\u00a9xyz');
      return children.filter((c) => c !== udta).map((c) => (typeOf(c) === 'trak' ? Buffer.concat([box('trak', c.subarray(8), box('udta', ...xyz))]) : c));
    }),
  );
}

/** 300 `free` children of `moov` before its `udta` with the location (the old walk read 256). */
export async function movManyMoovChildren(file: string): Promise<void> {
  const tmp = `${file}.tmp.mov`;
  await clip(tmp, 'mov', ['-metadata', `location=${PLACE.iso6709}`]);
  const movie = fs.readFileSync(tmp);
  fs.rmSync(tmp);
  const frees = Array.from({ length: 300 }, () => box('free', Buffer.alloc(4)));
  fs.writeFileSync(
    file,
    withMoovRebuilt(movie, (children) => [...children.filter((c) => typeOf(c) !== 'udta'), ...frees, ...children.filter((c) => typeOf(c) === 'udta')]),
  );
}

/** A drone's subtitle track (DJI writes one): the position and place in each cue's text, muxed as `tx3g`. */
export async function mp4SubtitleTrack(file: string): Promise<void> {
  const srt = `${file}.srt`;
  fs.writeFileSync(srt, `1\n00:00:00,000 --> 00:00:00,900\nF/2.8, SS 240, ISO 100, GPS (${PLACE.longitude}, ${PLACE.latitude}, 45) over ${PLACE.city}\n\n`);
  await run(ffmpegInstaller.path, [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=1:size=160x120:rate=10', '-i', srt],
    ...['-map', '0:v', '-map', '1:s', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:s', 'mov_text', '-f', 'mp4', file],
  ]);
  fs.rmSync(srt);
}

// ---------------------------------------------------------------------------------------
// A GoPro-style GPS track

/** One GPMF key-length-value: key, type, size of one sample, repeat, then the data padded to 4 bytes. */
function klv(key: string, type: string, size: number, repeat: number, data: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.write(key, 0, 'latin1');
  header.write(type, 4, 'latin1');
  header.writeUInt8(size, 5);
  header.writeUInt16BE(repeat, 6);
  const pad = Buffer.alloc((4 - (data.length % 4)) % 4);
  return Buffer.concat([header, data, pad]);
}

const nested = (key: string, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  return klv(key, '\0', 1, body.length, body);
};
const text = (key: string, s: string) => klv(key, 'c', s.length, 1, Buffer.from(s, 'latin1'));

/** One second of a GoPro's GPMF: a device with a GPS5 stream (latitude, longitude, altitude, speeds), scaled as GoPros scale it. */
function gpmfSample(second: number): Buffer {
  const gps5 = i32(Math.round(PLACE.latitude * 1e7), Math.round(PLACE.longitude * 1e7) + second, PLACE.altitude * 1000, 1500, 150);
  return nested(
    'DEVC',
    klv('DVID', 'L', 4, 1, u32(1)),
    text('DVNM', 'Camera'),
    nested(
      'STRM',
      text('STNM', 'GPS (Lat., Long., Alt., 2D speed, 3D speed)'),
      klv('GPSF', 'L', 4, 1, u32(3)),
      text('GPSU', `2601011200${String(second).padStart(2, '0')}.000`),
      klv('GPSP', 'S', 2, 1, u16(150)),
      klv('SCAL', 'l', 4, 5, i32(10_000_000, 10_000_000, 1000, 1000, 100)),
      klv('GPS5', 'l', 20, 1, gps5),
    ),
  );
}

/** The `trak` of a timed metadata track (handler `meta`, sample entry `gpmd`) whose samples are at `offsets`. */
function gpmdTrack(trackId: number, sizes: readonly number[], offsets: readonly number[]): Buffer {
  const n = sizes.length;
  const matrix = u32(0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000);
  const tkhd = fullBox('tkhd', 0, 3, u32(0, 0, trackId, 0, n * 1000), Buffer.alloc(8), u16(0, 0, 0, 0), matrix, u32(0, 0));
  const mdhd = fullBox('mdhd', 0, 0, u32(0, 0, 1000, n * 1000), u16(0x55c4, 0));
  const hdlr = fullBox('hdlr', 0, 0, u32(0), Buffer.from('meta', 'latin1'), Buffer.alloc(12), Buffer.from('GoPro MET\0', 'latin1'));
  const dinf = box('dinf', fullBox('dref', 0, 0, u32(1), fullBox('url ', 0, 1)));
  const entry = box('gpmd', Buffer.alloc(6), u16(1), u32(0));
  const stbl = box(
    'stbl',
    fullBox('stsd', 0, 0, u32(1), entry),
    fullBox('stts', 0, 0, u32(1, n, 1000)),
    fullBox('stsc', 0, 0, u32(1, 1, 1, 1)),
    fullBox('stsz', 0, 0, u32(0, n), u32s(sizes)),
    fullBox('stco', 0, 0, u32(n), u32s(offsets)),
  );
  return box('trak', tkhd, box('mdia', mdhd, hdlr, box('minf', fullBox('nmhd', 0, 0), dinf, stbl)));
}

/** An MP4 with a GoPro-style GPS track: three GPMF samples in an `mdat` after `moov` (ExifTool's `-ee` reads them). */
export async function mp4GoproGps(file: string): Promise<void> {
  await mp4WithMetadataTrack(file, [0, 1, 2].map(gpmfSample));
}

/**
 * An MP4 (ffmpeg's clip) with a timed metadata track (`gpmd`) of `samples`, one per chunk, in
 * an `mdat` after `moov`, each followed by `gap` bytes no track points to (so no two chunks
 * touch, as where a camera interleaves them with the frames).
 */
export async function mp4WithMetadataTrack(file: string, samples: readonly Buffer[], gap = 0): Promise<void> {
  const tmp = `${file}.tmp.mp4`;
  await clip(tmp, 'mp4');
  const movie = fs.readFileSync(tmp);
  fs.rmSync(tmp);
  const sizes = samples.map((s) => s.length);
  const moov = boxesIn(movie).at(-1)!;
  const trakSize = gpmdTrack(2, sizes, new Array<number>(samples.length).fill(0)).length;
  // The samples follow the rebuilt moov and the new mdat's header.
  let at = moov.end + trakSize + 8;
  const offsets = sizes.map((s) => {
    const o = at;
    at += s + gap;
    return o;
  });
  const filler = Buffer.alloc(gap, 0x2e);
  const data = Buffer.concat(samples.flatMap((s) => [s, filler]));
  fs.writeFileSync(
    file,
    withMoovRebuilt(movie, (children) => [...children, gpmdTrack(2, sizes, offsets)], box('mdat', data)),
  );
}

/** The movie with `moov/udta/meta` moved to `moov/meta`, where iPhones keep their keys (moov is last: no offset into mdat changes). */
function metaMovedIntoMoov(movie: Buffer): Buffer {
  return withMoovRebuilt(movie, (children) => {
    const udta = children.find((c) => typeOf(c) === 'udta');
    if (!udta) throw new Error('expected moov/udta');
    const items = boxesIn(udta, 8).map((b) => udta.subarray(b.at, b.end));
    const meta = items.find((i) => typeOf(i) === 'meta');
    if (!meta) throw new Error('expected moov/udta/meta');
    // ffmpeg writes ISO's full box (version and flags before `hdlr`); an iPhone's `moov/meta` is QuickTime's, without them.
    const quicktimeMeta = box('meta', meta.subarray(12));
    return [...children.filter((c) => c !== udta), quicktimeMeta, box('udta', ...items.filter((i) => i !== meta))];
  });
}

/** Where `moov` is in a movie file (tests that damage it). */
export function moovOf(movie: Buffer): { at: number; end: number } {
  const moov = boxesIn(movie).find((b) => b.type === 'moov');
  if (!moov) throw new Error('no moov');
  return { at: moov.at, end: moov.end };
}
