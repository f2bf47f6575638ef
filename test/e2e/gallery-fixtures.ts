import { execFile } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import http, { type Server } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import sharp from 'sharp';
import { filesOf } from '../../server/core/albums/live-photos.js';
import { loadConfig } from '../../server/core/config.js';
import { createGallery, type Gallery } from '../../server/gallery.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../support/temp-dir.js';
import { quietLogger } from '../support/capture-logger.js';

/**
 * The album tree of the browser tests, made of real files: JPEGs with camera EXIF (one
 * landscape, one portrait), an H.264 MP4, a protected album and a 250-photo album.
 */

/**
 * A gallery over `root`'s albums, content and cache whose albums' facts (sizes, placeholders,
 * dates, playback plans) are read as their preparation would before visitors come (a page
 * never waits for them), but with no thumbnail or web copy made ahead: the browser tests watch
 * those arrive.
 */
export async function galleryWithFactsRead(root: string): Promise<Gallery> {
  const config = loadConfig({
    ALBUMS_DIR: path.join(root, 'albums'),
    CACHE_DIR: path.join(root, 'cache'),
    CONTENT_DIR: path.join(root, 'content'),
    WORKERS: '2',
    PREPARE: 'off',
  });
  const gallery = await createGallery(config, { watch: false, log: quietLogger });
  for (const album of gallery.index.albums()) await gallery.facts.complete(album, Array.from(filesOf(album.media)));
  return gallery;
}

export const PASSWORD = 'open sesame';

/** The two photos with camera details, and what the details panel should show for them. */
export const LANDSCAPE = { name: 'harbour.jpg', width: 1200, height: 800, model: 'X-T5', exif: { Make: 'FUJIFILM', Model: 'X-T5' } };
export const PORTRAIT = { name: 'tower.jpg', width: 800, height: 1200, model: 'Canon EOS R6', exif: { Make: 'Canon', Model: 'Canon EOS R6' } };
export const VIDEO = 'tram.mp4';
/** Wider than the large thumbnail (1920): the lightbox offers its original. */
export const PANORAMA = { name: 'panorama.jpg', width: 2400, height: 800 };

/** name, width, height: the other photos, of assorted shapes (a panorama among them). */
const OTHERS: readonly (readonly [string, number, number])[] = [
  ['alley.jpg', 900, 600],
  ['boats.jpg', 600, 900],
  ['cafe.jpg', 1000, 1000],
  ['dusk.jpg', 1600, 900],
  [PANORAMA.name, PANORAMA.width, PANORAMA.height],
  ['steps.jpg', 700, 1050],
];

/** Album paths: one per layout, with the same files. */
export const LAYOUT_ALBUMS = { grid: '2024/lisbon/grid', masonry: '2024/lisbon/masonry', single: '2024/lisbon/single' } as const;
export const SECRET_ALBUM = '2024/family/secret';
export const BIG_ALBUM = '2024/big/many';
export const BIG_COUNT = 250;

/** Media of each layout album, in the album's (natural) order. */
export const LAYOUT_FILES = [...[LANDSCAPE.name, PORTRAIT.name, VIDEO], ...OTHERS.map(([n]) => n)].sort((a, b) => a.localeCompare(b));

/** A real JPEG: a soft gradient with a sun, so a screenshot looks like something. */
async function writePhoto(file: string, width: number, height: number, hue: number): Promise<void> {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},65%,62%)"/><stop offset="1" stop-color="hsl(${hue + 140},55%,24%)"/></linearGradient></defs>` +
    `<rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width * 0.7}" cy="${height * 0.35}" r="${Math.min(width, height) * 0.16}" fill="hsla(${hue + 40},90%,85%,0.8)"/></svg>`;
  await sharp(Buffer.from(svg)).jpeg({ quality: 82 }).toFile(file);
}

async function writeCameraPhoto(file: string, spec: typeof LANDSCAPE, hue: number): Promise<void> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${spec.width}" height="${spec.height}"><rect width="100%" height="100%" fill="hsl(${hue},50%,45%)"/></svg>`;
  await sharp(Buffer.from(svg))
    .withExif({
      IFD0: { ...spec.exif, DateTime: '2024:05:06 07:08:09' },
      IFD2: {
        LensModel: '35mm F1.4',
        FNumber: '28/10',
        ExposureTime: '1/250',
        FocalLength: '35/1',
        ISOSpeedRatings: '200',
        DateTimeOriginal: '2024:05:06 07:08:09',
      },
    })
    .jpeg({ quality: 82 })
    .toFile(file);
}

const execFileAsync = promisify(execFile);

/** A 2-second H.264 (yuv420p) MP4 from ffmpeg's test pattern, playable by Chromium. */
async function writeVideo(file: string): Promise<void> {
  await execFileAsync(ffmpegInstaller.path, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc=duration=2:size=320x240:rate=25',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
    file,
  ]);
}

export class BrowserGallery {
  readonly root = makeTempDir('gallery-e2e-');
  readonly albumsDir = path.join(this.root, 'albums');
  readonly cacheDir = path.join(this.root, 'cache');
  readonly contentDir = path.join(this.root, 'content');
  /** Screenshots, kept with the temp tree (printed by the tests for a human look). */
  readonly shotsDir = path.join(this.root, 'screenshots');
  gallery!: Gallery;
  server!: Server;
  url = '';

  async build(): Promise<this> {
    fs.mkdirSync(this.contentDir, { recursive: true });
    fs.mkdirSync(this.shotsDir, { recursive: true });
    const first = writeAlbum(this.albumsDir, LAYOUT_ALBUMS.grid, { title: 'Lisbon (grid)', style: 'grid' });
    await writeCameraPhoto(path.join(first, LANDSCAPE.name), LANDSCAPE, 200);
    await writeCameraPhoto(path.join(first, PORTRAIT.name), PORTRAIT, 20);
    await writeVideo(path.join(first, VIDEO));
    let hue = 0;
    for (const [name, w, h] of OTHERS) {
      hue += 47;
      await writePhoto(path.join(first, name), w, h, hue);
    }
    for (const [style, albumPath] of Object.entries(LAYOUT_ALBUMS)) {
      if (albumPath === LAYOUT_ALBUMS.grid) continue;
      const dir = writeAlbum(this.albumsDir, albumPath, { title: `Lisbon (${style})`, style });
      for (const name of LAYOUT_FILES) fs.copyFileSync(path.join(first, name), path.join(dir, name));
    }

    const secret = writeAlbum(this.albumsDir, SECRET_ALBUM, { title: 'Family secrets', password: PASSWORD });
    await writePhoto(path.join(secret, 'birthday.jpg'), 900, 600, 330);
    await writePhoto(path.join(secret, 'cake.jpg'), 600, 900, 30);

    const big = writeAlbum(this.albumsDir, BIG_ALBUM, { title: 'Many photos', style: 'grid' });
    const seed = path.join(big, 'IMG_1.jpg');
    await writePhoto(seed, 48, 32, 90);
    for (let i = 2; i <= BIG_COUNT; i++) fs.copyFileSync(seed, path.join(big, `IMG_${i}.jpg`));
    return this;
  }

  async start(): Promise<this> {
    this.gallery = await galleryWithFactsRead(this.root);
    this.server = http.createServer(this.gallery.handler).listen(0, '127.0.0.1');
    await new Promise<void>((resolve, reject) => this.server.once('listening', resolve).once('error', reject));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    if (this.server) {
      const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
      this.server.closeAllConnections();
      await closed;
    }
    await this.gallery?.close();
    if (!process.env.KEEP_E2E_FILES) removeTempDir(this.root);
  }
}
