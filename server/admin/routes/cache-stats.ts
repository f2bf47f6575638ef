import { Router } from 'express';
import type { Config } from '../../core/config.js';
import { albumPathParam } from '../album-paths.js';
import { albumCacheStats, cacheStats, clearAlbumCache, clearCache } from '../cache-usage.js';

/** GET/DELETE /api/cache/stats and /api/cache/album/{path}: thumbnail cache usage, and clearing it. */
export function cacheStatsRoutes(config: Config): Router {
  const router = Router();

  router.get('/api/cache/stats', async (_req, res) => {
    res.json(await cacheStats(config.cacheDir));
  });

  router.delete('/api/cache/stats', async (_req, res) => {
    const removed = await clearCache(config.cacheDir);
    res.json({ ...(await cacheStats(config.cacheDir)), removed });
  });

  // Any valid path, album or not: the thumbnails of a deleted album can still be cleared.
  router.get('/api/cache/album/*albumPath', async (req, res) => {
    const albumPath = albumPathParam(req);
    res.json({ path: albumPath, ...(await albumCacheStats(config.cacheDir, albumPath)) });
  });

  router.delete('/api/cache/album/*albumPath', async (req, res) => {
    const albumPath = albumPathParam(req);
    const removed = await clearAlbumCache(config.cacheDir, albumPath);
    res.json({ path: albumPath, ...(await albumCacheStats(config.cacheDir, albumPath)), removed });
  });

  return router;
}
