import express, { Router } from 'express';
import { titleOf } from '../../core/albums/album-tree.js';
import { badRequest } from '../../core/errors.js';
import { boundsOf, MAX_ZOOM, MapIndex, numberOf, type PlacedFile, roundedSpot, zoomOf } from '../../core/map-points.js';
import { MAP_VENDOR_DIRS } from '../../core/map-vendor.js';
import type { AdminContext } from '../admin-context.js';
import { OwnerPlaces } from '../owner-places.js';

/**
 * How long the owner's clusters stand before the records are looked at again (a `stat` per
 * album): panning and zooming within it ask the same index; a position the public server
 * learned since shows on the next request after it.
 */
const INDEX_LIFETIME_MS = 10_000;
/** Photos listed for one spot, as the public map lists. */
const PHOTOS_PER_SPOT = 60;

/** The admin's preview of a file (routes/thumbnail-previews.ts): a thumbnail, never the original. */
const previewUrl = (file: PlacedFile) => `/previews/albums/${[...file.album.path.split('/'), file.item.name].map(encodeURIComponent).join('/')}?size=small`;

/**
 * `GET /api/map?bbox=&zoom=` on the admin (docs/api.md#admin-server): the public map's marks,
 * for the owner: every album (locked, hidden, hiding locations), positions exact (the public
 * map's `exact` grid, five decimals), clustered by the same code (server/core/map-points.ts),
 * whatever precision visitors are given; `GET /api/map/photos?lat=&lon=`, the photos at one
 * exact spot; and the files the Places tab draws it with.
 */
export function placesRoutes(ctx: AdminContext, now: () => number = Date.now): Router {
  const router = Router();
  const places = new OwnerPlaces({ index: ctx.index, cacheDir: ctx.config.cacheDir });
  let kept: { readonly checked: number; readonly index: MapIndex } | undefined;
  /** The look at the records under way: requests arriving meanwhile wait for it rather than stat every album again. */
  let checking: Promise<MapIndex> | undefined;

  async function check(): Promise<MapIndex> {
    const changed = await places.update();
    // Unchanged records and albums: the clusters stand (making them costs about 1 s for 200,000 photos).
    const index = kept && !changed ? kept.index : new MapIndex(places.positioned(), 'exact', { withHiddenLocations: true });
    kept = { checked: now(), index };
    return index;
  }

  function ownerIndex(): Promise<MapIndex> {
    if (kept && now() - kept.checked < INDEX_LIFETIME_MS) return Promise.resolve(kept.index);
    checking ??= check().finally(() => {
      checking = undefined;
    });
    return checking;
  }

  // The Places tab's Leaflet and world, the public map's own files (no request leaves the admin either).
  for (const [prefix, dir] of Object.entries(MAP_VENDOR_DIRS)) {
    router.use(prefix.slice(0, -1), express.static(dir, { index: false, fallthrough: false, setHeaders: (res) => res.set('Cache-Control', 'no-cache') }));
  }

  router.get('/api/map', async (req, res) => {
    const bounds = boundsOf(req.query.bbox);
    const zoom = zoomOf(req.query.zoom, 'exact');
    const index = await ownerIndex();
    res.json({ precision: 'exact', maxZoom: MAX_ZOOM.exact, total: index.total, marks: index.marks(bounds, zoom) });
  });

  // The photos at one exact spot, by album and name: which photos show that place.
  router.get('/api/map/photos', async (req, res) => {
    const lat = numberOf(req.query.lat);
    const lon = numberOf(req.query.lon);
    const spot = lat === undefined || lon === undefined ? undefined : roundedSpot({ lat, lon }, 'exact');
    if (!spot) throw badRequest('Invalid parameter: lat and lon must be numbers in degrees');
    await ownerIndex();
    const here = [...places.positioned()].filter((file) => {
      const at = file.position && roundedSpot(file.position, 'exact');
      return at !== undefined && at.lat === spot.lat && at.lon === spot.lon;
    });
    here.sort((a, b) => (a.album.path === b.album.path ? (a.item.name < b.item.name ? -1 : 1) : a.album.path < b.album.path ? -1 : 1));
    res.json({
      ...spot,
      total: here.length,
      photos: here.slice(0, PHOTOS_PER_SPOT).map((file) => ({
        album: file.album.path,
        albumTitle: titleOf(file.album),
        name: file.item.name,
        kind: file.item.kind,
        preview: previewUrl(file),
      })),
    });
  });

  return router;
}
