import express, { Router } from 'express';
import { boundsOf, MAX_ZOOM, MapIndex, zoomOf } from '../../core/map-points.js';
import { MAP_VENDOR_DIRS } from '../../core/map-vendor.js';
import type { AdminContext } from '../admin-context.js';
import { OwnerPlaces } from '../owner-places.js';

/**
 * How long the owner's clusters are kept: panning and zooming within it ask the same index;
 * a position the public server learned since shows on the next request after it.
 */
const INDEX_LIFETIME_MS = 10_000;

/**
 * `GET /api/map?bbox=&zoom=` on the admin (docs/api.md#admin-server): the public map's marks,
 * for the owner: every album (locked, hidden, hiding locations), positions exact (the public
 * map's `exact` grid, five decimals), clustered by the same code (server/core/map-points.ts),
 * whatever precision visitors are given; and the files the Places tab draws it with.
 */
export function placesRoutes(ctx: AdminContext, now: () => number = Date.now): Router {
  const router = Router();
  const places = new OwnerPlaces({ index: ctx.index, cacheDir: ctx.config.cacheDir });
  let kept: { readonly made: number; readonly root: unknown; readonly index: MapIndex } | undefined;

  async function ownerIndex(): Promise<MapIndex> {
    const root = ctx.index.root;
    if (kept && kept.root === root && now() - kept.made < INDEX_LIFETIME_MS) return kept.index;
    const index = new MapIndex(await places.positioned(), 'exact', { withHiddenLocations: true });
    kept = { made: now(), root, index };
    return index;
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

  return router;
}
