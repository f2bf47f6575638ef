import { type Request, Router } from 'express';
import { albumsVisibleTo } from '../../core/access/visible-albums.js';
import type { AlbumIndex } from '../../core/albums/album-index.js';
import type { Album, TreeNode } from '../../core/albums/album-tree.js';
import { badRequest, notFound, unauthorized } from '../../core/errors.js';
import { hasHiddenSegment, parseRelativePath } from '../../core/paths.js';
import { DEFAULT_LANGUAGE } from '../../core/languages.js';
import type { DimensionsProvider } from '../../media/dimensions.js';
import { translatorFor } from '../../http/i18n.js';
import { accessOf, type ReadableMedia } from '../access/gallery-access.js';
import { visitorOf } from '../access/visitor.js';
import { outermostLock } from '../../core/access/locked-path.js';
import type { MediaOrder } from '../pages/album-dates.js';
import { pageTitleOf } from '../pages/folder-listing.js';
import { MEDIA_PER_PAGE, type MediaView, mediaViews, pageCount } from '../pages/media-items.js';
import type { MediaStats } from '../pages/media-stats.js';
import { type VisitorLanguage, varyByLanguage } from '../pages/visitor-language.js';
import { isFromProtected, type ReadableFile } from '../resolvers.js';

export interface FrameMediaApiOptions {
  readonly index: AlbumIndex;
  readonly readableMedia: ReadableMedia;
  readonly stats: MediaStats;
  readonly dimensions?: DimensionsProvider | undefined;
  /** Each album's order, the same as its page's; natural order without it. */
  readonly order?: MediaOrder | undefined;
  readonly language?: VisitorLanguage | undefined;
}

/** The API a folder's frame reads its photos from (docs/api.md#photo-frame). */
export const frameMediaApiUrl = (nodePath: string): string => `/api/frame-media?path=${encodeURIComponent(nodePath)}`;

/** The albums at or below `node` that a view across albums may show this visitor (the one rule, visible-albums.ts), in tree order. */
function albumsUnder(index: AlbumIndex, node: TreeNode, req: Request): readonly Album[] {
  const all = albumsVisibleTo(index.root, visitorOf(req));
  if (node.path === '') return all;
  const prefix = `${node.path}/`;
  return all.filter((album) => album.path === node.path || album.path.startsWith(prefix));
}

function pageOf(raw: unknown): number {
  if (raw === undefined) return 1;
  if (typeof raw !== 'string' || !/^[1-9]\d{0,6}$/.test(raw)) throw badRequest('Invalid parameter: page must be a positive integer');
  return Number(raw);
}

/**
 * GET /api/frame-media?path=&page=: the photos and videos of every album at or below a folder
 * (or a collection) that this visitor may open, album after album in tree order, each in its
 * page's order, a page of MEDIA_PER_PAGE at a time, shaped as /api/album-media answers, so the
 * frame reads both alike. `path` empty is the whole gallery. Locked albums and hidden ones
 * without a key of their own are left out without a trace: nothing of them is looked at.
 * Mount with `app.use(router)`: the path is absolute.
 */
export function createFrameMediaRouter({ index, readableMedia, stats, dimensions, order, language }: FrameMediaApiOptions): Router {
  const router = Router();
  router.get('/api/frame-media', async function frameMedia(req, res) {
    const page = pageOf(req.query.page);
    const raw = req.query.path ?? '';
    const relPath = raw === '' ? '' : parseRelativePath(raw);
    const node = relPath === '' ? index.root : hasHiddenSegment(relPath) ? undefined : index.node(relPath);
    // As the album-media API answers: below a locked album, whether a path exists is not told.
    if (!node) throw outermostLock(index, relPath, visitorOf(req)) ? unauthorized('This album is protected: unlock it first') : notFound('Album not found');
    if (!accessOf(req, node).granted) throw unauthorized('This album is protected: unlock it first');

    const albums = albumsUnder(index, node, req);
    const lists = await Promise.all(
      albums.map(async (album) => {
        const visible = await readableMedia(req, album);
        return order ? await order(album.path, visible) : visible;
      }),
    );
    const total = lists.reduce((sum, list) => sum + list.length, 0);
    const pages = pageCount(total);
    if (page > pages) throw notFound('No such page');
    const translator = language ? language(req) : translatorFor(DEFAULT_LANGUAGE);
    const items = await pageViews(albums, lists, page, async (album, slice, first) => {
      const views = await mediaViews(album, slice, 1, stats, dimensions, translator);
      return views.map((view, i) => ({ ...view, index: first + i }));
    });
    varyByLanguage(res);
    res.set('Cache-Control', lists.some((list) => list.some(isFromProtected)) ? 'private, no-store' : 'no-cache');
    res.json({ path: node.path, title: pageTitleOf(node, translator.t), total, page, pages, perPage: MEDIA_PER_PAGE, items });
  });
  return router;
}

type SliceViews = (album: Album, slice: readonly ReadableFile[], firstIndex: number) => Promise<MediaView[]>;

/** The views of page `page` of the albums' lists laid end to end: the slice of each album that falls on it. */
async function pageViews(albums: readonly Album[], lists: readonly (readonly ReadableFile[])[], page: number, views: SliceViews): Promise<MediaView[]> {
  const start = (page - 1) * MEDIA_PER_PAGE;
  const end = start + MEDIA_PER_PAGE;
  const parts: Promise<MediaView[]>[] = [];
  let offset = 0;
  albums.forEach((album, i) => {
    const list = lists[i] ?? [];
    const from = Math.max(start, offset);
    const to = Math.min(end, offset + list.length);
    if (from < to) parts.push(views(album, list.slice(from - offset, to - offset), from));
    offset += list.length;
  });
  return (await Promise.all(parts)).flat();
}
