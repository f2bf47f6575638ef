import crypto from 'node:crypto';
import { type Request, type Response, Router } from 'express';
import { albumsVisibleTo } from '../../core/access/visible-albums.js';
import type { AlbumIndex } from '../../core/albums/album-index.js';
import { type Album, titleOf } from '../../core/albums/album-tree.js';
import { badRequest, notFound } from '../../core/errors.js';
import type { SiteSettings } from '../../core/site-settings.js';
import { albumPageUrl, thumbnailUrl } from '../../core/urls.js';
import { CONTENT_SECURITY_POLICY } from '../../http/security-headers.js';
import { visitorOf } from '../access/visitor.js';
import { varyByLanguage } from '../pages/visitor-language.js';
import {
  albumsShowingPlaces,
  boundsOf,
  CELLS_PER_DEGREE,
  isAt,
  MAX_ZOOM,
  MapIndex,
  numberOf,
  type PlacedFile,
  type PositionedFiles,
  roundedSpot,
  type ShownPrecision,
  zoomOf,
} from '../../core/map-points.js';

/** Photos listed for one spot: as many as a search page holds. */
export const PHOTOS_PER_SPOT = 60;

/**
 * How long a visitor's clusters are kept before they are made again from the library: the
 * facts of albums arrive in the background (their positions with them), so a map asked
 * again a little later shows them. Within it, panning and zooming ask the same index.
 */
const INDEX_LIFETIME_MS = 10_000;
/** Distinct sets of albums whose clusters are kept (anonymous visitors share one); about 35 MB each at 1,000,000 photos in 580,000 spots. */
const KEPT_INDEXES = 4;

export interface MapDeps {
  readonly index: Pick<AlbumIndex, 'root'>;
  /** The library's files with a position (server/media/library/library.ts). */
  readonly places: PositionedFiles;
  /** The site's settings now: the map's precision, its tiles. */
  readonly settings: () => SiteSettings;
  readonly now?: () => number;
}

interface KeptIndex {
  readonly root: unknown;
  readonly made: number;
  readonly index: MapIndex;
}

/** The CSP of the map page: the site's own, plus the tile server's images when the owner chose one. */
export function mapPagePolicy(tiles: string): string {
  if (tiles === '') return CONTENT_SECURITY_POLICY;
  const origin = /^https:\/\/[^/]+/i.exec(tiles)?.[0] ?? '';
  // `{s}.tile.example.org` names several hosts: the policy allows them by a wildcard.
  const source = origin.replace('{s}', '*');
  return CONTENT_SECURITY_POLICY.replace("img-src 'self'", `img-src 'self' ${source}`);
}

/**
 * `GET /map` and `GET /api/map` (docs/api.md#the-map): where the photos a visitor may open
 * were taken, rounded as the owner chose (site.json `mapPrecision`) before they are counted
 * or clustered, from the albums `albumsVisibleTo` gives this visitor that do not hide
 * locations. With `mapPrecision: "hidden"` there is no map: both answer 404.
 */
export function createMapRouter(deps: MapDeps): Router {
  const router = Router();
  const now = deps.now ?? Date.now;
  const kept = new Map<string, KeptIndex>();

  /** The precision shown to visitors, or a 404 when the owner hid the map. */
  function shownPrecision(): ShownPrecision {
    const precision = deps.settings().mapPrecision;
    if (precision === 'hidden') throw notFound('Page not found');
    return precision;
  }

  function placesOf(req: Request): Album[] {
    const root = deps.index.root;
    return albumsShowingPlaces(albumsVisibleTo(root, visitorOf(req)));
  }

  /** The clusters of `albums` at `precision`, made once for every visitor who sees the same albums. */
  function indexOf(albums: readonly Album[], precision: ShownPrecision): MapIndex {
    const root = deps.index.root;
    const signature = crypto.createHash('sha1');
    for (const album of albums) signature.update(album.path).update('\0');
    const key = `${precision}:${signature.digest('hex')}`;
    const known = kept.get(key);
    if (known && known.root === root && now() - known.made < INDEX_LIFETIME_MS) return known.index;
    const made = new MapIndex(deps.places.positioned(albums), precision);
    kept.delete(key);
    kept.set(key, { root, made: now(), index: made });
    // The oldest set goes first (a Map iterates in insertion order).
    if (kept.size > KEPT_INDEXES) kept.delete(kept.keys().next().value as string);
    return made;
  }

  /** What the answers of one visitor say of the cache: they hold its own albums, for it alone. */
  const privateAnswer = (res: Response) => res.set('Cache-Control', 'private, no-store');

  router.get('/api/map', function mapMarks(req, res) {
    const precision = shownPrecision();
    const bounds = boundsOf(req.query.bbox);
    const zoom = zoomOf(req.query.zoom, precision);
    const index = indexOf(placesOf(req), precision);
    privateAnswer(res);
    res.json({ precision, maxZoom: MAX_ZOOM[precision], total: index.total, marks: index.marks(bounds, zoom) });
  });

  router.get('/api/map/photos', function photosAtSpot(req, res) {
    const precision = shownPrecision();
    const lat = numberOf(req.query.lat);
    const lon = numberOf(req.query.lon);
    if (lat === undefined || lon === undefined) throw badRequest('Invalid parameter: lat and lon must be numbers in degrees');
    const spot = roundedSpot({ lat, lon }, precision);
    if (!spot) throw badRequest('Invalid parameter: lat and lon must be numbers in degrees');
    const here: PlacedFile[] = [];
    for (const file of deps.places.positioned(placesOf(req))) if (isAt(file, spot, precision)) here.push(file);
    here.sort((a, b) => b.sortTime - a.sortTime || (a.album.path + a.item.name < b.album.path + b.item.name ? -1 : 1));
    privateAnswer(res);
    res.json({
      ...spot,
      total: here.length,
      photos: here.slice(0, PHOTOS_PER_SPOT).map((file) => {
        const filePath = `${file.album.path}/${file.item.name}`;
        return {
          path: filePath,
          album: file.album.path,
          albumTitle: titleOf(file.album),
          name: file.item.name,
          kind: file.item.kind,
          // The album at this photo: its viewer opens on it (views/assets/lightbox.js, `#photo=`).
          url: `${albumPageUrl(file.album.path)}#photo=${encodeURIComponent(file.item.name)}`,
          thumbnail: thumbnailUrl(filePath, 'small', undefined),
        };
      }),
    });
  });

  router.get('/map', function mapPage(_req, res) {
    const precision = shownPrecision();
    const site = deps.settings();
    res.set('Content-Security-Policy', mapPagePolicy(site.mapTiles));
    res.set('Cache-Control', 'no-cache');
    varyByLanguage(res);
    res.render('map', {
      precision,
      maxZoom: MAX_ZOOM[precision],
      // The decimals a spot has at this precision, for the page's own rounding of what it shows.
      decimals: Math.log10(CELLS_PER_DEGREE[precision]),
      tiles: site.mapTiles,
      attribution: site.mapAttribution,
    });
  });

  return router;
}
