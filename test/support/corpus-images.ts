/**
 * The photos of the location corpus (location-corpus.ts), each carrying PLACE where a camera,
 * a phone or a family's tools put it: sharp's EXIF (JPEG, PNG, WebP, AVIF, TIFF with XMP in
 * tag 700), ExifTool's GPS, IPTC-IIM (APP13, TIFF 33723) and XMP, XMP in the forms RDF allows
 * (CDATA, `rdf:value`, a default namespace, IPTC's location structures), ExtendedXMP,
 * ImageMagick's conversions (PNG `tEXt`/`zTXt` profiles, WebP `XMP\0`, TIFF), a JPEG with more
 * than 512 segments before its EXIF, a multi-picture JPEG whose second image has GPS, a motion
 * photo (a movie after the JPEG), a PNG with more than 4,096 chunks, an animated WebP of 75
 * frames with its EXIF after them, and a GIF with a comment and XMP.
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { promisify } from 'node:util';
import sharp, { type Exif } from 'sharp';
import { PLACE } from './corpus-place.js';
import { mp4FfmpegLocation } from './corpus-movies.js';

const run = promisify(execFile);
/** The real ImageMagick: /usr/local/bin/convert forwards to it with changes of its own. */
const CONVERT = '/usr/bin/convert';

/** Degrees, minutes, seconds as EXIF rationals. */
function dms(value: number): string {
  const a = Math.abs(value);
  const d = Math.floor(a);
  const m = Math.floor((a - d) * 60);
  const s = Math.round(((a - d) * 60 - m) * 60 * 100);
  return `${d}/1 ${m}/1 ${s}/100`;
}

/** The camera, lens and exposure a photo keeps, and the GPS IFD it loses, as sharp's `withExif` takes them. */
export const LISBON_EXIF: Exif = {
  IFD0: { Make: 'Canon', Model: 'EOS R5', Software: 'Firmware 1.8', DateTime: '2025:06:01 09:30:00', ImageDescription: `${PLACE.landmark} monastery` },
  IFD2: {
    DateTimeOriginal: '2025:06:01 09:30:00',
    FNumber: '28/10',
    ExposureTime: '1/250',
    LensModel: 'RF24-105mm F4 L IS USM',
    UserComment: `ASCII\0\0\0At ${PLACE.city}`,
  },
  IFD3: {
    GPSLatitudeRef: 'N',
    GPSLatitude: dms(PLACE.latitude),
    GPSLongitudeRef: 'W',
    GPSLongitude: dms(PLACE.longitude),
    GPSAltitude: `${PLACE.altitude}/1`,
    GPSAreaInformation: `ASCII\0\0\0${PLACE.city}`,
  },
};

/** A 320×240 gradient (pixels any decoder must give back unchanged), with `exif`. */
export async function gradient(format: 'jpeg' | 'png' | 'webp' | 'avif' | 'tiff', exif?: Exif): Promise<Buffer> {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="240"><defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="#e07030"/><stop offset="1" stop-color="#3040a0"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="160" cy="120" r="50" fill="#ffd040"/></svg>';
  const image = sharp(Buffer.from(svg));
  return (exif ? image.withExif(exif) : image)[format]().toBuffer();
}

const exiftoolWrite = (file: string, args: readonly string[]) => run('exiftool', ['-q', '-q', '-overwrite_original', ...args, file]);

/** What ExifTool writes for a place: GPS, IPTC-IIM (City, Province-State, Country, Sub-location), XMP photoshop and IPTC's extension. */
const EXIFTOOL_PLACE = [
  `-GPSLatitude=${PLACE.latitude}`,
  '-GPSLatitudeRef=N',
  `-GPSLongitude=${-PLACE.longitude}`,
  '-GPSLongitudeRef=W',
  `-IPTC:City=${PLACE.city}`,
  `-IPTC:Province-State=${PLACE.state}`,
  `-IPTC:Country-PrimaryLocationName=${PLACE.country}`,
  `-IPTC:Sub-location=${PLACE.sublocation}`,
  `-XMP-photoshop:City=${PLACE.city}`,
  `-XMP-photoshop:State=${PLACE.state}`,
  `-XMP-photoshop:Country=${PLACE.country}`,
  `-XMP-iptcExt:LocationCreatedCity=${PLACE.city}`,
  `-XMP-iptcExt:LocationShownSublocation=${PLACE.sublocation}`,
  `-XMP-iptcExt:LocationShownLocationName=${PLACE.landmark}`,
  `-XPComment=${PLACE.landmark}`,
];

/** sharp's JPEG with GPS, a caption and a user comment naming the place. */
export async function jpegSharp(file: string): Promise<void> {
  fs.writeFileSync(file, await gradient('jpeg', LISBON_EXIF));
}

/** A camera JPEG (sharp, no GPS) to which ExifTool added everything EXIFTOOL_PLACE says. */
export async function jpegExiftool(file: string): Promise<void> {
  fs.writeFileSync(file, await gradient('jpeg', { IFD0: { Make: 'Canon', Model: 'EOS R5' } }));
  await exiftoolWrite(file, EXIFTOOL_PLACE);
}

/** A JPEG segment: marker, length, payload. */
export function segment(marker: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header.writeUInt16BE(0xff00 | marker, 0);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([header, payload]);
}

/** `jpeg` with `segments` right after its SOI. */
export const withSegments = (jpeg: Buffer, segments: readonly Buffer[]): Buffer => Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);

const XMP_NS = Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1');

const packet = (description: string) =>
  `<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">${description}</rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;

/** XMP in the forms RDF allows and the old walk missed: CDATA, `rdf:value`, a default namespace, IPTC's LocationCreated structure. */
export async function jpegXmpForms(file: string): Promise<void> {
  const xmp = packet(
    '<rdf:Description rdf:about="" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/" xmlns:exif="http://ns.adobe.com/exif/1.0/">' +
      `<photoshop:City><![CDATA[${PLACE.city}]]></photoshop:City>` +
      `<photoshop:Country rdf:parseType="Resource"><rdf:value>${PLACE.country}</rdf:value></photoshop:Country>` +
      `<Iptc4xmpExt:LocationCreated><rdf:Bag><rdf:li rdf:parseType="Resource"><Iptc4xmpExt:Sublocation>${PLACE.sublocation}</Iptc4xmpExt:Sublocation>` +
      `<Iptc4xmpExt:LocationName><rdf:Alt><rdf:li xml:lang="x-default">${PLACE.landmark}</rdf:li></rdf:Alt></Iptc4xmpExt:LocationName></rdf:li></rdf:Bag></Iptc4xmpExt:LocationCreated>` +
      `<exif:GPSLatitude>38,42.625N</exif:GPSLatitude></rdf:Description>` +
      `<rdf:Description rdf:about=""><State xmlns="http://ns.adobe.com/photoshop/1.0/">${PLACE.state}</State></rdf:Description>`,
  );
  const jpeg = await gradient('jpeg', { IFD0: { Make: 'Canon' } });
  fs.writeFileSync(file, withSegments(jpeg, [segment(0xe1, Buffer.concat([XMP_NS, Buffer.from(xmp, 'utf8')]))]));
}

/** The place in ExtendedXMP segments (the main packet names them by the MD5 of their packet), as editors write XMP too large for one segment. */
export async function jpegExtendedXmp(file: string): Promise<void> {
  const extended = Buffer.from(
    packet(
      `<rdf:Description rdf:about="" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" photoshop:City="${PLACE.city}" photoshop:Country="${PLACE.country}"` +
        ` photoshop:Instructions="${'x'.repeat(70_000)}"/>`,
    ),
    'utf8',
  );
  const guid = crypto.createHash('md5').update(extended).digest('hex').toUpperCase();
  const main = packet(`<rdf:Description rdf:about="" xmlns:xmpNote="http://ns.adobe.com/xmp/note/" xmpNote:HasExtendedXMP="${guid}"/>`);
  const ns = Buffer.from('http://ns.adobe.com/xmp/extension/\0', 'latin1');
  const parts: Buffer[] = [];
  for (let at = 0; at < extended.length; at += 60_000) {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(extended.length, 0);
    head.writeUInt32BE(at, 4);
    parts.push(segment(0xe1, Buffer.concat([ns, Buffer.from(guid, 'latin1'), head, extended.subarray(at, at + 60_000)])));
  }
  const jpeg = await gradient('jpeg', { IFD0: { Make: 'Canon' } });
  fs.writeFileSync(file, withSegments(jpeg, [segment(0xe1, Buffer.concat([XMP_NS, Buffer.from(main, 'utf8')])), ...parts]));
}

/** 600 comment segments before the Exif APP1 (the old walk gave up after 512 segments). */
export async function jpegManySegments(file: string): Promise<void> {
  const withGps = await gradient('jpeg', LISBON_EXIF);
  const app1At = withGps.indexOf('Exif\0\0', 0, 'latin1') - 4;
  const app1 = withGps.subarray(app1At, app1At + 2 + withGps.readUInt16BE(app1At + 2));
  const rest = Buffer.concat([withGps.subarray(0, app1At), withGps.subarray(app1At + app1.length)]);
  const comments = Array.from({ length: 600 }, (_, i) => segment(0xfe, Buffer.from(`note ${i}`, 'latin1')));
  fs.writeFileSync(file, withSegments(rest, [...comments, app1]));
}

/**
 * A multi-picture JPEG (CIPA MPF, as cameras and phones write for a depth map or a second
 * shot): the primary image indexes a second JPEG after it, which has its own GPS.
 */
export async function jpegMultiPicture(file: string): Promise<void> {
  const second = await gradient('jpeg', LISBON_EXIF);
  const primary = await gradient('jpeg', { IFD0: { Make: 'Canon', Model: 'EOS R5' } });
  // APP2 'MPF\0', then a big-endian TIFF block: IFD with MPFVersion, NumberOfImages, MPEntry (2 × 16 bytes).
  const tiff = Buffer.alloc(8 + 2 + 3 * 12 + 4 + 32);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  tiff.writeUInt16BE(3, 8);
  const entry = (i: number, tag: number, type: number, count: number) => {
    const at = 10 + i * 12;
    tiff.writeUInt16BE(tag, at);
    tiff.writeUInt16BE(type, at + 2);
    tiff.writeUInt32BE(count, at + 4);
    return at + 8;
  };
  tiff.write('0100', entry(0, 0xb000, 7, 4), 'latin1');
  tiff.writeUInt32BE(2, entry(1, 0xb001, 4, 1));
  const entriesAt = 10 + 3 * 12 + 4;
  tiff.writeUInt32BE(entriesAt, entry(2, 0xb002, 7, 32));
  // Offsets count from the TIFF header inside the APP2: after SOI, its marker and length, and 'MPF\0'.
  const tiffAt = 2 + 4 + 4;
  const firstLength = primary.length + 4 + 4 + tiff.length;
  tiff.writeUInt32BE(0x20030000, entriesAt); // representative, baseline primary image
  tiff.writeUInt32BE(firstLength, entriesAt + 4);
  tiff.writeUInt32BE(0x00020002, entriesAt + 16); // a multi-frame disparity image
  tiff.writeUInt32BE(second.length, entriesAt + 20);
  tiff.writeUInt32BE(firstLength - tiffAt, entriesAt + 24);
  const first = withSegments(primary, [segment(0xe2, Buffer.concat([Buffer.from('MPF\0', 'latin1'), tiff]))]);
  fs.writeFileSync(file, Buffer.concat([first, second]));
}

/** A motion photo as Android phones write it: the JPEG, then an MP4 with its location; the JPEG's XMP says where the movie starts. */
export async function jpegMotionPhoto(file: string): Promise<void> {
  const movieFile = `${file}.mp4`;
  await mp4FfmpegLocation(movieFile);
  const movie = fs.readFileSync(movieFile);
  fs.rmSync(movieFile);
  const xmp = packet(
    '<rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" xmlns:Container="http://ns.google.com/photos/1.0/container/" xmlns:Item="http://ns.google.com/photos/1.0/container/item/" GCamera:MotionPhoto="1" GCamera:MotionPhotoVersion="1" GCamera:MotionPhotoPresentationTimestampUs="0">' +
      '<Container:Directory><rdf:Seq><rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0" Item:Padding="0"/></rdf:li>' +
      `<rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="${movie.length}" Item:Padding="0"/></rdf:li></rdf:Seq></Container:Directory></rdf:Description>`,
  );
  const still = withSegments(await gradient('jpeg', { IFD0: { Make: 'Google', Model: 'Pixel 8' } }), [
    segment(0xe1, Buffer.concat([XMP_NS, Buffer.from(xmp, 'utf8')])),
  ]);
  fs.writeFileSync(file, Buffer.concat([still, movie]));
}

/** ImageMagick's PNG of ExifTool's JPEG: every EXIF field as `tEXt exif:*`, the profiles as zTXt "Raw profile type exif/iptc/xmp". */
export async function pngImageMagick(file: string): Promise<void> {
  const source = `${file}.jpg`;
  await jpegExiftool(source);
  await run(CONVERT, [source, file]);
  fs.rmSync(source);
}

/** sharp's PNG to which ExifTool added its place (an `eXIf` chunk and an `iTXt` XMP). */
export async function pngExiftool(file: string): Promise<void> {
  fs.writeFileSync(file, await gradient('png'));
  await exiftoolWrite(
    file,
    EXIFTOOL_PLACE.filter((a) => !a.startsWith('-IPTC')),
  );
}

/** PNG chunk: length, type, data, CRC. */
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A PNG whose image data is split into 5,000 IDAT chunks, its `eXIf` with GPS after them (the old walk read 4,096 chunks). */
export async function pngManyChunks(file: string): Promise<void> {
  const png = await gradient('png');
  const exif = (await sharp(await gradient('jpeg', LISBON_EXIF)).metadata()).exif!;
  const chunks: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    chunks.push({ type: png.toString('latin1', at + 4, at + 8), data: png.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  const idat = Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data));
  const piece = Math.max(1, Math.floor(idat.length / 5000));
  const idats: Buffer[] = [];
  for (let at = 0; at < idat.length; at += piece) idats.push(chunk('IDAT', idat.subarray(at, at + piece)));
  if (idats.length < 4200) throw new Error(`only ${idats.length} IDAT chunks: make the image larger`);
  const before = chunks.filter((c) => c.type !== 'IDAT' && c.type !== 'IEND').map((c) => chunk(c.type, c.data));
  // sharp's EXIF starts with 'Exif\0\0'; a PNG's eXIf holds the TIFF block alone.
  fs.writeFileSync(file, Buffer.concat([png.subarray(0, 8), ...before, ...idats, chunk('eXIf', exif.subarray(6)), chunk('IEND', Buffer.alloc(0))]));
}

/** sharp's TIFF with XMP (tag 700) naming the place, to which ExifTool added GPS and IPTC (33723) and Photoshop's resources (34377). */
export async function tiffSharp(file: string): Promise<void> {
  const xmp = packet(
    `<rdf:Description rdf:about="" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" photoshop:City="${PLACE.city}" photoshop:Country="${PLACE.country}"/>`,
  );
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect width="100%" height="100%" fill="#3080c0"/></svg>';
  await sharp(Buffer.from(svg)).withXmp(xmp).tiff({ compression: 'lzw' }).toFile(file);
  await exiftoolWrite(file, [...EXIFTOOL_PLACE.filter((a) => !a.startsWith('-XMP')), `-Photoshop:SlicesGroupName=${PLACE.landmark}`]);
}

/** ImageMagick's TIFF of ExifTool's JPEG (XMP in 700, IPTC in 33723). */
export async function tiffImageMagick(file: string): Promise<void> {
  const source = `${file}.jpg`;
  await jpegExiftool(source);
  await run(CONVERT, [source, '-compress', 'zip', file]);
  fs.rmSync(source);
}

/** ImageMagick's WebP of ExifTool's JPEG: EXIF, and XMP in a chunk it names `XMP\0`. */
export async function webpImageMagick(file: string): Promise<void> {
  const source = `${file}.jpg`;
  await jpegExiftool(source);
  await run(CONVERT, [source, file]);
  fs.rmSync(source);
}

/** sharp's WebP with GPS. */
export async function webpSharp(file: string): Promise<void> {
  fs.writeFileSync(file, await gradient('webp', LISBON_EXIF));
}

/** An animated WebP of 75 frames (sharp), its EXIF with GPS after the frames (the old walk read 64 chunks). */
export async function webpAnimated(file: string): Promise<void> {
  const frames = await Promise.all(
    Array.from({ length: 75 }, (_, i) =>
      sharp({ create: { width: 48, height: 32, channels: 3, background: { r: (i * 3) % 256, g: 90, b: 255 - ((i * 3) % 256) } } })
        .png()
        .toBuffer(),
    ),
  );
  await sharp(frames, { join: { animated: true } })
    .withExif(LISBON_EXIF)
    .webp({ lossless: true })
    .toFile(file);
}

/** sharp's AVIF with GPS. */
export async function avifSharp(file: string): Promise<void> {
  fs.writeFileSync(file, await gradient('avif', LISBON_EXIF));
}

/** ImageMagick's GIF with a comment naming the place, to which ExifTool added XMP. */
export async function gifExiftool(file: string): Promise<void> {
  await run(CONVERT, ['-size', '64x48', 'gradient:orange-navy', '-comment', `Sunset over ${PLACE.city}`, file]);
  await exiftoolWrite(file, [`-XMP-photoshop:City=${PLACE.city}`, `-XMP-exif:GPSLatitude=${PLACE.latitude}`, `-XMP-exif:GPSLongitude=${PLACE.longitude}`]);
}
