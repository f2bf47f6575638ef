import { type Request, Router } from 'express';
import type { AlbumIndex } from '../../core/albums/album-index.js';
import { badRequest, notFound } from '../../core/errors.js';
import type { DimensionsProvider } from '../../media/dimensions.js';
import { MEDIA_PER_PAGE, mediaViews, pageCount } from '../pages/media-items.js';
import type { MediaStats } from '../pages/media-stats.js';
import type { MediaOrder } from '../pages/album-dates.js';
import { type AlbumResolver, isFromProtected } from '../resolvers.js';
import { type VisitorLanguage, varyByLanguage } from '../pages/visitor-language.js';
import { translatorFor } from '../../http/i18n.js';
import { DEFAULT_LANGUAGE } from '../../core/languages.js';

export interface AlbumMediaApiOptions {
  readonly index: AlbumIndex;
  /** Validates `path`, finds the album and enforces access (400/401/404). */
  readonly resolveAlbum: AlbumResolver;
  readonly stats: MediaStats;
  readonly dimensions?: DimensionsProvider | undefined;
  /** The album's order (`sort`), the same as its page's; natural order without it. */
  readonly order?: MediaOrder | undefined;
  /** The visitor's language: the items' alt texts are written in it (English without it). */
  readonly language?: VisitorLanguage | undefined;
}

/** Which page the query asks for: `page=N` (default 1) or the page holding `name=`. */
type PageQuery = { readonly page: number } | { readonly name: string };

function parsePageQuery(req: Request): PageQuery {
  const { page, name } = req.query;
  if (page !== undefined && name !== undefined) throw badRequest('Invalid parameter: give page or name, not both');
  if (name !== undefined) {
    if (typeof name !== 'string' || name === '' || name.includes('/')) throw badRequest('Invalid parameter: name must be a file name');
    return { name };
  }
  if (page === undefined) return { page: 1 };
  if (typeof page !== 'string' || !/^[1-9]\d{0,6}$/.test(page)) throw badRequest('Invalid parameter: page must be a positive integer');
  return { page: Number(page) };
}

/**
 * GET /api/album-media?path=&page= (or &name=): one page of an album's media as JSON, the
 * same items and order as the album page. The lightbox uses it to move through the whole
 * album, and a deep link (`#photo=name`) to find the page of its photo.
 * Mount with `app.use(router)`: the path is absolute.
 */
export function createAlbumMediaRouter({ index, resolveAlbum, stats, dimensions, order, language }: AlbumMediaApiOptions): Router {
  const router = Router();

  router.get('/api/album-media', async function albumMedia(req, res) {
    // The query's shape is checked before any access or file system work.
    const query = parsePageQuery(req);
    const resolved = await resolveAlbum(req, req.query.path, 'view');
    const album = index.album(resolved.path);
    if (!album) throw notFound('Album not found');
    // What this visitor may read: a symlink into an album it cannot open is not listed.
    const visible = await resolved.readable();
    const readable = order ? await order(album.path, visible) : visible;
    const listed = readable.map((f) => f.item);
    const total = listed.length;
    const pages = pageCount(total);
    let page: number;
    if ('name' in query) {
      const at = listed.findIndex((m) => m.name === query.name);
      if (at < 0) throw notFound('File not found');
      page = Math.floor(at / MEDIA_PER_PAGE) + 1;
    } else {
      page = query.page;
      if (page > pages) throw notFound('No such page');
    }
    const items = await mediaViews(album, readable, page, stats, dimensions, language ? language(req) : translatorFor(DEFAULT_LANGUAGE));
    varyByLanguage(res);
    // Like the album page: a protected album's listing is never stored by anyone.
    res.set('Cache-Control', resolved.protected || readable.some(isFromProtected) ? 'private, no-store' : 'no-cache');
    res.json({ path: album.path, title: album.meta.title, total, page, pages, perPage: MEDIA_PER_PAGE, items });
  });

  return router;
}
