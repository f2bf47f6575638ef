import fs from 'node:fs';
import path from 'node:path';
import { type Request, type Response, Router } from 'express';
import { badRequest, notFound } from '../../core/errors.js';
import {
  isImage,
  isThumbnailSize,
  type MediaKind,
  mediaKind,
  siteAssetCacheDir,
  THUMBNAIL_SIZE_NAMES,
  type ThumbnailSize,
} from '../../core/media-catalogue.js';
import { hasHiddenSegment, parseRelativePath, realRootOf } from '../../core/paths.js';
import { type Rotation, rotationIn } from '../../core/albums/rotations.js';
import { closeQuietly, createThumbnailCache, type OpenThumbnail, type ThumbnailSource } from '../../media/thumbnails.js';
import type { MediaPool } from '../../media/pool.js';
import type { AdminContext } from '../admin-context.js';
import { resolveExistingInside } from '../existing-file.js';
import { ASSET_KINDS, type AssetKind, assetsDir } from './site-assets.js';

/** What the album page's tiles ask for: 400 px, plenty for the admin's 136 px squares on a 2× screen. */
const DEFAULT_SIZE: ThumbnailSize = 'small';

/**
 * GET /previews/albums/{album path}/{file}?size= and /previews/site/{hero|cards|landing}/{file}?size=:
 * the admin's previews, never the originals (a 24 MP photo is 8 MB): the thumbnail of a photo,
 * the poster frame of a video, HEIC included. Album media share the public server's cache files
 * (CACHE_DIR/thumbnails: made by whichever server asks first, fresh for both); site images get
 * their own (CACHE_DIR/site-assets), since the public site serves them as they are.
 */
export function thumbnailPreviewRoutes(ctx: AdminContext): Router {
  const router = Router();
  // The pool is made on the first preview, not with the app.
  const pool: Pick<MediaPool, 'submit'> = { submit: (name, task, options) => ctx.mediaPool().submit(name, task, options) };
  const albumThumbnails = createThumbnailCache({ cacheDir: ctx.config.cacheDir, pool });
  const assetThumbnails = createThumbnailCache({ cacheDir: siteAssetCacheDir(ctx.config.cacheDir), pool });

  router.get('/previews/site/:kind/*filePath', async (req, res) => {
    const kind = req.params.kind;
    if (!(ASSET_KINDS as readonly string[]).includes(kind)) throw notFound('File not found');
    const name = joined(req.params.filePath);
    if (name.includes('/') || hasHiddenSegment(name) || !isImage(name)) throw notFound('File not found');
    const size = sizeOf(req);
    const absPath = await resolveExistingInside(assetsDir(ctx.config.contentDir, kind as AssetKind), name);
    send(req, res, await assetThumbnails.open({ relPath: `${kind}/${name}`, absPath, kind: 'image' }, size, { signal: aborted(res) }));
  });

  router.get('/previews/albums/*filePath', async (req, res) => {
    const rel = joined(req.params.filePath);
    const kind = mediaKind(rel);
    if (hasHiddenSegment(rel) || kind === undefined) throw notFound('File not found');
    const size = sizeOf(req);
    const absPath = await resolveExistingInside(ctx.config.albumsDir, rel);
    if (!(await fs.promises.stat(absPath)).isFile()) throw notFound('File not found');
    const source: ThumbnailSource = { relPath: rel, absPath, kind, rotation: await rotationAt(absPath, kind) };
    send(req, res, await albumThumbnails.open(source, size, { signal: aborted(res) }));
  });

  /**
   * The owner's turn of a photo (docs/api.md#rotations), as the album really holding the file
   * records it (a link shows its target as the public site does): from the admin's index,
   * which is rescanned after each action and watches the tree.
   */
  async function rotationAt(absPath: string, kind: MediaKind): Promise<Rotation> {
    const rel = path
      .relative(await realRootOf(ctx.config.albumsDir), absPath)
      .split(path.sep)
      .join('/');
    const slash = rel.lastIndexOf('/');
    return rotationIn(ctx.index.album(slash < 0 ? '' : rel.slice(0, slash))?.meta, rel.slice(slash + 1), kind);
  }

  return router;
}

function joined(raw: unknown): string {
  return parseRelativePath(Array.isArray(raw) ? raw.join('/') : raw, 'path');
}

function sizeOf(req: Request): ThumbnailSize {
  const raw = req.query.size;
  if (raw === undefined || raw === '') return DEFAULT_SIZE;
  if (!isThumbnailSize(raw)) throw badRequest(`Invalid parameter: size must be one of ${THUMBNAIL_SIZE_NAMES.join(', ')}`);
  return raw;
}

/** The request gone before its preview was made (a page of previews left): its task leaves the queue. */
function aborted(res: Response): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * A versioned URL (`&v=`, the original's modification time, which the admin's listings give)
 * is kept by the browser; any other is revalidated with the ETag, which changes with the original.
 */
function send(req: Request, res: Response, file: OpenThumbnail): void {
  res.set({
    'Content-Type': 'image/jpeg',
    'Cache-Control': req.query.v === undefined ? 'private, no-cache' : 'private, max-age=31536000, immutable',
    ETag: `W/"${file.tag}-${file.size.toString(36)}"`,
  });
  if (req.fresh) {
    if (file.fd !== undefined) closeQuietly(file.fd);
    res.status(304).end();
    return;
  }
  if (file.body !== undefined) {
    res.end(file.body);
    return;
  }
  const stream = fs.createReadStream(file.path, { fd: file.fd, start: 0, end: file.size - 1 });
  res.on('close', () => stream.destroy());
  stream.on('error', (err) => res.destroy(err));
  stream.pipe(res);
}
