/**
 * Small real image files for tests, made on the fly: JPEGs with and without camera EXIF (and a
 * GPS position, which must never reach a thumbnail), a PNG, pure noise, a truncated JPEG.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { type Camera, cameraExif, type Shot } from './camera-exif.js';

/** What the camera fixture carries, as the EXIF endpoint must answer it. */
export const CAMERA = Object.freeze({
  Make: 'Canon',
  Model: 'EOS R5',
  LensModel: 'RF24-70mm F2.8 L IS USM',
  FocalLength: 50,
  FNumber: 2.8,
  ExposureTime: 0.004,
  ISO: 400,
  DateTimeOriginal: '2024:05:01 12:34:56',
});

const CAMERA_BODY: Camera = { make: CAMERA.Make, model: CAMERA.Model, lens: CAMERA.LensModel, software: 'Firmware Version 1.8.1' };
const CAMERA_SHOT: Shot = { fNumber: CAMERA.FNumber, exposure: '1/250', iso: CAMERA.ISO, focal: CAMERA.FocalLength, date: CAMERA.DateTimeOriginal };

export function ensureDir(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
}

/** A gradient, so the JPEG is not a flat colour. */
function gradient(width: number, height: number): Sharp {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="#e07030"/><stop offset="1" stop-color="#3040a0"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`;
  return sharp(Buffer.from(svg));
}

/** A JPEG with the camera EXIF of CAMERA plus a GPS position. */
export async function writeCameraJpeg(file: string, width = 640, height = 480): Promise<void> {
  ensureDir(file);
  await gradient(width, height)
    .withExif({
      ...cameraExif(CAMERA_BODY, CAMERA_SHOT),
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 30/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 17/1 40/1' },
    })
    .jpeg({ quality: 90 })
    .toFile(file);
}

/**
 * A plain JPEG of `width` × `height` stored pixels, without EXIF unless an orientation is
 * given (a phone held upright stores a landscape frame with orientation 6).
 */
export async function writeJpeg(file: string, width: number, height: number, opts: { orientation?: number } = {}): Promise<void> {
  ensureDir(file);
  const img = gradient(width, height);
  if (opts.orientation !== undefined) img.withMetadata({ orientation: opts.orientation });
  await img.jpeg({ quality: 90 }).toFile(file);
}

/**
 * A small JPEG whose EXIF holds a phone's make and model and the date it was taken
 * (DateTimeOriginal, `YYYY:MM:DD HH:MM:SS`, the camera's wall clock), and nothing else.
 */
export async function writeDatedJpeg(file: string, dateTimeOriginal: string, width = 64, height = 48): Promise<void> {
  ensureDir(file);
  await gradient(width, height)
    .withExif({ IFD0: { Make: 'Google', Model: 'Pixel 8' }, IFD2: { DateTimeOriginal: dateTimeOriginal } })
    .jpeg({ quality: 80 })
    .toFile(file);
}

export async function writePng(file: string, width: number, height: number): Promise<void> {
  ensureDir(file);
  await gradient(width, height).png().toFile(file);
}

/** Pure noise: the worst case for JPEG, so even its 1920 px thumbnail is well over 512 KB. */
export async function writeNoisyJpeg(file: string, width: number, height: number): Promise<void> {
  ensureDir(file);
  await sharp({ create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 50 } } })
    .jpeg({ quality: 95 })
    .toFile(file);
}

/** The first half of a file: a JPEG cut in the middle of its image data, as an interrupted upload leaves it. */
export function cutInHalf(bytes: Buffer): Buffer {
  return bytes.subarray(0, Math.floor(bytes.length / 2));
}

/** A photo cut in the middle of its image data: its top half decodes, as browsers show it. */
export async function writeTruncatedJpeg(file: string): Promise<void> {
  ensureDir(file);
  fs.writeFileSync(file, cutInHalf(await noisyJpeg()));
}

/**
 * A JPEG cut before its image data starts (inside its headers): nothing can show any of it,
 * browsers included; the gallery shows its "cannot show" tile.
 */
export async function writeUnreadableJpeg(file: string): Promise<void> {
  ensureDir(file);
  const full = await noisyJpeg();
  const startOfScan = full.indexOf(Buffer.from([0xff, 0xda]));
  fs.writeFileSync(file, full.subarray(0, startOfScan));
}

function noisyJpeg(): Promise<Buffer> {
  return sharp({ create: { width: 400, height: 300, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .jpeg({ quality: 90 })
    .toBuffer();
}
