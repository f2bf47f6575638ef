import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { accessOf, type ReadableMedia } from '../access/gallery-access.js';
import { type AccessResult, allowsDownloads } from '../../core/access/resolve-access.js';
import type { LinkVisits } from '../access/link-visits.js';
import { isFromProtected } from '../resolvers.js';
import { MAX_FAILED_ATTEMPTS, type PasswordLimiter } from '../access/password-limiter.js';
import { ACCESS_COOKIE, grantTokens } from '../access/tokens.js';
import type { AlbumIndex } from '../../core/albums/album-index.js';
import { type Album, breadcrumbsOf, isAlbum, isProtected, titleOf, type TreeNode } from '../../core/albums/album-tree.js';
import { notFound } from '../../core/errors.js';
import { LIGHTBOX_THUMBNAIL, THUMBNAIL_SIZES } from '../../core/media-catalogue.js';
import { decodeUrlPath, hasHiddenSegment } from '../../core/paths.js';
import { cardFor, listedChildren } from './cards.js';
import { tileSizes } from './tile-sizes.js';
import type { DimensionsProvider } from './dimensions.js';
import { albumMediaApiUrl, MEDIA_PER_PAGE, mediaViews, pageCount, pageItems } from './media-items.js';
import { type CachedPage, PageCache, pageOf } from './page-cache.js';
import type { MediaStats } from './media-stats.js';
import { albumPageUrl, downloadUrl } from '../../core/urls.js';

export type { DimensionsProvider, MediaDimensions } from './dimensions.js';
export { MEDIA_PER_PAGE } from './media-items.js';

const WRONG_PASSWORD = 'Wrong password. Please try again.';
const LOCKOUT_MINUTES = 15;

/** `?page=N`: absent is page 1; anything but a positive integer within range is a 404. */
function pageNumber(req: Request, pages: number): number {
  const raw = req.query.page;
  if (raw === undefined) return 1;
  if (typeof raw !== 'string' || !/^[1-9]\d{0,6}$/.test(raw) || Number(raw) > pages) throw notFound('No such page');
  return Number(raw);
}

export interface AlbumPageDeps {
  readonly index: AlbumIndex;
  readonly stats: MediaStats;
  /** The album's media the visitor may read: only those are listed, counted and paged. */
  readonly readableMedia: ReadableMedia;
  readonly production: boolean;
  readonly dimensions?: DimensionsProvider | undefined;
  /** When given, the rate-limit message tells how long the visitor still has to wait. */
  readonly limiter?: Pick<PasswordLimiter, 'store'> | undefined;
  /** Rendered pages of public albums (tests pass their own to look into it). */
  readonly pageCache?: PageCache | undefined;
  /** Counts the views of pages a share link opened (docs/api.md#share-links). */
  readonly linkVisits?: LinkVisits | undefined;
}

export interface AlbumPages {
  /** GET /photos/{path}. */
  readonly handler: RequestHandler;
  /**
   * The page of `node` for this request's visitor, at whatever address was asked: the share
   * link's `/s/<id>` renders its album here (server/public/routes/share-link-page.ts).
   */
  readonly render: (req: Request, res: Response, node: TreeNode) => Promise<void>;
}

/** The view rendered to a string, so it can be kept. */
function renderView(res: Response, view: string, locals: Record<string, unknown>): Promise<string> {
  return new Promise((resolve, reject) => res.render(view, locals, (err, html) => (err ? reject(err) : resolve(html))));
}

/** A page with its ETag: 304 when the browser has it already. */
function sendPage(req: Request, res: Response, page: CachedPage, cacheControl: 'no-cache' | 'no-store'): void {
  res.set({ 'Cache-Control': cacheControl, ETag: page.etag });
  if (req.fresh) return void res.status(304).end();
  res.type('html').send(page.html);
}

/** GET /photos/{path}: rendered per request, because what it shows depends on the visitor. */
export function albumPageHandler(deps: AlbumPageDeps): RequestHandler {
  return createAlbumPages(deps).handler;
}

export function createAlbumPages(deps: AlbumPageDeps): AlbumPages {
  const { index, stats } = deps;
  const pageCache = deps.pageCache ?? new PageCache();

  async function renderFolder(req: Request, res: Response, node: TreeNode): Promise<void> {
    const cards = await Promise.all(listedChildren(node).map((c) => cardFor(c, !accessOf(req, c).granted, index, stats)));
    res.set('Cache-Control', isProtected(node) ? 'no-store' : 'no-cache');
    res.render('folder', { title: titleOf(node), crumbs: crumbs(node), cards });
  }

  /** Minutes left in this client's lockout, or undefined when unknown (no limiter, no lockout). */
  async function lockoutMinutes(req: Request): Promise<number | undefined> {
    const info = await deps.limiter?.store.get(ipKeyGenerator(req.ip ?? ''));
    if (!info || info.totalHits < MAX_FAILED_ATTEMPTS || !info.resetTime) return undefined;
    const ms = info.resetTime.getTime() - Date.now();
    return Math.min(LOCKOUT_MINUTES, Math.max(1, Math.ceil(ms / 60_000)));
  }

  /**
   * The password form of `album`, the album whose password opens the page; `returnUrl`
   * brings the visitor back to the page asked for (a folder below the album, say).
   */
  async function renderLocked(req: Request, res: Response, album: Album, returnUrl = albumPageUrl(album.path)): Promise<void> {
    res.set('Cache-Control', 'no-store');
    // SameSite=strict keeps the cookie off a navigation that starts on another site: reload
    // once from here (same-site), and a visitor who unlocked earlier sees the album.
    if (req.get('sec-fetch-site') === 'cross-site' && req.cookies?.[ACCESS_COOKIE] === undefined) {
      res.render('locked-reload', { pageTitle: album.meta.title, refresh: true });
      return;
    }
    let error: string | undefined;
    if (req.query.error === 'wrong-password') error = WRONG_PASSWORD;
    if (req.query.error === 'rate-limited') {
      const minutes = (await lockoutMinutes(req)) ?? LOCKOUT_MINUTES;
      error = `Too many wrong passwords. Please retry in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
    }
    res.render('locked', { title: album.meta.title, albumPath: album.path, returnUrl, error });
  }

  async function renderAlbum(req: Request, res: Response, album: Album, access: AccessResult): Promise<void> {
    // False through a "no downloads" share link: no ZIP button, tiles link the large thumbnail.
    const downloads = allowsDownloads(access);
    const readable = await deps.readableMedia(req, album);
    const listed = readable.map((f) => f.item);
    const total = listed.length;
    const pages = pageCount(total);
    const page = pageNumber(req, pages);
    // The same for every visitor who may see it, but for the child albums each has unlocked
    // (their cards show a cover or a padlock): that is part of the key.
    // A share link only ever opens protected albums, whose pages are never shared: nothing
    // a link changes on a page can reach the cache (docs/api.md#share-links).
    const shared = downloads && !(isProtected(album) || readable.some(isFromProtected));
    const version = index.version;
    const key = `${album.path}\0${page}\0${listedChildren(album)
      .map((c) => (accessOf(req, c).granted ? '1' : '0'))
      .join('')}`;
    if (shared) {
      const hit = pageCache.get(version, key);
      if (hit) return sendPage(req, res, hit, 'no-cache');
    }
    const [media, children] = await Promise.all([
      mediaViews(album, readable, page, stats, deps.dimensions),
      Promise.all(listedChildren(album).map((c) => cardFor(c, !accessOf(req, c).granted, index, stats))),
    ]);
    const pageUrl = (n: number) => `${albumPageUrl(album.path)}${n === 1 ? '' : `?page=${n}`}`;
    const counts = { photos: listed.filter((m) => m.kind === 'image').length, videos: listed.filter((m) => m.kind === 'video').length };
    const html = await renderView(res, 'album', {
      title: album.meta.title,
      albumPath: album.path,
      crumbs: crumbs(album),
      style: album.meta.style,
      counts,
      summary: summaryOf(counts, children.length),
      children,
      media: media.map((m) => ({ ...m, sizes: tileSizes(album.meta.style, m.width && m.height ? m.width / m.height : undefined) })),
      downloadUrl: downloads ? downloadUrl(album.path) : undefined,
      mediaApiUrl: albumMediaApiUrl(album.path),
      // The lightbox offers a photo's original when it is wider than the thumbnail it shows.
      lightboxWidth: THUMBNAIL_SIZES[LIGHTBOX_THUMBNAIL],
      pagination: {
        page,
        pages,
        total,
        perPage: MEDIA_PER_PAGE,
        prev: page > 1 ? pageUrl(page - 1) : undefined,
        next: page < pages ? pageUrl(page + 1) : undefined,
      },
    });
    // Kept only once final: a cold album's first render may lack some sizes (dimensions.ts).
    const onPage = pageItems(readable, page).flatMap((f) => (f.motion ? [f.item, f.motion.item] : [f.item]));
    const final = deps.dimensions?.settled?.(onPage) ?? true;
    const sent = shared && final ? pageCache.set(version, key, html) : pageOf(html);
    // A link into a protected album shown to a visitor who unlocked it makes the page private too.
    sendPage(req, res, sent, shared ? 'no-cache' : 'no-store');
  }

  async function render(req: Request, res: Response, node: TreeNode): Promise<void> {
    const access = accessOf(req, node);
    // A folder below a protected album is part of that album: the names of the albums in it
    // are shown only to a visitor who may open it.
    if (!access.granted) return isAlbum(node) ? renderLocked(req, res, node) : renderLocked(req, res, access.blocking, albumPageUrl(node.path));
    // A share link's token joins the cookie; the page script then drops it from the address bar.
    if (access.viaUrlToken) grantTokens(req, res, deps.production, [access.viaUrlToken]);
    return isAlbum(node) ? renderAlbum(req, res, node, access) : renderFolder(req, res, node);
  }

  async function albumPage(req: Request, res: Response): Promise<void> {
    const tail = req.path.replace(/^\/photos\/?/, '');
    const relPath = decodeUrlPath(tail);
    const node = hasHiddenSegment(relPath) ? undefined : index.node(relPath);
    if (!node || node === index.root) throw notFound('No such album');
    const access = accessOf(req, node);
    // A page a share link opens is a view through that link (its /s/ address counts its own).
    if (access.granted && access.link) deps.linkVisits?.record(req, access.link.id);
    return render(req, res, node);
  }

  return { handler: albumPage, render };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** '12 photos · 1 video · 2 albums' under the title. */
function summaryOf(counts: { photos: number; videos: number }, albums: number): string {
  const parts = [];
  if (counts.photos) parts.push(plural(counts.photos, 'photo'));
  if (counts.videos) parts.push(plural(counts.videos, 'video'));
  if (albums) parts.push(plural(albums, 'album'));
  return parts.join(' · ') || 'Empty album';
}

function crumbs(node: TreeNode) {
  return breadcrumbsOf(node).map((c) => ({ ...c, url: albumPageUrl(c.path) }));
}
