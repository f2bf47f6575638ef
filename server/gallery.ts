import { createResolvers } from './public/access/gallery-access.js';
import { createPasswordLimiter } from './public/access/password-limiter.js';
import { AlbumIndex } from './core/albums/album-index.js';
import { createApp } from './public/app.js';
import { createFrontDoor, type RequestListener } from './public/front-door.js';
import type { Config } from './core/config.js';
import type { Logger } from './core/logger.js';
import { HomeContentStore } from './core/home-content.js';
import { createMetadataService } from './media/metadata.js';
import { createMediaPool, type MediaPool } from './media/pool.js';
import { createThumbnailCache } from './media/thumbnails.js';
import { createFullSizeCache } from './media/full-size.js';
import { createLocationPatcher } from './media/location-patcher.js';
import { createFullSizeRouter } from './public/routes/full-size.js';
import { createWebVideoService } from './media/web-video.js';
import { createCoverFocus } from './media/cover-focus.js';
import { createSiteIcons } from './media/site-icons.js';
import { createLivePhotoIds, type LivePhotoIds } from './media/live-photo-ids.js';
import { DimensionsCache } from './media/dimensions.js';
import { readAlbumFacts } from './media/dimensions-file.js';
import { createLibrary, type LibraryIndex } from './media/library/library.js';
import { createPreparer, type Preparer } from './media/preparer.js';
import { createServedCrcs, SERVED_CRCS_SUPPORTED } from './media/served-crc.js';
import { AlbumDates } from './public/pages/album-dates.js';
import { MediaStats } from './public/pages/media-stats.js';
import { createAlbumMediaRouter } from './public/routes/album-media-api.js';
import { createVisitorLanguage } from './public/pages/visitor-language.js';
import { createDownloadRouter } from './public/routes/download.js';
import { createMediaApiRouter, createPublicThumbnailRoute, createThumbnailRouter } from './public/routes/media-api.js';
import { createThumbnailAnswer } from './public/routes/thumbnail-answer.js';
import { createFeedRouter } from './public/routes/feed.js';
import { createFeedThumbnailRouter } from './public/routes/feed-thumbnails.js';
import { createWebVideoRouter } from './public/routes/web-video.js';
import { connectRedis } from './public/redis-connection.js';
import { RedisLinkUsageStore } from './public/access/redis-link-usage.js';
import { FileLinkUsageStore, type LinkUsageStore } from './core/access/link-usage.js';

export interface GalleryOptions {
  /** Clock for the password lockout (tests advance it instead of waiting 15 minutes). */
  readonly now?: () => number;
  /** Watch the album tree and content for changes (default true). */
  readonly watch?: boolean;
  readonly log: Logger;
  /** Where each request's line goes (server/http/request-log.ts); none when absent. */
  readonly requestLog?: Logger;
  /** Visitors' tasks waiting for a worker before requests get 503 (default MAX_WAITING_REQUESTS). */
  readonly maxQueue?: number;
  /** Background tasks allowed to wait (default MAX_BACKGROUND_TASKS). */
  readonly maxBackgroundQueue?: number;
  /** Quiet time before background work starts (default: the pool's, a second). */
  readonly backgroundDelayMs?: number;
  /** Where share links' visits are counted (default: a file under CACHE_DIR/share-links). */
  readonly linkUsage?: LinkUsageStore;
}

export interface Gallery {
  /** The public server's request listener: `http.createServer(handler)`, or supertest. */
  readonly handler: RequestListener;
  readonly index: AlbumIndex;
  readonly home: HomeContentStore;
  readonly pool: MediaPool;
  /** Reads Live Photos' content identifiers after each scan, in the background (docs/api.md#live-photos). */
  readonly livePhotoIds: LivePhotoIds;
  /** What is known of every album's files (their sizes, placeholders, dates taken). */
  readonly facts: DimensionsCache;
  /** The one index across albums: search, timeline, on this day, map (server/media/library/). */
  readonly library: LibraryIndex;
  /** The background preparation of albums (server/media/preparer.ts); undefined with PREPARE=off. */
  readonly preparer: Preparer | undefined;
  /** The visits of share links (docs/api.md#share-links), written a few seconds after they happen. */
  readonly linkUsage: LinkUsageStore;
  close(): Promise<void>;
}

/**
 * A request waiting for a worker is only a queue entry and its open connection: measured at
 * 35-45 KB of RSS each (19 KB of heap) with 1000 and 3000 cold thumbnail requests held
 * waiting, so a thousand cost about 45 MB. That is room for the tiles of several album
 * pages asked at once behind HTTP/2 (docs/api.md#get-apithumbnailpathsizeformat), where an
 * `<img>` answered 503 would stay broken.
 */
const MAX_WAITING_REQUESTS = 1000;
/** The sizes nobody asked for yet, made when the pool is idle: one album page's worth (200 media) may wait. */
const MAX_BACKGROUND_TASKS = 200;
/** View tasks (a viewer's sizes, EXIF) that may wait per worker before a 503 with Retry-After. */
const VIEW_TASKS_PER_WORKER = 16;

/** Builds the public gallery: album index, home content, media pool and the app. */
export async function createGallery(config: Config, opts: GalleryOptions): Promise<Gallery> {
  const { log } = opts;
  const watch = opts.watch ?? true;
  const index = await AlbumIndex.open({ albumsDir: config.albumsDir, watch, watchSetting: config.watch, pollIntervalMs: config.watchIntervalMs, log });
  const home = new HomeContentStore(config.contentDir, log);
  await home.load();
  if (watch) home.watch(undefined, { setting: config.watch, intervalMs: config.watchIntervalMs });
  const pool = createMediaPool({
    workers: config.workers,
    maxQueue: opts.maxQueue ?? MAX_WAITING_REQUESTS,
    // What the viewer waits for keeps the bound all work had before tiles could wait longer.
    maxViewQueue: Math.min(opts.maxQueue ?? MAX_WAITING_REQUESTS, config.workers * VIEW_TASKS_PER_WORKER),
    maxBackgroundQueue: opts.maxBackgroundQueue ?? MAX_BACKGROUND_TASKS,
    backgroundDelayMs: opts.backgroundDelayMs,
    log,
  });
  // REDIS_URL: the lockout every process of the gallery shares (README "Running several processes").
  const redis = config.redisUrl === undefined ? undefined : connectRedis(config.redisUrl, log);
  const limiter = createPasswordLimiter(opts.now, redis && { redis: redis.client, log });
  // Several processes count share-link visits together in Redis; one process, in its file.
  const linkUsage =
    opts.linkUsage ??
    (redis ? new RedisLinkUsageStore(redis.client, { cacheDir: config.cacheDir, log }) : new FileLinkUsageStore({ cacheDir: config.cacheDir, log }));
  const { mediaFor, resolveMedia, resolveAlbum, readableMedia, readableFor, locateMedia } = createResolvers(index, config.albumsDir);
  const thumbnails = createThumbnailCache({ cacheDir: config.cacheDir, pool, log });
  // The one answer to GET /api/thumbnail, asked by the front door and by the Express route alike.
  const thumbnailAnswer = createThumbnailAnswer({ thumbnails, mediaFor, log });
  const metadata = createMetadataService({ pool });
  // One cache of patches for originals, web copies and ZIPs: a video's Range requests and a download share it.
  const locationPatcher = createLocationPatcher();
  const webVideos = createWebVideoService({ cacheDir: config.cacheDir, pool, metadata, log });
  const stats = new MediaStats(locateMedia);
  // Made after the facts it is built from: an album's facts saved meanwhile wait for it (none can be, before the first read).
  let library: LibraryIndex | undefined;
  const dimensions = new DimensionsCache({
    onSaved: (albumPath, entries) => library?.update(albumPath, entries),
    // The one stat of each item (media-stats.ts): its version for URLs and for its facts alike.
    locate: (node, item) => stats.of(node, item),
    cacheDir: config.cacheDir,
    reader: pool,
    onVideoNeedsCopy: (video) => {
      // Refused by a full video lane: made on the video's first request instead.
      webVideos.request(video).catch(() => undefined);
    },
    log,
  });
  // Live Photos' identifiers are kept in the same records, written by the same store.
  const livePhotoIds = createLivePhotoIds({ index, albumsDir: config.albumsDir, facts: dimensions, pool, log });
  library = createLibrary({ index, readFacts: (albumPath) => readAlbumFacts(dimensions.fileOf(albumPath)), log });
  const dates = new AlbumDates({ dimensions: dimensions.provide, stats, findAlbum: (albumPath) => index.album(albumPath) });
  const coverFocus = createCoverFocus({ cacheDir: config.cacheDir, pool, log });
  // Each file's CRC as its ZIP sends it, computed by the preparation and kept with its facts.
  const crcs = createServedCrcs({ records: dimensions.records, pool });
  const preparer = config.prepare
    ? createPreparer({
        index,
        albumsDir: config.albumsDir,
        cacheDir: config.cacheDir,
        dimensions,
        thumbnails,
        locate: locateMedia,
        coverFocus,
        crcs: SERVED_CRCS_SUPPORTED ? crcs : undefined,
        log,
      })
    : undefined;
  // Which language each visitor reads: the pages' and the album-media API's (alt texts).
  const language = createVisitorLanguage({ index, siteLanguage: () => home.site.language });
  const { app, answerError } = createApp({
    config,
    index,
    home,
    limiter,
    resolveMedia,
    readableMedia,
    locateMedia,
    fileRouters: [
      createThumbnailRouter(thumbnailAnswer),
      createFullSizeRouter({ fullSize: createFullSizeCache({ cacheDir: config.cacheDir, pool }), resolveMedia }),
      createWebVideoRouter({ webVideos, resolveMedia, locationPatcher }),
      createDownloadRouter({ resolveAlbum, log, order: dates.order, locationPatcher, knownCrc: crcs.known }),
      createFeedThumbnailRouter({ index, answer: thumbnailAnswer }),
    ],
    apiRouters: [
      createMediaApiRouter({ metadata, resolveMedia, webVideos }),
      createAlbumMediaRouter({ index, resolveAlbum, stats, dimensions: dimensions.provide, order: dates.order, language }),
    ],
    // The map's places: the library's positioned files (server/core/map-points.ts rounds them).
    places: library,
    feedRouter: createFeedRouter({ index, stats, readableFor, site: () => home.site, language, siteKey: config.albumsDir }),
    stats,
    dimensions: dimensions.provide,
    dates,
    locationPatcher,
    coverFocus,
    siteIcons: createSiteIcons({ cacheDir: config.cacheDir, pool }),
    linkUsage,
    language,
    library,
    log,
  });
  const handler = createFrontDoor({ app, answerError, requestLog: opts.requestLog, earlyAnswers: [createPublicThumbnailRoute(thumbnailAnswer)] });
  return {
    handler,
    index,
    home,
    pool,
    livePhotoIds,
    facts: dimensions,
    library,
    preparer,
    linkUsage,
    async close() {
      index.close();
      library.close();
      home.close();
      await preparer?.close();
      await livePhotoIds.close();
      await dimensions.close();
      await coverFocus.close();
      await linkUsage.flush();
      await pool.close();
      await redis?.close();
    },
  };
}
