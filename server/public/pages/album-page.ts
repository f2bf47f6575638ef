import type { Request, RequestHandler, Response } from 'express';
import { accessOf, type ReadableMedia } from '../access/gallery-access.js';
import { outermostLock } from '../../core/access/locked-path.js';
import { visitorOf } from '../access/visitor.js';
import { type AccessResult, allowsDownloads } from '../../core/access/resolve-access.js';
import type { LinkVisits } from '../access/link-visits.js';
import { isFromProtected, type ReadableFile } from '../resolvers.js';
import type { PasswordLimiter } from '../access/password-limiter.js';
import { ACCESS_COOKIE, grantTokens } from '../access/tokens.js';
import type { AlbumIndex } from '../../core/albums/album-index.js';
import { type Album, breadcrumbsOf, isAlbum, isProtected, type TreeNode } from '../../core/albums/album-tree.js';
import { notFound } from '../../core/errors.js';
import { LIGHTBOX_THUMBNAIL, THUMBNAIL_SIZES } from '../../core/media-catalogue.js';
import type { CoverFocusLookup } from '../../media/cover-focus.js';
import { decodeUrlPath, hasHiddenSegment } from '../../core/paths.js';
import { cardFor, coverPhoto, listedChildren } from './cards.js';
import type { CardDates } from './card-dates.js';
import { type LinkPreview, privatePreview, publicPreview } from './link-preview.js';
import type { SiteIdentity } from './site-identity.js';
import { tileSizes } from './tile-sizes.js';
import type { DimensionsProvider } from '../../media/dimensions.js';
import { albumMediaApiUrl, MEDIA_PER_PAGE, mediaViews, pageCount, pageItems } from './media-items.js';
import { type MadePage, PageCache, pageKey, sendCachedPage, sendPageOnce } from './page-cache.js';
import type { MediaStats } from './media-stats.js';
import type { AlbumDates } from './album-dates.js';
import { lockoutNotice } from './lockout-notice.js';
import { albumPageUrl, thumbnailUrl } from '../../core/urls.js';
import { downloadOffer } from './download-offer.js';
import { allAlbumsUrl, folderListing, pageTitleOf } from './folder-listing.js';
import { dateRangeText } from './taken-text.js';
import { pageFeed } from './feed-links.js';
import { DEFAULT_LANGUAGE } from '../../core/languages.js';
import { type Translate, type Translator, translatorFor } from '../../http/i18n.js';
import { languageLocals, type VisitorLanguage } from './visitor-language.js';

export type { DimensionsProvider, MediaDimensions } from '../../media/dimensions.js';
export { MEDIA_PER_PAGE } from './media-items.js';

/**
 * How long a page that is not final yet (a cold album's tiles without sizes, its dates still
 * being read) is sent from memory before it is made again: long enough that a crowd opening a
 * new album costs a render or two a second, short enough that sizes read meanwhile show soon.
 */
const UNFINISHED_PAGE_MS = 2000;

/**
 * Whether a listing holds files of a protected album (symlinks into one): such a page is never
 * shared between visitors. Remembered per listing: the resolvers hand out one per album of
 * plain files, and a page of 20,000 photos should not look at each on every request.
 */
const protectedLinks = new WeakMap<readonly ReadableFile[], boolean>();
function hasProtectedLinks(readable: readonly ReadableFile[]): boolean {
  let found = protectedLinks.get(readable);
  if (found === undefined) {
    found = readable.some(isFromProtected);
    protectedLinks.set(readable, found);
  }
  return found;
}

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
  /** When given, the password form warns of the last attempts, counts down the visitor's lockout and is disabled until its end. */
  readonly limiter?: Pick<PasswordLimiter, 'standing'> | undefined;
  /** Rendered pages of public albums (tests pass their own to look into it). */
  readonly pageCache?: PageCache | undefined;
  /** The album's order (`sort`) and the span of its dates in the header; without it, natural order and no span. */
  readonly dates?: Pick<AlbumDates, 'order' | 'span'> | undefined;
  /** Where album cards crop their covers (server/media/cover-focus.ts); centred without it. */
  readonly coverFocus?: CoverFocusLookup | undefined;
  /** The site's name and address, for link previews; none without it. */
  readonly site?: SiteIdentity | undefined;
  /** Counts the views of pages a share link opened (docs/api.md#share-links). */
  readonly linkVisits?: LinkVisits | undefined;
  /** How long a page that is not final yet is kept (UNFINISHED_PAGE_MS; tests pass less). */
  readonly unfinishedPageMs?: number | undefined;
  /** The visitor's language (visitor-language.ts); English without it. */
  readonly language?: VisitorLanguage | undefined;
  /** The dates under child albums' card titles (card-dates.ts); none without it. */
  readonly cardDates?: CardDates | undefined;
}

export interface AlbumPages {
  /** GET /photos/{path}. */
  readonly handler: RequestHandler;
  /**
   * The page of `node` for this request's visitor, at whatever address was asked: the share
   * link's `/s/<id>` renders its album here (server/public/routes/share-link-page.ts).
   */
  readonly render: (req: Request, res: Response, node: TreeNode) => Promise<void>;
  /**
   * The password form answering for `relPath` when something on it is locked to this visitor
   * (the outermost lock, as the album page answers), bringing the visitor back to `returnUrl`
   * once open: false when nothing locks it. For pages of an album at another address (its frame).
   */
  readonly renderLockedAt: (req: Request, res: Response, relPath: string, returnUrl: string) => Promise<boolean>;
}

/** The view rendered to a string in the visitor's language, so it can be kept. */
function renderView(res: Response, view: string, translator: Translator, locals: Record<string, unknown>): Promise<string> {
  const all = { ...languageLocals(translator), ...locals };
  return new Promise((resolve, reject) => res.render(view, all, (err, html) => (err ? reject(err) : resolve(html))));
}

/**
 * Where the language switcher brings the visitor back to (views/partials/language.ejs): the
 * page's own address (`base`, `/photos/…` or `/photos?all`) and its page number. Never the
 * address asked for: a kept page is sent to everyone under its key, and the `/s/<id>` of a
 * share link, or a `?token=`, must not travel to another visitor with it.
 */
function pagePathOf(base: string, page: number): string {
  return page === 1 ? base : `${base}${base.includes('?') ? '&' : '?'}page=${page}`;
}

/** GET /photos/{path}: rendered per request, because what it shows depends on the visitor. */
export function albumPageHandler(deps: AlbumPageDeps): RequestHandler {
  return createAlbumPages(deps).handler;
}

export function createAlbumPages(deps: AlbumPageDeps): AlbumPages {
  const { index, stats } = deps;
  const pageCache = deps.pageCache ?? new PageCache();
  const languageOf: VisitorLanguage = deps.language ?? (() => translatorFor(DEFAULT_LANGUAGE));
  const childCards = (req: Request, node: TreeNode, { t, language }: Translator, children: readonly TreeNode[] = listedChildren(node)) => {
    const datesOf = deps.cardDates?.(language.locale);
    return Promise.all(children.map((c) => cardFor(c, !accessOf(req, c).granted, index, stats, t, deps.coverFocus, 'grid', datesOf)));
  };

  /**
   * What a messenger shows for a link to the page (docs/api.md#link-previews): for anything
   * inside a protected album, whoever asks, nothing of it (share links open such albums to
   * whoever holds them, previews included).
   */
  async function previewOf(node: TreeNode, description: string, t: Translate): Promise<LinkPreview | undefined> {
    if (!deps.site) return undefined;
    const site = deps.site.view;
    if (isProtected(node)) return privatePreview(site, t);
    const photo = await coverPhoto(node, index, stats);
    const image = photo && thumbnailUrl(photo.mediaPath, 'medium', photo.stat);
    return publicPreview(site, { title: pageTitleOf(node, t), description, path: albumPageUrl(node.path), image });
  }

  /** Which of the node's child albums this visitor has unlocked: their cards differ (a cover or a padlock). */
  const unlockedChildren = (req: Request, node: TreeNode, children: readonly TreeNode[] = listedChildren(node)) =>
    children.map((c) => (accessOf(req, c).granted ? '1' : '0')).join('');

  /**
   * A year or category page: a public one is the same for everyone with the same unlocked
   * child albums, so it is kept like an album page (a moment only while a card's cover crop is
   * still being worked out).
   */
  async function renderFolder(req: Request, res: Response, node: TreeNode): Promise<void> {
    // At most MAX_CARDS_PER_PAGE cards a page (folder-listing.ts).
    const listing = folderListing(node, req.query.page);
    const translator = languageOf(req);
    const { t } = translator;
    const make = async (): Promise<MadePage> => {
      const cards = await childCards(req, node, translator, listing.children);
      const preview = await previewOf(node, t('counts.albums', { count: listing.total }), t);
      const html = await renderView(res, 'folder', translator, {
        title: pageTitleOf(node, t),
        crumbs: crumbs(node),
        cards,
        preview,
        pagination: listing,
        pagePath: pagePathOf(allAlbumsUrl(node), listing.page),
        feed: pageFeed(undefined, node, index.root),
      });
      return { html, keepMs: cards.some((c) => c.pending) ? (deps.unfinishedPageMs ?? UNFINISHED_PAGE_MS) : undefined };
    };
    if (isProtected(node)) return sendPageOnce(req, res, (await make()).html);
    // No crops' version in the key: a page made while some were missing is kept a moment only (keepMs).
    const key = pageKey(translator.language.code, 'folder', deps.site?.version ?? 0, node.path, listing.page, unlockedChildren(req, node, listing.children));
    await sendCachedPage(req, res, await pageCache.make(index.version, key, make), 'no-cache');
  }

  /**
   * The password form of `album`, the album whose password opens the page; `returnUrl`
   * brings the visitor back to the page asked for (a folder below the album, say).
   */
  async function renderLocked(req: Request, res: Response, album: Album, returnUrl = albumPageUrl(album.path)): Promise<void> {
    res.set('Cache-Control', 'no-store');
    const translator = languageOf(req);
    const preview = deps.site && privatePreview(deps.site.view, translator.t);
    const language = { ...languageLocals(translator), pagePath: returnUrl };
    // SameSite=strict keeps the cookie off a navigation that starts on another site: reload
    // once from here (same-site), and a visitor who unlocked earlier sees the album.
    if (req.get('sec-fetch-site') === 'cross-site' && req.cookies?.[ACCESS_COOKIE] === undefined) {
      res.render('locked-reload', { ...language, pageTitle: album.meta.title, refresh: true, preview });
      return;
    }
    // Every visit while locked out shows the wait, not only the redirect of a refused attempt.
    // (A lockout store that does not answer is no standing: it never takes the form down.)
    const notice = lockoutNotice(req.query.error, await deps.limiter?.standing(req), translator);
    res.render('locked', { ...language, title: album.meta.title, albumPath: album.path, returnUrl, notice, preview });
  }

  async function renderAlbum(req: Request, res: Response, album: Album, access: AccessResult): Promise<void> {
    // The version of the tree `album` comes from, read before anything is awaited: a rescan
    // landing during the reads below must not have a page of the old tree kept as the new one's.
    const version = index.version;
    // False through a "no downloads" share link: no ZIP button, tiles link the large thumbnail.
    const downloads = allowsDownloads(access);
    const visible = await deps.readableMedia(req, album);
    const readable = deps.dates ? await deps.dates.order(album.path, visible) : visible;
    const total = readable.length;
    const pages = pageCount(total);
    const page = pageNumber(req, pages);
    // The same for every visitor who may see it, but for the child albums each has unlocked
    // (their cards show a cover or a padlock): that is part of the key.
    // A share link only ever opens protected albums, whose pages are never shared: nothing
    // a link changes on a page can reach the cache (docs/api.md#share-links).
    const shared = downloads && !(isProtected(album) || hasProtectedLinks(readable));
    // The site's settings are on every page (name, icons, link previews): part of the key too.
    // Whether every date of the album is known (its order by date and its span are final):
    // part of the key, so a cold album's page is kept meanwhile, and made again once they are.
    const datesFinal = deps.dates === undefined || (deps.dimensions?.settled?.(album.media) ?? true);
    // A child card whose cover crop is still being worked out makes the page not final (below),
    // rather than a part of the key: a crop coming in for one album makes no other page again.
    const translator = languageOf(req);
    const { t, language } = translator;
    const key = pageKey(language.code, 'album', deps.site?.version ?? 0, album.path, page, datesFinal ? 'd' : '-', unlockedChildren(req, album));

    const make = async (): Promise<MadePage> => {
      // The page's own sizes are asked first: the span's reads of the rest of the album queue behind them.
      const [media, children, span, download] = await Promise.all([
        mediaViews(album, readable, page, stats, deps.dimensions, translator),
        childCards(req, album, translator),
        deps.dates?.span(album, readable),
        downloadOffer(album, readable, stats, translator),
      ]);
      const pageUrl = (n: number) => `${albumPageUrl(album.path)}${n === 1 ? '' : `?page=${n}`}`;
      const counts = { photos: readable.filter((f) => f.item.kind === 'image').length, videos: readable.filter((f) => f.item.kind === 'video').length };
      const summary = summaryOf(counts, children.length, t);
      const html = await renderView(res, 'album', translator, {
        pagePath: pagePathOf(albumPageUrl(album.path), page),
        // A share link's own feed only on a page no one else is sent (feed-links.ts).
        feed: shared ? pageFeed(undefined, album, index.root) : pageFeed(req, album, index.root),
        title: album.meta.title,
        albumPath: album.path,
        crumbs: crumbs(album),
        style: album.meta.style,
        counts,
        summary,
        preview: await previewOf(album, summary, t),
        // An album date the owner set stands for the span of its photos' dates.
        dateRange: album.meta.date === undefined && span?.range ? dateRangeText(...span.range, language.locale) : undefined,
        description: album.meta.description,
        date: album.meta.date === undefined ? undefined : { iso: album.meta.date, text: dateText(album.meta.date, language.locale) },
        children,
        media: media.map((m) => ({ ...m, sizes: tileSizes(album.meta.style, m.width && m.height ? m.width / m.height : undefined) })),
        download: downloads ? download : undefined,
        // False through a "no downloads" share link: the viewer offers no original either.
        downloads,
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
      // Final only once its tiles are: a cold album's first render may lack some sizes
      // (dimensions.ts). Its order and date span may still miss dates of the rest of the album
      // (album-dates.ts): the key says so, and the page is kept under it all the same, since
      // reading a big album's dates takes a while and its visitors should not wait for it.
      const onPage = pageItems(readable, page).flatMap((f) => (f.motion ? [f.item, f.motion.item] : [f.item]));
      const final = (deps.dimensions?.settled?.(onPage) ?? true) && (datesFinal || !(span?.settled ?? false)) && !children.some((c) => c.pending);
      return { html, keepMs: final ? undefined : (deps.unfinishedPageMs ?? UNFINISHED_PAGE_MS) };
    };

    if (!shared) {
      // A link into a protected album shown to a visitor who unlocked it makes the page private.
      return sendPageOnce(req, res, (await make()).html);
    }
    await sendCachedPage(req, res, await pageCache.make(version, key, make), 'no-cache');
  }

  async function render(req: Request, res: Response, node: TreeNode): Promise<void> {
    const access = accessOf(req, node);
    // What is below a locked album is shown only to a visitor who may open it, its names and
    // titles included: the form is the outermost locked album's (core/access/locked-path.ts),
    // and brings the visitor back here once open.
    if (!access.granted) return renderLocked(req, res, outermostLock(index, node.path, visitorOf(req)) ?? access.blocking, albumPageUrl(node.path));
    // A share link's token joins the cookie; the page script then drops it from the address bar.
    if (access.viaUrlToken) grantTokens(req, res, deps.production, [access.viaUrlToken]);
    return isAlbum(node) ? renderAlbum(req, res, node, access) : renderFolder(req, res, node);
  }

  async function albumPage(req: Request, res: Response): Promise<void> {
    const tail = req.path.replace(/^\/photos\/?/, '');
    const relPath = decodeUrlPath(tail);
    const node = hasHiddenSegment(relPath) ? undefined : index.node(relPath);
    if (!node || node === index.root) {
      // A guessed path below a locked album answers as an existing one would: whether it exists is the owner's secret.
      const lock = outermostLock(index, relPath, visitorOf(req));
      if (lock) return renderLocked(req, res, lock, albumPageUrl(relPath));
      throw notFound('No such album');
    }
    const access = accessOf(req, node);
    // A page a share link opens is a view through that link (its /s/ address counts its own).
    if (access.granted && access.link) deps.linkVisits?.record(req, access.link.id);
    return render(req, res, node);
  }

  async function renderLockedAt(req: Request, res: Response, relPath: string, returnUrl: string): Promise<boolean> {
    const lock = outermostLock(index, relPath, visitorOf(req));
    if (lock) await renderLocked(req, res, lock, returnUrl);
    return lock !== undefined;
  }

  return { handler: albumPage, render, renderLockedAt };
}

/**
 * An album's date as its header shows it, as precise as it is written: `2024-05-01` "1 May
 * 2024", `2024-05` "May 2024", `2024` "2024" (calendar dates, read in UTC so no time zone moves them).
 */
function dateText(date: string, locale: string): string {
  const [year, month, day] = date.split('-');
  if (month === undefined) return year ?? date;
  const fields: Intl.DateTimeFormatOptions = day === undefined ? { month: 'long', year: 'numeric' } : { day: 'numeric', month: 'long', year: 'numeric' };
  return new Date(`${year}-${month}-${day ?? '01'}T00:00:00Z`).toLocaleDateString(locale, { ...fields, timeZone: 'UTC' });
}

/** '12 photos · 1 video · 2 albums' under the title, in the visitor's language. */
function summaryOf(counts: { photos: number; videos: number }, albums: number, t: Translate): string {
  const parts = [];
  if (counts.photos) parts.push(t('counts.photos', { count: counts.photos }));
  if (counts.videos) parts.push(t('counts.videos', { count: counts.videos }));
  if (albums) parts.push(t('counts.albums', { count: albums }));
  // An empty album says so once, in its empty state (views/album.ejs), not under its title too.
  return parts.join(' · ');
}

function crumbs(node: TreeNode) {
  return breadcrumbsOf(node).map((c) => ({ ...c, url: albumPageUrl(c.path) }));
}
