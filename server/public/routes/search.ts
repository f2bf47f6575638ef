/**
 * GET /search?q=&page= (the page) and GET /api/search?q=&page= (JSON): README "Finding
 * photos", docs/api.md#search. Both answer from what this visitor may open only, and are
 * never stored by anyone (the answer is the visitor's).
 */
import { type Request, type Response, Router } from 'express';
import { LIGHTBOX_THUMBNAIL, THUMBNAIL_SIZES } from '../../core/media-catalogue.js';
import { missingParameter } from '../../core/errors.js';
import { albumPageUrl } from '../../core/urls.js';
import { type VisitorLanguage, varyByLanguage } from '../pages/visitor-language.js';
import { albumCards, parseSearchQuery, type SearchDeps, type SearchResultView, searchView } from '../pages/search-results.js';
import { tileSizes } from '../pages/tile-sizes.js';

export interface SearchRouterOptions extends SearchDeps {
  readonly language: VisitorLanguage;
}

/** The address of a page of results. */
export const searchUrl = (q: string, page = 1): string => `/search?q=${encodeURIComponent(q)}${page > 1 ? `&page=${page}` : ''}`;

/** The photo frame of a list of the API (docs/api.md#photo-frame), closing back to `back`. */
export const frameOf = (source: string, back: string): string => `/frame?source=${encodeURIComponent(source)}&back=${encodeURIComponent(back)}`;

function privately(res: Response): void {
  varyByLanguage(res);
  res.set('Cache-Control', 'private, no-store');
}

/** The viewer moves through results as through an album (views/assets/album-items.js): its deep link names a file by its path. */
const forViewer = (r: SearchResultView) => ({ ...r, name: r.path });

export function createSearchRouter(opts: SearchRouterOptions): Router {
  const router = Router();

  router.get('/api/search', async function searchApi(req: Request, res: Response) {
    if (req.query.q === undefined) throw missingParameter('q');
    const query = parseSearchQuery(req);
    const view = await searchView(req, opts, query, opts.language(req));
    privately(res);
    if (req.query.for === 'viewer') {
      res.json({ page: view.page, items: view.results.map(forViewer) });
      return;
    }
    res.json({
      query: view.query,
      total: view.total,
      page: view.page,
      pages: view.pages,
      perPage: view.perPage,
      results: view.results,
      albums: view.albums.map((album) => ({ path: album.path, title: album.meta.title, url: albumPageUrl(album.path) })),
      albumsTotal: view.albumsTotal,
    });
  });

  router.get('/search', async function searchPage(req: Request, res: Response) {
    const query = parseSearchQuery(req);
    const translator = opts.language(req);
    const view = await searchView(req, opts, query, translator);
    const cards = await albumCards(opts, view.albums, translator);
    privately(res);
    res.render('search', {
      query: view.query,
      total: view.total,
      cards,
      albumsTotal: view.albumsTotal,
      media: view.results.map((r) => ({ ...forViewer(r), sizes: tileSizes('grid', r.width && r.height ? r.width / r.height : undefined) })),
      pagination: {
        total: view.total,
        perPage: view.perPage,
        page: view.page,
        pages: view.pages,
        prev: view.page > 1 ? searchUrl(view.query, view.page - 1) : undefined,
        next: view.page < view.pages ? searchUrl(view.query, view.page + 1) : undefined,
      },
      viewerApi: `/api/search?q=${encodeURIComponent(view.query)}&for=viewer`,
      // The results as a photo frame, which reads /api/search page after page, and the page's own address to share.
      frameUrl: frameOf(`/api/search?q=${encodeURIComponent(view.query)}`, searchUrl(view.query)),
      shareUrl: searchUrl(view.query),
      lightboxWidth: THUMBNAIL_SIZES[LIGHTBOX_THUMBNAIL],
      searchQuery: view.query,
    });
  });

  return router;
}
