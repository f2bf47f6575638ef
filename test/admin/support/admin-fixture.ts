import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import ffmpegBinary from '@ffmpeg-installer/ffmpeg';
import type { Express } from 'express';
import sharp from 'sharp';
import { AlbumIndex } from '../../../server/core/albums/album-index.js';
import { type Config, loadConfig } from '../../../server/core/config.js';
import { createAdminApp } from '../../../server/admin/app.js';
import type { MediaPool } from '../../../server/media/pool.js';
import { type Gallery, createGallery } from '../../../server/gallery.js';
import { makeTempDir, removeTempDir, writeAlbum } from '../../support/temp-dir.js';
import { quietLogger } from '../../support/capture-logger.js';

export interface AdminFixture {
  readonly root: string;
  readonly albumsDir: string;
  readonly contentDir: string;
  readonly cacheDir: string;
  readonly config: Config;
  readonly index: AlbumIndex;
  readonly app: Express;
  /** Writes an album.json under ALBUMS_DIR and rescans the index. */
  album(albumPath: string, meta: Record<string, unknown>): Promise<string>;
  readAlbumJson(albumPath: string): Record<string, unknown>;
  close(): void;
}

/** A temp tree (albums, content, cache) with an admin app over it; no server is listening. */
export async function createAdminFixture(opts: { maxUploadBytes?: number; mediaPool?: MediaPool } = {}): Promise<AdminFixture> {
  const root = makeTempDir('gallery-admin-');
  for (const dir of ['albums', 'content', 'cache']) fs.mkdirSync(path.join(root, dir));
  const config = loadConfig({ ALBUMS_DIR: 'albums', CONTENT_DIR: 'content', CACHE_DIR: 'cache', ADMIN_PORT: '0', PORT: '3999' }, root);
  const index = await AlbumIndex.open({ albumsDir: config.albumsDir, watch: false, log: quietLogger });
  const app = createAdminApp(config, {
    index,
    maxUploadBytes: opts.maxUploadBytes,
    log: quietLogger,
    ...(opts.mediaPool ? { mediaPool: opts.mediaPool } : {}),
  });
  return {
    root,
    albumsDir: config.albumsDir,
    contentDir: config.contentDir,
    cacheDir: config.cacheDir,
    config,
    index,
    app,
    async album(albumPath, meta) {
      const dir = writeAlbum(config.albumsDir, albumPath, meta);
      await index.rescan();
      return dir;
    },
    readAlbumJson(albumPath) {
      return JSON.parse(fs.readFileSync(path.join(config.albumsDir, ...albumPath.split('/'), 'album.json'), 'utf8')) as Record<string, unknown>;
    },
    close() {
      index.close();
      removeTempDir(root);
    },
  };
}

/** The public gallery and the admin over one temp tree, as they run side by side. */
export interface SiteWithAdmin {
  readonly root: string;
  readonly config: Config;
  readonly gallery: Gallery;
  readonly admin: Express;
  close(): Promise<void>;
}

/**
 * A temp tree (albums filled by `fill` first, content, cache) with the public gallery over it,
 * watching it as in production, and the admin app with its own index (rescanned after each
 * of its writes); no server is listening.
 */
export async function openSiteWithAdmin(prefix: string, fill: (albumsDir: string) => Promise<void> | void = () => undefined): Promise<SiteWithAdmin> {
  const root = makeTempDir(prefix);
  for (const dir of ['albums', 'content', 'cache']) fs.mkdirSync(path.join(root, dir));
  await fill(path.join(root, 'albums'));
  const config = loadConfig({ ALBUMS_DIR: 'albums', CONTENT_DIR: 'content', CACHE_DIR: 'cache', ADMIN_PORT: '0', PORT: '0', WORKERS: '1' }, root);
  const gallery = await createGallery(config, { watch: true, log: quietLogger });
  const index = await AlbumIndex.open({ albumsDir: config.albumsDir, watch: false, log: quietLogger });
  const admin = createAdminApp(config, { index, log: quietLogger });
  return {
    root,
    config,
    gallery,
    admin,
    async close() {
      index.close();
      await gallery.close();
      removeTempDir(root);
    },
  };
}

/** A real JPEG (a colour gradient, so it is not trivially compressible). */
export function makeJpeg(width = 64, height = 48): Promise<Buffer> {
  const channels = 3;
  const pixels = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * channels;
      pixels[i] = (x * 255) / width;
      pixels[i + 1] = (y * 255) / height;
      pixels[i + 2] = 128;
    }
  }
  return sharp(pixels, { raw: { width, height, channels } }).jpeg({ quality: 80 }).toBuffer();
}

export function makePng(width = 40, height = 30): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 20, g: 120, b: 200, alpha: 0.5 } } })
    .png()
    .toBuffer();
}

let mp4: Promise<Buffer> | undefined;
/** A 1-second H.264 MP4 made by the ffmpeg binary of @ffmpeg-installer/ffmpeg (lavfi testsrc); made once per run. */
export function makeMp4(): Promise<Buffer> {
  mp4 ??= (async () => {
    const dir = makeTempDir('gallery-admin-video-');
    const file = path.join(dir, 'clip.mp4');
    try {
      await promisify(execFile)(ffmpegBinary.path, [
        '-hide_banner',
        '-loglevel',
        'error',
        '-f',
        'lavfi',
        '-i',
        'testsrc=duration=1:size=160x120:rate=10',
        '-pix_fmt',
        'yuv420p',
        '-c:v',
        'libx264',
        '-movflags',
        '+faststart',
        '-y',
        file,
      ]);
      return fs.readFileSync(file);
    } finally {
      removeTempDir(dir);
    }
  })();
  return mp4;
}

/** Names in a directory, hidden ones included (what a rejected upload must not change). */
export function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/**
 * Every file and folder under `root`, hidden ones included, with a hash of each file's bytes:
 * what a refused request must leave exactly as it was.
 */
export function treeHash(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const rel = path.relative(root, full);
      if (entry.isDirectory()) {
        out[`${rel}/`] = 'dir';
        walk(full);
      } else if (entry.isSymbolicLink()) out[rel] = `link:${fs.readlinkSync(full)}`;
      else out[rel] = crypto.createHash('sha256').update(fs.readFileSync(full)).digest('hex');
    }
  };
  walk(root);
  return out;
}
