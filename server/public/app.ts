import path from 'node:path';
import cookieParser from 'cookie-parser';
import express, { type Express, type Request, type RequestHandler, type Response, type Router } from 'express';
import type { ReadableMedia } from './access/gallery-access.js';
import type { LocateMedia } from '../core/access/media-location.js';
import type { PasswordLimiter } from './access/password-limiter.js';
import type { AlbumIndex } from '../core/albums/album-index.js';
import type { Config } from '../core/config.js';
import { apiNotFound, errorHandler } from '../http/error-handler.js';
import type { HomeContentStore } from '../core/home-content.js';
import { notFound } from '../core/errors.js';
import { albumPageHandler, type DimensionsProvider } from './pages/album-page.js';
import { createAssetUrls } from './pages/asset-urls.js';
import { MediaStats } from './pages/media-stats.js';
import { type StaticPageName, StaticPages } from './pages/static-pages.js';
import type { MediaResolver } from './resolvers.js';
import { originalsHandler } from './routes/originals.js';
import { answerBeforeRouter, type ResponsePreamble } from './routes/media-api.js';
import { createPasswordRouter } from './routes/password-routes.js';
import { ROOT_DIR, VIEWS_DIR } from '../core/root-dir.js';
import { requestLog } from '../http/request-log.js';
import { SECURITY_HEADERS, securityHeaders } from '../http/security-headers.js';

const PHOTOSWIPE_DIR = path.join(ROOT_DIR, 'node_modules', 'photoswipe', 'dist');

export interface AppDeps {
  readonly config: Config;
  readonly index: AlbumIndex;
  readonly home: HomeContentStore;
  readonly limiter: PasswordLimiter;
  readonly resolveMedia: MediaResolver;
  /** What of an album a visitor may read (server/public/access/gallery-access.ts). */
  readonly readableMedia: ReadableMedia;
  /** The symlink rule, for the media stats made here when none are given. */
  readonly locateMedia: LocateMedia;
  /** Routers of the media pipeline and downloads, mounted before the API 404. */
  readonly apiRouters?: readonly Router[];
  /** mtimes of media for thumbnail URL versions, shared with the album-media API. */
  readonly stats?: MediaStats;
  readonly dimensions?: DimensionsProvider;
  readonly log?: (msg: string, err: unknown) => void;
  /** Receives one JSON line per request (server/http/request-log.ts); none when absent. */
  readonly requestLog?: (line: string) => void;
}

/** Versioned static files: their URLs change with their content, so they cache for a year. */
function staticFiles(dir: string): RequestHandler {
  return express.static(dir, { index: false, dotfiles: 'ignore', maxAge: '365d', immutable: true, fallthrough: true });
}

/**
 * What every response gets from the middleware at the top of createApp, for the answers
 * given before the router (server/public/routes/media-api.ts): the same security headers (from
 * the same middleware), then the same request log line.
 */
function responsePreamble(write: ((line: string) => void) | undefined): ResponsePreamble {
  const log = write ? requestLog(write) : undefined;
  const noop = () => {};
  return (req, res) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    const r = req as Request;
    r.originalUrl ??= req.url ?? '/';
    log?.(r, res as Response, noop);
  };
}

/** The public gallery app (no listen: see main.ts). */
export function createApp(deps: AppDeps): Express {
  const { config, index, home } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('view engine', 'ejs');
  app.set('views', VIEWS_DIR);
  app.set('view cache', config.production);
  app.locals.asset = createAssetUrls({ '/assets/': path.join(VIEWS_DIR, 'assets'), '/vendor/photoswipe/': PHOTOSWIPE_DIR });

  if (deps.requestLog) app.use(requestLog(deps.requestLog));
  app.use(securityHeaders);
  app.use(cookieParser());
  // The media API first: thumbnails are most of a gallery's requests, and nothing below
  // (static files, pages, password routes) shares their paths, so they need not walk past it.
  for (const r of deps.apiRouters ?? []) app.use(r);
  app.use('/assets', staticFiles(path.join(VIEWS_DIR, 'assets')));
  app.use('/vendor/photoswipe', staticFiles(PHOTOSWIPE_DIR));
  for (const kind of ['hero', 'cards', 'landing']) {
    app.use(`/content/${kind}`, express.static(path.join(config.contentDir, 'assets', kind), { index: false, dotfiles: 'ignore', maxAge: '1h' }));
  }

  const stats = deps.stats ?? new MediaStats(deps.locateMedia);
  const pages = new StaticPages(app, index, home, stats, config.contentDir);
  const servePage = (name: StaticPageName): RequestHandler =>
    async function staticPage(req, res) {
      const page = await pages.get(name);
      res.set({ ETag: page.etag, 'Cache-Control': 'no-cache' });
      if (req.fresh) return void res.status(304).end();
      res.type('html').send(page.html);
    };
  app.get('/', servePage('landing'));
  app.get('/home', servePage('home'));
  app.get('/photos', servePage('photos'));
  app.get('/photos/*splat', albumPageHandler({ index, stats, readableMedia: deps.readableMedia, production: config.production, dimensions: deps.dimensions, limiter: deps.limiter }));
  app.get('/albums/*splat', originalsHandler(deps.resolveMedia));

  app.use(createPasswordRouter({ index, limiter: deps.limiter, production: config.production }));

  app.use('/api', apiNotFound);
  answerBeforeRouter(app, deps.apiRouters ?? [], responsePreamble(deps.requestLog));
  app.use((_req, _res, next) => next(notFound('Page not found')));
  app.use(errorHandler({ log: deps.log }));
  return app;
}
