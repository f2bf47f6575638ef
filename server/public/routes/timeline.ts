/**
 * GET /timeline (the page), GET /api/timeline (JSON) and GET /api/on-this-day (JSON): README
 * "Finding photos", docs/api.md#timeline. Each answers from what this visitor may open only
 * (albumsVisibleTo), so none is ever stored by anyone: the answer is the visitor's.
 */
import { type Request, type Response, Router } from 'express';
import { LIGHTBOX_THUMBNAIL, THUMBNAIL_SIZES } from '../../core/media-catalogue.js';
import { badRequest } from '../../core/errors.js';
import type { Library } from '../../media/library/library.js';
import { onThisDay } from '../pages/on-this-day.js';
import type { SearchResultView } from '../pages/search-results.js';
import { tileSizes } from '../pages/tile-sizes.js';
import {
  pageOfFile,
  parseTimelineStart,
  TIMELINE_PAGE_SIZE,
  type TimelineDeps,
  type TimelinePage,
  timelinePage,
  viewerPage,
  yearsOf,
} from '../pages/timeline.js';
import { type VisitorLanguage, varyByLanguage } from '../pages/visitor-language.js';

export interface TimelineRouterOptions extends TimelineDeps {
  readonly library: Pick<Library, 'newest' | 'months' | 'search' | 'onThisDay'>;
  readonly language: VisitorLanguage;
}

/** The last page of the viewer's list asked for: 1,000,000 files of 120 a page. */
const MAX_VIEWER_PAGE = 10_000;

function privately(res: Response): void {
  varyByLanguage(res);
  res.set('Cache-Control', 'private, no-store');
}

/** The address of the page after `page`: its cursor and the place its first file has. */
const nextUrl = (page: TimelinePage): string | undefined =>
  page.next === undefined ? undefined : `/timeline?cursor=${page.next}&at=${page.at + page.tiles.length}`;

/** The viewer moves through the timeline as through an album (views/assets/album-items.js): its deep link names a file by its path. */
const forViewer = (r: SearchResultView) => ({ ...r, name: r.path });

/** "June 2023", in the page's language: a month header (the page's script writes those it adds the same way). */
function monthLabel(month: string, locale: string): string {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(year, m - 1, 1));
}

export function createTimelineRouter(opts: TimelineRouterOptions): Router {
  const router = Router();

  router.get('/api/timeline', async function timelineApi(req: Request, res: Response) {
    const translator = opts.language(req);
    if (req.query.for === 'viewer') {
      const { page = '1', name } = req.query;
      let wanted: number | undefined;
      if (name !== undefined) {
        if (typeof name !== 'string' || name.length > 1000) throw badRequest('Invalid parameter: name');
        wanted = pageOfFile(req, opts, name) ?? 1;
      } else if (typeof page !== 'string' || !/^[1-9]\d{0,6}$/.test(page) || Number(page) > MAX_VIEWER_PAGE) {
        throw badRequest(`Invalid parameter: page must be an integer from 1 to ${MAX_VIEWER_PAGE}`);
      }
      const view = await viewerPage(req, opts, wanted ?? Number(page), translator);
      privately(res);
      res.json({ page: view.page, items: view.items.map(forViewer) });
      return;
    }
    const start = parseTimelineStart(req);
    const view = await timelinePage(req, opts, start, translator);
    privately(res);
    res.json({ total: view.total, months: view.months, at: view.at, files: view.tiles, ...(view.next ? { next: view.next } : {}) });
  });

  router.get('/timeline', async function timelineRoute(req: Request, res: Response) {
    const start = parseTimelineStart(req);
    const translator = opts.language(req);
    const view = await timelinePage(req, opts, start, translator);
    const locale = translator.language.locale;
    // Tiles in month groups: a header before the first tile of each month on the page.
    const groups: { month: string; label: string; media: unknown[] }[] = [];
    for (const tile of view.tiles) {
      const month = (tile.taken ?? '').slice(0, 7);
      if (groups[groups.length - 1]?.month !== month) groups.push({ month, label: month ? monthLabel(month, locale) : '', media: [] });
      groups[groups.length - 1]!.media.push({ ...forViewer(tile), sizes: tileSizes('grid', tile.width && tile.height ? tile.width / tile.height : undefined) });
    }
    privately(res);
    res.render('timeline', {
      total: view.total,
      groups,
      years: yearsOf(view.months).map((y) => ({ ...y, url: `/timeline?month=${y.month}`, countText: new Intl.NumberFormat(locale).format(y.count) })),
      started: start !== undefined,
      pagination: { total: view.total, perPage: TIMELINE_PAGE_SIZE, next: nextUrl(view) },
      lightboxWidth: THUMBNAIL_SIZES[LIGHTBOX_THUMBNAIL],
    });
  });

  router.get('/api/on-this-day', async function onThisDayApi(req: Request, res: Response) {
    const answer = await onThisDay(req, opts, opts.language(req));
    privately(res);
    res.json(answer);
  });

  return router;
}
