import { Router } from 'express';
import { readProgress } from '../../media/preparation-progress.js';
import type { AdminContext } from '../admin-context.js';

/**
 * GET /api/preparation: how far the public gallery is with preparing albums as their files
 * arrive (server/media/preparer.ts), summed over its processes: `{working, albumsWaiting,
 * current: {path, title, done, total} | null, secondsLeft}`, `secondsLeft` the time the album
 * under way still needs at the rate of the last minute (null when not known yet).
 */
export function preparationRoutes(ctx: AdminContext): Router {
  const router = Router();
  router.get('/api/preparation', async (_req, res) => {
    const all = await readProgress(ctx.config.cacheDir);
    const albumsWaiting = all.reduce((sum, p) => sum + p.albumsWaiting, 0);
    // The album with the most left, of the processes working on one.
    const busy = all.filter((p) => p.current).sort((a, b) => b.current!.total - b.current!.done - (a.current!.total - a.current!.done))[0];
    const current = busy?.current;
    const rate = all.reduce((sum, p) => sum + p.rate, 0);
    res.set('Cache-Control', 'no-store').json({
      working: albumsWaiting > 0,
      albumsWaiting,
      current: current ? { ...current, title: ctx.index.album(current.path)?.meta.title ?? current.path } : null,
      secondsLeft: current && rate > 0 ? Math.round((current.total - current.done) / rate) : null,
    });
  });
  return router;
}
