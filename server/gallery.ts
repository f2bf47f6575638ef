import type { Express } from 'express';
import { createResolvers } from './access/gallery-access.js';
import { createPasswordLimiter } from './access/password-limiter.js';
import { AlbumIndex } from './albums/album-index.js';
import { createApp } from './app.js';
import type { Config } from './config.js';
import { HomeContentStore } from './home-content.js';

export interface GalleryOptions {
  /** Clock for the password lockout (tests advance it instead of waiting 15 minutes). */
  readonly now?: () => number;
  /** Watch the album tree and content for changes (default true). */
  readonly watch?: boolean;
  readonly log?: (level: 'info' | 'warn' | 'error', message: string) => void;
  /** One JSON line per request (see server/request-log.ts). */
  readonly requestLog?: (line: string) => void;
}

export interface Gallery {
  readonly app: Express;
  readonly index: AlbumIndex;
  readonly home: HomeContentStore;
  close(): Promise<void>;
}

/** Builds the public gallery: album index, home content, media pool and the app. */
export async function createGallery(config: Config, opts: GalleryOptions = {}): Promise<Gallery> {
  const log = opts.log ?? ((level, message) => (level === 'info' ? console.log(message) : console.warn(message)));
  const watch = opts.watch ?? true;
  const index = await AlbumIndex.open({ albumsDir: config.albumsDir, watch, log });
  const home = new HomeContentStore(config.contentDir, (m) => log('warn', m));
  await home.load();
  if (watch) home.watch();
  const limiter = createPasswordLimiter(opts.now);
  const { resolveMedia } = createResolvers(index, config.albumsDir);
  const app = createApp({ config, index, home, limiter, resolveMedia, requestLog: opts.requestLog });
  return {
    app,
    index,
    home,
    async close() {
      index.close();
      home.close();
    },
  };
}
