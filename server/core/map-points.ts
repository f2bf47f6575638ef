/**
 * The map's pure part, shared by the public map (server/public/routes/map-routes.ts: rounded
 * as the owner chose, for what a visitor may open) and the admin's exact one
 * (server/admin/routes/places.ts: every album, for the owner): grids, rounding, clusters.
 */
import Supercluster, { type ClusterProperties, type PointFeature } from 'supercluster';
import { type Album, hidesLocation, type MediaItem } from './albums/album-tree.js';
import { badRequest } from './errors.js';
import type { MapPrecision } from './site-settings.js';

/** What the map needs of a file of the library (server/media/library/library.ts, `LibraryFile`). */
export interface PlacedFile {
  readonly album: Album;
  readonly item: MediaItem;
  /** Newest first is by this: the time taken, else the file's mtime. */
  readonly sortTime: number;
  /** Exact, as the facts record holds it: this module rounds it before anything leaves. */
  readonly position?: { readonly lat: number; readonly lon: number };
}

/** What the map asks of the library: the files with a position of albums that do not hide locations. */
export interface PositionedFiles {
  positioned(albums: readonly Album[]): Iterable<PlacedFile>;
}

/** A precision that shows a map. */
export type ShownPrecision = Exclude<MapPrecision, 'hidden'>;

/**
 * Grid cells per degree, by precision: a position is snapped to the nearest node of its grid
 * before it is counted, clustered or answered, so nothing finer ever leaves the server.
 * `exact` keeps five decimals (about a metre: finer than any phone's GPS), `city` two
 * (0.01°: 1.1 km north–south, less east–west away from the equator), `country` none (1°:
 * about 111 km, the size of a small country or a region of a large one).
 */
export const CELLS_PER_DEGREE: Readonly<Record<ShownPrecision, number>> = Object.freeze({ exact: 100_000, city: 100, country: 1 });

/**
 * How far in a visitor may zoom, by precision: past the point where a grid cell is a few
 * dozen pixels wide there is nothing more to see (city: 0.01° is about 60 px at zoom 13).
 */
export const MAX_ZOOM: Readonly<Record<ShownPrecision, number>> = Object.freeze({ exact: 18, city: 13, country: 7 });

/** Web Mercator stops short of the poles; a position past it is drawn at its edge. */
const MAX_LATITUDE = 85.05112878;

export interface Spot {
  readonly lat: number;
  readonly lon: number;
}

/** `value` snapped to the grid of `perDegree` cells (an integer division keeps 38.72 from becoming 38.720000000000006). */
const snap = (value: number, perDegree: number): number => Math.round(value * perDegree) / perDegree;

/** A position as a visitor may see it at `precision`: on the grid, in the map's range; undefined for one that is not a position. */
export function roundedSpot(position: Spot, precision: ShownPrecision): Spot | undefined {
  const { lat, lon } = position;
  if (!Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) return undefined;
  const perDegree = CELLS_PER_DEGREE[precision];
  const clampedLat = Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat));
  return { lat: snap(clampedLat, perDegree), lon: snap(lon, perDegree) };
}

// The query of `GET /api/map`, the public one's and the admin's (docs/api.md#the-map).

/** A number of a query, or undefined when it is not one. */
export function numberOf(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^-?\d+(\.\d+)?$/.test(value)) return undefined;
  return Number(value);
}

/** `bbox=west,south,east,north` in degrees; the whole world without it. */
export function boundsOf(value: unknown): Bounds {
  if (value === undefined) return { west: -180, south: -90, east: 180, north: 90 };
  const parts = typeof value === 'string' ? value.split(',').map(numberOf) : [];
  const [west, south, east, north] = parts;
  if (parts.length !== 4 || west === undefined || south === undefined || east === undefined || north === undefined)
    throw badRequest('Invalid parameter: bbox must be west,south,east,north in degrees');
  if (south > north || west > east || Math.abs(south) > 90 || Math.abs(north) > 90 || Math.abs(west) > 1_080 || Math.abs(east) > 1_080)
    throw badRequest('Invalid parameter: bbox must be west,south,east,north in degrees');
  // Leaflet counts longitudes past ±180 when the world repeats: a span of the whole world is the world.
  return east - west >= 360 ? { west: -180, south, east: 180, north } : { west, south, east, north };
}

/** `zoom` as an integer from 0 (0 without it), no further than the precision's last zoom. */
export function zoomOf(value: unknown, precision: ShownPrecision): number {
  if (value === undefined) return 0;
  if (typeof value !== 'string' || !/^\d{1,2}$/.test(value)) throw badRequest('Invalid parameter: zoom must be an integer from 0');
  return Math.min(Number(value), MAX_ZOOM[precision]);
}

/** The albums whose positions may be shown: of those the visitor may open, the ones that do not hide locations. */
export const albumsShowingPlaces = (albums: readonly Album[]): Album[] => albums.filter((album) => !hidesLocation(album));

/** One mark of the map: a spot holding `count` photos, or a cluster of spots (`zoom`: where it falls apart). */
export interface MapMark {
  readonly lat: number;
  readonly lon: number;
  readonly count: number;
  /** A cluster's: the zoom at which it splits into its parts; absent for one spot. */
  readonly zoom?: number;
}

export interface Bounds {
  readonly west: number;
  readonly south: number;
  readonly east: number;
  readonly north: number;
}

/** A spot's or a cluster's photos. */
interface SpotCount {
  photos: number;
}

/** The pixel radius within which spots join a cluster, on Leaflet's 256-pixel tiles. */
const CLUSTER_RADIUS = 48;

/**
 * The clusters of one set of files at one precision. The files are counted per grid cell
 * first (so a thousand photos of one garden are one weighted point, and the index grows with
 * the places, not the photos), then clustered: a cluster is made of rounded spots only, and
 * its centre is put back on the grid, so no answer can be averaged back to a finer place.
 */
export class MapIndex {
  readonly #clusters: Supercluster<SpotCount, SpotCount>;
  readonly #precision: ShownPrecision;
  /** Photos in the index: what the whole world's cluster counts. */
  readonly total: number;
  /** Distinct spots. */
  readonly spots: number;

  /**
   * `withHiddenLocations`: the owner's own map (the admin) counts the albums that hide
   * locations too; every visitor's leaves them out, whatever the caller gave.
   */
  constructor(files: Iterable<PlacedFile>, precision: ShownPrecision, opts: { readonly withHiddenLocations?: boolean } = {}) {
    this.#precision = precision;
    const keepHidden = opts.withHiddenLocations === true;
    const perDegree = CELLS_PER_DEGREE[precision];
    // Integer cell keys: a cell's row and column fit well inside 2^53 at every precision.
    const columns = 360 * perDegree + 1;
    const counts = new Map<number, number>();
    let total = 0;
    for (const file of files) {
      if (!file.position || (!keepHidden && hidesLocation(file.album))) continue;
      const spot = roundedSpot(file.position, precision);
      if (!spot) continue;
      const key = Math.round((spot.lat + 90) * perDegree) * columns + Math.round((spot.lon + 180) * perDegree);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      total++;
    }
    const points: PointFeature<SpotCount>[] = [];
    for (const [key, count] of counts) {
      const lat = Math.floor(key / columns) / perDegree - 90;
      const lon = (key % columns) / perDegree - 180;
      points.push({ type: 'Feature', properties: { photos: count }, geometry: { type: 'Point', coordinates: [lon, lat] } });
    }
    this.#clusters = new Supercluster<SpotCount, SpotCount>({
      radius: CLUSTER_RADIUS,
      extent: 256,
      maxZoom: MAX_ZOOM[precision] - 1,
      map: (spot) => ({ photos: spot.photos }),
      reduce: (into, other) => {
        into.photos += other.photos;
      },
    });
    this.#clusters.load(points);
    this.total = total;
    this.spots = points.length;
  }

  /** The marks inside `bounds` at `zoom`, on the grid. */
  marks(bounds: Bounds, zoom: number): MapMark[] {
    const perDegree = CELLS_PER_DEGREE[this.#precision];
    const features = this.#clusters.getClusters([bounds.west, bounds.south, bounds.east, bounds.north], zoom);
    return features.map((feature) => {
      const [lon, lat] = feature.geometry.coordinates as [number, number];
      const properties = feature.properties as SpotCount | (ClusterProperties & SpotCount);
      if (!('cluster' in properties)) return { lat: snap(lat, perDegree), lon: snap(lon, perDegree), count: properties.photos };
      const cluster = properties;
      const zoomIn = Math.min(this.#clusters.getClusterExpansionZoom(cluster.cluster_id), MAX_ZOOM[this.#precision]);
      return { lat: snap(lat, perDegree), lon: snap(lon, perDegree), count: cluster.photos, zoom: zoomIn };
    });
  }
}

/** Whether `file` lies at `spot` as a visitor sees it at `precision`. */
export function isAt(file: PlacedFile, spot: Spot, precision: ShownPrecision): boolean {
  if (!file.position || hidesLocation(file.album)) return false;
  const rounded = roundedSpot(file.position, precision);
  return rounded !== undefined && rounded.lat === spot.lat && rounded.lon === spot.lon;
}
