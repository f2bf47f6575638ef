/**
 * Real media files for the media pipeline tests, made on the fly in temp directories:
 * JPEGs with camera EXIF (and GPS, which must never reach a thumbnail), the eight EXIF
 * orientations (after sharp's Landscape_1..8 set), a PNG without EXIF, a truncated JPEG,
 * and short H.264 MP4s (one with a 90° rotation) made with the ffmpeg binary we ship.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import express, { type Express } from 'express';
import sharp, { type Sharp } from 'sharp';
import { errorHandler } from '../../server/error-handler.js';
import { notFound } from '../../server/http-error.js';
import { createMetadataService, type MetadataService } from '../../server/media/metadata.js';
import { createMediaPool, type MediaPool } from '../../server/media/pool.js';
import { createThumbnailCache, type ThumbnailCache } from '../../server/media/thumbnails.js';
import { mediaKind } from '../../server/media-types.js';
import { hasHiddenSegment, parseRelativePath, resolveInside } from '../../server/paths.js';
import type { MediaResolver } from '../../server/resolvers.js';
import { createMediaApiRouter } from '../../server/routes/media-api.js';

const run = promisify(execFile);

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

function ensureDir(file: string): void {
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
      IFD0: { Make: CAMERA.Make, Model: CAMERA.Model },
      IFD2: {
        LensModel: CAMERA.LensModel,
        FocalLength: '50/1',
        FNumber: '28/10',
        ExposureTime: '1/250',
        ISOSpeedRatings: '400',
        DateTimeOriginal: CAMERA.DateTimeOriginal,
      },
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

export async function writePng(file: string, width: number, height: number): Promise<void> {
  ensureDir(file);
  await gradient(width, height).png().toFile(file);
}

/**
 * The picture as it must be displayed: DISPLAY_WIDTH × DISPLAY_HEIGHT, red in the top-left
 * quarter, blue elsewhere. Orientation N is stored as the inverse transform of that picture
 * plus the EXIF tag N, so a correct auto-orient gives back red at the top left whatever N.
 */
export const DISPLAY_WIDTH = 240;
export const DISPLAY_HEIGHT = 160;

/** Steps from the displayed picture to the stored one, one sharp pipeline each (sharp orders flip/flop and rotate its own way within one). */
const STORE_AS: Record<number, Array<(img: Sharp) => Sharp>> = {
  1: [],
  2: [(img) => img.flop()],
  3: [(img) => img.rotate(180)],
  4: [(img) => img.flip()],
  5: [(img) => img.rotate(90), (img) => img.flop()], // transpose
  6: [(img) => img.rotate(270)],
  7: [(img) => img.rotate(270), (img) => img.flop()], // transverse
  8: [(img) => img.rotate(90)],
};

export async function writeOrientedJpeg(file: string, orientation: number): Promise<void> {
  const steps = STORE_AS[orientation];
  if (!steps) throw new RangeError(`orientation must be 1 to 8, got ${orientation}`);
  ensureDir(file);
  let picture = await sharp({ create: { width: DISPLAY_WIDTH, height: DISPLAY_HEIGHT, channels: 3, background: '#0000ff' } })
    .composite([{ input: { create: { width: DISPLAY_WIDTH / 2, height: DISPLAY_HEIGHT / 2, channels: 3, background: '#ff0000' } }, left: 0, top: 0 }])
    .png()
    .toBuffer();
  for (const step of steps) picture = await step(sharp(picture)).png().toBuffer();
  await sharp(picture).withMetadata({ orientation }).jpeg({ quality: 95 }).toFile(file);
}

/** Pure noise: the worst case for JPEG, so even its 1920 px thumbnail is well over 512 KB. */
export async function writeNoisyJpeg(file: string, width: number, height: number): Promise<void> {
  ensureDir(file);
  await sharp({ create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 50 } } })
    .jpeg({ quality: 95 })
    .toFile(file);
}

/** A JPEG cut in the middle of its image data, as an interrupted upload leaves it. */
export async function writeTruncatedJpeg(file: string): Promise<void> {
  ensureDir(file);
  const full = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .jpeg({ quality: 90 })
    .toBuffer();
  fs.writeFileSync(file, full.subarray(0, Math.floor(full.length / 2)));
}

export interface VideoSpec {
  readonly width?: number;
  readonly height?: number;
  readonly seconds?: number;
  /** Stored as a rotation in the container (display matrix), as phones do for portrait video. */
  readonly rotate?: 90;
}

/** A real H.264 MP4 of ffmpeg's test pattern at 29.97 fps. */
export async function writeVideo(file: string, spec: VideoSpec = {}): Promise<void> {
  const { width = 320, height = 240, seconds = 2, rotate } = spec;
  ensureDir(file);
  const encoded = rotate ? `${file}.plain.mp4` : file;
  await run(ffmpegInstaller.path, [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', `testsrc=duration=${seconds}:size=${width}x${height}:rate=30000/1001`,
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', encoded,
  ]);
  if (rotate) {
    // This ffmpeg writes the rotation only when remuxing, not while encoding.
    await run(ffmpegInstaller.path, ['-hide_banner', '-loglevel', 'error', '-y', '-i', encoded, '-c', 'copy', '-metadata:s:v:0', `rotate=${rotate}`, file]);
    fs.rmSync(encoded);
  }
}

/** Red at the top-left corner and blue at the bottom-right, with JPEG's slack. */
export async function cornerColours(file: string): Promise<{ topLeft: 'red' | 'blue' | 'other'; bottomRight: 'red' | 'blue' | 'other' }> {
  const { data, info } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => {
    const i = (y * info.width + x) * info.channels;
    const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
    if (r > 200 && g < 60 && b < 60) return 'red' as const;
    if (b > 200 && r < 60 && g < 60) return 'blue' as const;
    return 'other' as const;
  };
  const dx = Math.floor(info.width / 8);
  const dy = Math.floor(info.height / 8);
  return { topLeft: at(dx, dy), bottomRight: at(info.width - 1 - dx, info.height - 1 - dy) };
}

// ---------------------------------------------------------------------------------------
// The media API on a bare app, as the lead's createApp will mount it.

/**
 * Resolves `path` the way the real resolver does for a public album (validation, real path
 * inside ALBUMS_DIR, media types only); albums listed in `protectedAlbums` are reported
 * protected. Access enforcement itself is not the media pipeline's job.
 */
export function directMediaResolver(albumsDir: string, protectedAlbums: readonly string[] = []): MediaResolver {
  return async (_req, raw) => {
    const relPath = parseRelativePath(raw);
    const kind = mediaKind(relPath);
    if (!kind || hasHiddenSegment(relPath)) throw notFound('File not found');
    const absPath = await resolveInside(albumsDir, relPath);
    const albumPath = relPath.slice(0, Math.max(0, relPath.lastIndexOf('/')));
    const isProtected = protectedAlbums.some((p) => albumPath === p || albumPath.startsWith(`${p}/`));
    return { relPath, absPath, kind, albumPath, protected: isProtected };
  };
}

export interface MediaTestApp {
  readonly app: Express;
  readonly pool: MediaPool;
  readonly thumbnails: ThumbnailCache;
  readonly metadata: MetadataService;
  /** What the pool and the error handler logged (kept out of the test output). */
  readonly logged: unknown[];
}

export function createMediaTestApp(opts: {
  albumsDir: string;
  cacheDir: string;
  workers?: number;
  maxQueue?: number;
  protectedAlbums?: readonly string[];
}): MediaTestApp {
  const logged: unknown[] = [];
  const log = (_message: string, err: unknown) => void logged.push(err);
  const pool = createMediaPool({ workers: opts.workers ?? 2, maxQueue: opts.maxQueue ?? 100, log });
  const thumbnails = createThumbnailCache({ cacheDir: opts.cacheDir, pool });
  const metadata = createMetadataService({ pool });
  const app = express();
  app.use(createMediaApiRouter({ thumbnails, metadata, resolveMedia: directMediaResolver(opts.albumsDir, opts.protectedAlbums), log }));
  app.use(errorHandler({ log }));
  return { app, pool, thumbnails, metadata, logged };
}
