import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { filesOf } from '../../server/core/albums/live-photos.js';
import { loadConfig, type Config } from '../../server/core/config.js';
import { createGallery, type Gallery, type GalleryOptions } from '../../server/gallery.js';
import { makeTempDir, removeTempDir, writeAlbum } from './temp-dir.js';
import { quietLogger } from './capture-logger.js';

/** A small real JPEG (a gradient, so it is not a flat colour). */
export async function writeJpeg(file: string, width = 64, height = 48, hue = 20): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},70%,60%)"/><stop offset="1" stop-color="hsl(${hue + 120},60%,30%)"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`;
  await sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toFile(file);
}

export interface TreeSpec {
  /** album path → album.json content and the media file names to create in it. */
  readonly [albumPath: string]: { readonly meta: Record<string, unknown>; readonly files?: readonly string[] };
}

/**
 * A temp gallery: albums, cache and content directories under one temp root, each album
 * written with real JPEGs. Files ending in other extensions are written as small text.
 */
export class GalleryFixture {
  readonly albumsDir: string;
  readonly cacheDir: string;
  readonly contentDir: string;
  gallery!: Gallery;
  config!: Config;

  /** A new temp root, or `root` of another fixture: a second gallery over the same tree and cache (another process of a cluster). */
  constructor(readonly root = makeTempDir()) {
    this.albumsDir = path.join(root, 'albums');
    this.cacheDir = path.join(root, 'cache');
    this.contentDir = path.join(root, 'content');
  }

  async build(tree: TreeSpec): Promise<this> {
    fs.mkdirSync(this.albumsDir, { recursive: true });
    fs.mkdirSync(this.contentDir, { recursive: true });
    let hue = 0;
    for (const [albumPath, spec] of Object.entries(tree)) {
      const dir = writeAlbum(this.albumsDir, albumPath, spec.meta);
      for (const name of spec.files ?? []) {
        const file = path.join(dir, name);
        if (/\.jpe?g$/i.test(name)) {
          hue += 37;
          await writeJpeg(file, 64, 48, hue);
        } else fs.writeFileSync(file, `not an image: ${name}`);
      }
    }
    return this;
  }

  async start(opts: Partial<GalleryOptions> & { env?: Record<string, string> } = {}): Promise<Gallery> {
    // No background preparation unless a test asks for it (PREPARE: 'on'): most tests look at what
    // one request makes, and the pool's work and the cache would not be theirs alone.
    this.config = loadConfig({ ALBUMS_DIR: this.albumsDir, CACHE_DIR: this.cacheDir, CONTENT_DIR: this.contentDir, PREPARE: 'off', ...opts.env });
    this.gallery = await createGallery(this.config, { watch: false, log: quietLogger, ...opts });
    return this.gallery;
  }

  /**
   * Reads the facts of an album's files now (sizes, placeholders, dates), as its preparation
   * would: a page never waits for them, so a test about what a page shows of them reads them first.
   */
  async knownFacts(albumPath: string): Promise<void> {
    const album = this.gallery.index.album(albumPath);
    if (!album) throw new Error(`no album ${albumPath} in the index`);
    await this.gallery.facts.complete(album, Array.from(filesOf(album.media)));
  }

  path(...rel: string[]): string {
    return path.join(this.albumsDir, ...rel.flatMap((r) => r.split('/')));
  }

  readAlbumJson(albumPath: string): Record<string, unknown> {
    return JSON.parse(fs.readFileSync(path.join(this.path(albumPath), 'album.json'), 'utf8')) as Record<string, unknown>;
  }

  /** The token the index holds for an album (generated ones included). */
  token(albumPath: string): string {
    const album = this.gallery.index.album(albumPath);
    if (!album) throw new Error(`no album ${albumPath} in the index`);
    return album.meta.token;
  }

  async close(): Promise<void> {
    await this.gallery?.close();
    removeTempDir(this.root);
  }
}

/** Cookie header value holding these tokens, as the server writes it. */
export function accessCookie(tokens: string[]): string {
  return `album-access=${encodeURIComponent(JSON.stringify(tokens))}`;
}

/** Waits until `check` returns true, polling; fails after `ms`. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 5000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
