import path from 'node:path';
import express, { type Express } from 'express';
import type { AlbumIndex } from '../core/albums/album-index.js';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { apiNotFound, errorHandler } from '../http/error-handler.js';
import { acceptedLanguage, ADMIN_LANGUAGES, escapeHtml, translatorFor } from '../http/i18n.js';
import { DEFAULT_LANGUAGE } from '../core/languages.js';
import { notFound } from '../core/errors.js';
import type { AdminContext } from './admin-context.js';
import { AlbumFiles } from './album-files.js';
import { localHostOnly, sameOriginWrites, securityHeaders } from './guards.js';
import { KeyedQueue } from './keyed-queue.js';
import { adminPageRoutes } from './routes/admin-page.js';
import { albumRoutes } from './routes/albums.js';
import { cacheStatsRoutes } from './routes/cache-stats.js';
import { filePreviewRoutes } from './routes/file-previews.js';
import { homeContentRoutes } from './routes/home-content.js';
import { mediaUploadRoutes } from './routes/media-upload.js';
import { siteAssetsRoutes } from './routes/site-assets.js';
import { siteSettingsRoutes } from './routes/site-settings.js';
import { shareLinkRoutes } from './routes/share-links.js';
import { FileLinkUsageStore, type LinkUsageStore } from '../core/access/link-usage.js';
import { findViewsDir } from './views-location.js';
import { placesRoutes } from './routes/places.js';
import { preparationRoutes } from './routes/preparation.js';
import { qrCodeRoutes } from './routes/qr-code.js';
import { adoptFolderRoutes } from './routes/adopt-folders.js';
import { albumOrderRoutes } from './routes/album-order.js';
import { mediaActionRoutes } from './routes/media-actions.js';
import { thumbnailPreviewRoutes } from './routes/thumbnail-previews.js';
import { createMediaPool, type MediaPool } from '../media/pool.js';

/** The admin server: docs/api.md#admin-server. */
export const MAX_JSON_BYTES = 1024 * 1024;
export const MAX_UPLOAD_BYTES = 2 * 1024 * 1024 * 1024;
const MAX_FILES_PER_REQUEST = 500;

export interface AdminDeps {
  /** The album tree, read by the listings; rescanned after each write. */
  readonly index: AlbumIndex;
  /** Per-file upload limit; tests lower it to reach the 413 without a 2 GB body. */
  readonly maxUploadBytes?: number;
  readonly log: Logger;
  /** Folder holding `admin/` templates and `assets/admin/`; found from this module by default. */
  readonly viewsDir?: string;
  /** A media pool to use (tests share one and close it); by default the admin makes its own on first use. */
  readonly mediaPool?: MediaPool;
  /** Where the public server counts share links' visits (default: its file under CACHE_DIR/share-links). */
  readonly linkUsage?: LinkUsageStore;
}

/**
 * The admin's own media pool, made on first use: HEIC uploads are decoded whole in its heif
 * lane (the WebAssembly decoder takes a second and hundreds of MB, which must neither hold the
 * admin's event loop nor stay in its heap: the lane's thread ends when idle), and the previews
 * of the album pages are made in its main lane (thumbnails and video posters, shared with the
 * public server through the cache files). Half the configured workers: the public server may
 * run on the same machine. Idle threads never keep the process alive.
 */
function lazyMediaPool(config: Config, log: Logger): () => MediaPool {
  let pool: MediaPool | undefined;
  return () => {
    pool ??= createMediaPool({
      workers: Math.max(1, Math.ceil(config.workers / 2)),
      // A page of previews asks for a few hundred at once; they wait rather than fail.
      maxQueue: 2000,
      lanes: { heif: { workers: 1, maxQueue: MAX_FILES_PER_REQUEST } },
      log,
    });
    return pool;
  };
}

/**
 * The local admin app (no listen: see main.ts). Guards come first so that nothing, not even
 * a 404, is answered to a rebound host name or a foreign page.
 */
export function createAdminApp(config: Config, deps: AdminDeps): Express {
  const { log } = deps;
  const queue = new KeyedQueue();
  const given = deps.mediaPool;
  const mediaPool = given ? () => given : lazyMediaPool(config, log);
  const ctx: AdminContext = {
    config,
    index: deps.index,
    queue,
    albums: new AlbumFiles({ albumsDir: config.albumsDir, queue }),
    uploads: { maxFileBytes: deps.maxUploadBytes ?? MAX_UPLOAD_BYTES, maxFiles: MAX_FILES_PER_REQUEST },
    decodeHeif: (file) => mediaPool().decodeCheck({ src: file }),
    mediaPool,
    refreshIndex: async () => {
      try {
        await deps.index.rescan();
      } catch (err) {
        log.error({ err }, 'album index rescan failed after a write');
      }
    },
    log,
  };
  const viewsDir = deps.viewsDir ?? findViewsDir();

  const app = express();
  app.disable('x-powered-by');
  app.set('views', path.join(viewsDir, 'admin'));
  app.set('view engine', 'ejs');

  app.use(localHostOnly, sameOriginWrites, securityHeaders);
  // The admin's pages in the owner's language, as the browser names it: English or German
  // (the catalogues' `admin` part, README "Languages"); English for any other.
  app.use((req, res, next) => {
    const translator = translatorFor(acceptedLanguage(req, ADMIN_LANGUAGES) ?? DEFAULT_LANGUAGE);
    const { language, t, html, adminStrings } = translator;
    Object.assign(res.locals, { lang: language.code, dir: language.dir, t, tHtml: html, escapeHtml, adminStrings });
    res.vary('Accept-Language');
    next();
  });
  app.use('/api', express.json({ limit: MAX_JSON_BYTES }));

  app.use(albumRoutes(ctx));
  app.use(shareLinkRoutes(ctx, deps.linkUsage ?? new FileLinkUsageStore({ cacheDir: config.cacheDir, log })));
  app.use(mediaUploadRoutes(ctx));
  app.use(homeContentRoutes(ctx));
  app.use(siteAssetsRoutes(ctx));
  app.use(siteSettingsRoutes(ctx));
  app.use(cacheStatsRoutes(config));
  app.use(filePreviewRoutes(ctx));
  app.use(thumbnailPreviewRoutes(ctx));
  app.use(mediaActionRoutes(ctx));
  app.use(albumOrderRoutes(ctx));
  app.use(adoptFolderRoutes(ctx));
  app.use(qrCodeRoutes());
  app.use(preparationRoutes(ctx));
  app.use(placesRoutes(ctx));
  app.use(adminPageRoutes(ctx, viewsDir));

  app.use('/api', apiNotFound);
  app.use((_req, _res, next) => next(notFound('Page not found')));
  app.use(errorHandler({ log }));
  return app;
}
