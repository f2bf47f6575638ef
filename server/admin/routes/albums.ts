import { Router } from 'express';
import { badRequest, missingParameter } from '../../core/errors.js';
import type { AdminContext } from '../admin-context.js';
import type { StoredAlbum } from '../album-files.js';
import { albumPathParam, parseNewAlbumPath } from '../album-paths.js';
import { removeAlbumTreeCache } from '../cache-usage.js';
import { type AlbumDetail, detailOf, summaryOfIndexed } from '../album-views.js';
import { listMediaFiles } from '../media-listing.js';
import { jsonObjectBody, queryParam } from '../request-body.js';

/** Actions of `POST /api/albums/{path}?action=…`, for changes that are not a metadata patch. */
const ACTIONS = ['rotate-token'] as const;

/** GET/POST /api/albums and GET/PUT/POST/DELETE /api/albums/{path} (docs/api.md#admin-server). */
export function albumRoutes(ctx: AdminContext): Router {
  const router = Router();
  const { albums } = ctx;

  async function detail(album: StoredAlbum): Promise<AlbumDetail> {
    const [media, ancestry] = await Promise.all([listMediaFiles(album.dir), albums.ancestry(album)]);
    return detailOf(album.path, album.meta, media, ancestry);
  }

  router.get('/api/albums', (_req, res) => {
    res.json([...ctx.index.albums()].map(summaryOfIndexed));
  });

  router.post('/api/albums', async (req, res) => {
    const { path: rawPath, ...fields } = jsonObjectBody(req);
    const albumPath = parseNewAlbumPath(rawPath);
    const album = await albums.create(albumPath, fields);
    await ctx.refreshIndex();
    res
      .status(201)
      .location(`/api/albums/${albumPath.split('/').map(encodeURIComponent).join('/')}`)
      .json(await detail(album));
  });

  router.get('/api/albums/*albumPath', async (req, res) => {
    res.json(await detail(await albums.read(albumPathParam(req))));
  });

  router.put('/api/albums/*albumPath', async (req, res) => {
    const albumPath = albumPathParam(req);
    const album = await albums.update(albumPath, jsonObjectBody(req));
    await ctx.refreshIndex();
    res.json(await detail(album));
  });

  router.post('/api/albums/*albumPath', async (req, res) => {
    const albumPath = albumPathParam(req);
    const action = queryParam(req, 'action');
    if (action === undefined) throw missingParameter('action');
    if (action !== 'rotate-token') throw badRequest(`Invalid parameter: action must be one of ${ACTIONS.join(', ')}`);
    const { album, revokedLinks } = await albums.rotateToken(albumPath);
    await ctx.refreshIndex();
    // How many links per person the rotation closed: the admin says so.
    res.json({ ...(await detail(album)), revokedLinks });
  });

  router.delete('/api/albums/*albumPath', async (req, res) => {
    const albumPath = albumPathParam(req);
    const trashedTo = await albums.moveToTrash(albumPath);
    try {
      await removeAlbumTreeCache(ctx.config.cacheDir, albumPath);
    } catch (err) {
      // The album is gone already; a leftover thumbnail no longer matches any new photo there.
      ctx.log.error({ err }, `could not clear the cache of the deleted album ${albumPath}`);
    }
    await ctx.refreshIndex();
    res.json({ path: albumPath, trashedTo });
  });

  return router;
}
