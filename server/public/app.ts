import path from 'node:path';
import cookieParser from 'cookie-parser';
import express, { type Express, type RequestHandler, type Response, type Router } from 'express';
import type { ReadableMedia } from './access/gallery-access.js';
import type { LocateMedia } from '../core/access/media-location.js';
import type { PasswordLimiter } from './access/password-limiter.js';
import type { AlbumIndex } from '../core/albums/album-index.js';
import type { Config } from '../core/config.js';
import { apiNotFound, errorHandler } from '../http/error-handler.js';
import { documentHeaders, documentHeadersOfErrors, setDocumentHeadersByType } from '../http/security-headers.js';
import { textCompression } from '../http/text-compression.js';
import { fixedFiles } from '../http/precompressed-files.js';
import type { HomeContentStore } from '../core/home-content.js';
import type { Logger } from '../core/logger.js';
import type { LocationPatcher } from '../media/location-patcher.js';
import { MediaTaskError } from '../media/pool-errors.js';
import { notFound } from '../core/errors.js';
import { createAlbumPages, type DimensionsProvider } from './pages/album-page.js';
import type { LinkUsageStore } from '../core/access/link-usage.js';
import { createLinkVisits } from './access/link-visits.js';
import { visitorMiddleware } from './access/visitor.js';
import { createShareLinkRouter } from './routes/share-link-page.js';
import { framePageHandler, renderLinkFrame } from './pages/frame-page.js';
import { createFrameMediaRouter } from './routes/frame-media-api.js';
import { assetLocals } from './pages/asset-urls.js';
import type { AlbumDates } from './pages/album-dates.js';
import { MediaStats } from './pages/media-stats.js';
import { type StaticPageName, StaticPages } from './pages/static-pages.js';
import { PageCache, sendCachedPage } from './pages/page-cache.js';
import { SiteIdentity } from './pages/site-identity.js';
import type { CoverFocusLookup } from '../media/cover-focus.js';
import type { SiteIcons } from '../media/site-icons.js';
import { createSiteIdentityRouter } from './routes/site-identity.js';
import type { MediaResolver } from './resolvers.js';
import { originalsHandler } from './routes/originals.js';
import { createPasswordRouter } from './routes/password-routes.js';
import { createUnlockedAlbumsRouter } from './routes/unlocked-albums.js';
import { refusedPageFor } from './pages/refused-page.js';
import type { ErrorAnswer } from './front-door.js';
import { createHandedInErrors } from './handed-in-errors.js';
import { ROOT_DIR, VIEWS_DIR } from '../core/root-dir.js';
import { createVisitorLanguage, languageMiddleware, languageLocals, type VisitorLanguage } from './pages/visitor-language.js';
import { translatorFor } from '../http/i18n.js';
import { DEFAULT_LANGUAGE } from '../core/languages.js';
import { createLanguageChoiceRouter } from './routes/language-choice.js';
import { SITE_FEED_PATH } from './pages/feed-paths.js';
import { MAP_VENDOR_DIRS } from '../core/map-vendor.js';
import { createMapRouter } from './routes/map-routes.js';
import type { PositionedFiles } from '../core/map-points.js';
import type { Library } from '../media/library/library.js';
import { createSearchRouter } from './routes/search.js';
import { createCardDates } from './pages/card-dates.js';
import { createTimelineRouter } from './routes/timeline.js';

const PHOTOSWIPE_DIR = path.join(ROOT_DIR, 'node_modules', 'photoswipe', 'dist');
/** The ThumbHash decoder the album page paints its placeholders with (views/assets/tile-placeholders.js). */
const THUMBHASH_DIR = path.join(ROOT_DIR, 'node_modules', 'thumbhash');

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
  /**
   * Routers that answer files (thumbnails, full-size JPEGs, web copies of videos, ZIPs):
   * mounted first, before the document headers. Their errors are answered as documents.
   */
  readonly fileRouters?: readonly Router[];
  /** Routers of the JSON API (EXIF, video info, an album's media), mounted after the document headers, before the API 404. */
  readonly apiRouters?: readonly Router[];
  /** The feeds of new photos (server/public/routes/feed.ts): mounted with the pages, in the visitor's language. */
  readonly feedRouter?: Router;
  /** mtimes of media for thumbnail URL versions, shared with the album-media API. */
  readonly stats?: MediaStats;
  readonly dimensions?: DimensionsProvider;
  /** Album order by date and the header's date span (server/public/pages/album-dates.ts). */
  readonly dates?: AlbumDates;
  /** Patches the location out of originals of albums that hide it (docs/api.md#location-privacy). */
  readonly locationPatcher?: LocationPatcher;
  /** Where album cards crop their covers (server/media/cover-focus.ts); centred without it. */
  readonly coverFocus?: CoverFocusLookup;
  /** The PNG app icons (server/media/site-icons.ts); without it /icons/* is not served. */
  readonly siteIcons?: SiteIcons;
  /** Where the visits of share links are counted (docs/api.md#share-links). */
  readonly linkUsage: LinkUsageStore;
  /** The files with a position, for the map (the library, server/media/library/library.ts); no points without it. */
  readonly places?: PositionedFiles;
  /** Which language each visitor reads (made here from the index and site.json when not given). */
  readonly language?: VisitorLanguage;
  /** The index across albums (server/media/library/): /search and /api/search, /timeline, on this day, the cards' dates; not served without it. */
  readonly library?: Library;
  readonly log: Logger;
}

/**
 * Versioned static files: their URLs change with their content, so they cache for a year, and
 * their text goes out compressed once at the strongest setting (server/http/precompressed-files.ts).
 */
function staticFiles(dir: string): RequestHandler[] {
  return fixedFiles(dir, { maxAgeSeconds: 365 * 24 * 60 * 60, immutable: true, setHeaders: documentHeadersByType });
}

/**
 * A file of a static folder is a document when its type is one (an SVG, an HTML or JSON file
 * put there): it gets the document headers, the site's scripts and styles and the images do
 * not. Asked of the type send is about to set, which it keeps when one is set already.
 */
function documentHeadersByType(res: Response, file: string): void {
  res.type(path.extname(file));
  setDocumentHeadersByType(res, res.getHeader('Content-Type'));
}

/** The public app, and its answer to errors met before it. */
export interface PublicApp {
  readonly app: Express;
  /**
   * Answers an error the front door met answering a request itself (server/public/front-door.ts)
   * as the app answers the same error thrown by one of its routes: through everything a request
   * goes through before the routes, then the one error handler.
   */
  readonly answerError: ErrorAnswer;
}

/**
 * The public gallery app. Served behind the front door (server/public/front-door.ts), which
 * writes the request log and sets the headers every response carries; the headers only a
 * document reads are set here, in front of the routes that make documents.
 */
export function createApp(deps: AppDeps): PublicApp {
  const { config, index, home } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('view engine', 'ejs');
  app.set('views', VIEWS_DIR);
  app.set('view cache', config.production);
  // Views rendered before the visitor's language is known (an error on the way) are in the default one.
  Object.assign(app.locals, languageLocals(translatorFor(DEFAULT_LANGUAGE)));
  const language = deps.language ?? createVisitorLanguage({ index, siteLanguage: () => home.site.language });
  // /photos names the site's feed (views/photos.ejs): its one address.
  app.locals.siteFeed = SITE_FEED_PATH;
  Object.assign(
    app.locals,
    assetLocals({ '/assets/': path.join(VIEWS_DIR, 'assets'), '/vendor/photoswipe/': PHOTOSWIPE_DIR, '/vendor/thumbhash/': THUMBHASH_DIR, ...MAP_VENDOR_DIRS }),
  );

  // Pages, assets and JSON go out compressed; media pass through as they are (text-compression.ts).
  app.use(textCompression());
  app.use(cookieParser());
  // Before every route that decides access: what a visitor presents is answered for (tokens
  // that open nothing are failed guesses of the password lockout: server/public/access/visitor.ts).
  app.use(visitorMiddleware(deps.limiter, config.production));
  // An error the front door met answering a request itself arises here, where a route's would.
  const handedIn = createHandedInErrors();
  app.use(handedIn.raise);

  // Files first: thumbnails are most of a gallery's requests, and nothing below (static
  // files, pages, password routes) shares their paths, so they need not walk past it.
  for (const r of deps.fileRouters ?? []) app.use(r);
  app.get('/albums/*splat', originalsHandler(deps.resolveMedia, deps.locationPatcher));
  app.use('/assets', staticFiles(path.join(VIEWS_DIR, 'assets')));
  app.use('/vendor/photoswipe', staticFiles(PHOTOSWIPE_DIR));
  app.use('/vendor/thumbhash', staticFiles(THUMBHASH_DIR));
  for (const [prefix, dir] of Object.entries(MAP_VENDOR_DIRS)) app.use(prefix.slice(0, -1), staticFiles(dir));
  for (const kind of ['hero', 'cards', 'landing']) {
    app.use(
      `/content/${kind}`,
      express.static(path.join(config.contentDir, 'assets', kind), { index: false, dotfiles: 'ignore', maxAge: '1h', setHeaders: documentHeadersByType }),
    );
  }
  const site = new SiteIdentity(home);
  // The favicon and manifest are documents, its stylesheet and icons not: it says so per file.
  if (deps.siteIcons) app.use(createSiteIdentityRouter({ identity: site, icons: deps.siteIcons }));

  // Everything below makes documents: pages, JSON, redirects, the password form.
  app.use(documentHeaders);
  for (const r of deps.apiRouters ?? []) app.use(r);
  // Every page shows the site's name and icons (views/partials/head.ejs): the pages rendered
  // through res.render read them here, the static pages get them with their locals.
  app.use((req, res, next) => {
    res.locals.site = site.view;
    // Where the language switcher comes back to: pages made for one request (kept pages say their own).
    res.locals.pagePath = req.path;
    next();
  });
  // Every page below is in the visitor's language, and says in Vary what that depends on.
  app.use(languageMiddleware(language));
  app.use(createLanguageChoiceRouter({ production: config.production }));
  if (deps.feedRouter) app.use(deps.feedRouter);

  const stats = deps.stats ?? new MediaStats(deps.locateMedia);
  // One page cache for every kept page: landing, home, /photos, folders and albums.
  const pageCache = new PageCache();
  const cardDates = deps.library ? createCardDates(deps.library) : undefined;
  const pages = new StaticPages(pageCache, app, index, home, stats, config.contentDir, site, deps.coverFocus, cardDates);
  const servePage = (name: StaticPageName): RequestHandler =>
    async function staticPage(req, res) {
      await sendCachedPage(req, res, await pages.get(name, language(req)), 'no-cache');
    };
  app.get('/', servePage('landing'));
  app.get('/home', servePage('home'));
  const linkVisits = createLinkVisits(deps.linkUsage);
  const albumPages = createAlbumPages({
    index,
    pageCache,
    stats,
    readableMedia: deps.readableMedia,
    production: config.production,
    dimensions: deps.dimensions,
    limiter: deps.limiter,
    dates: deps.dates,
    coverFocus: deps.coverFocus,
    site,
    linkVisits,
    language,
    cardDates,
  });
  // `/photos?all`: every album at the top of the tree, a page at a time, which /photos links
  // to when it shows only the newest (server/public/pages/folder-listing.ts).
  const photosPage = servePage('photos');
  app.get('/photos', (req, res, next) => (req.query.all === undefined ? photosPage(req, res, next) : albumPages.render(req, res, index.root)));
  app.get('/photos/*splat', albumPages.handler);
  app.use(
    createShareLinkRouter({
      index,
      limiter: deps.limiter,
      render: albumPages.render,
      linkVisits,
      production: config.production,
      language,
      renderFrame: renderLinkFrame,
    }),
  );
  // The photo frame of an album or folder (docs/api.md#photo-frame), and the list of a folder's.
  const framePage = framePageHandler({ index, albumPages, linkVisits, production: config.production });
  app.get('/frame', framePage);
  app.get('/frame/*splat', framePage);
  app.use(createFrameMediaRouter({ index, readableMedia: deps.readableMedia, stats, dimensions: deps.dimensions, order: deps.dates?.order, language }));
  app.use(createPasswordRouter({ index, limiter: deps.limiter, production: config.production }));
  app.use(createUnlockedAlbumsRouter({ index, stats, language }));
  app.use(createMapRouter({ index, places: deps.places ?? { positioned: () => [] }, settings: () => home.site }));
  if (deps.library) {
    app.use(createSearchRouter({ index, library: deps.library, stats, readableMedia: deps.readableMedia, coverFocus: deps.coverFocus, language }));
    app.use(createTimelineRouter({ index, library: deps.library, stats, readableMedia: deps.readableMedia, language }));
  }

  app.use('/api', apiNotFound);
  app.use((_req, _res, next) => next(notFound('Page not found')));
  // An error is answered with a document (JSON or a page), whichever route met it.
  app.use(documentHeadersOfErrors);
  // The pool already logged the failure of a media task; the error handler logs the rest.
  // A browser refused a file or a ZIP gets a page with the way to unlock it (pages/refused-page.ts).
  app.use(errorHandler({ log: deps.log, alreadyLogged: (err) => err instanceof MediaTaskError, refusedPage: refusedPageFor(index, language) }));
  return { app, answerError: handedIn.answerWith(app) };
}
