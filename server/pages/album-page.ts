import path from 'node:path';
import type { Request, RequestHandler, Response } from 'express';
import { accessOf } from '../access/gallery-access.js';
import { ACCESS_COOKIE, grantTokens } from '../access/tokens.js';
import type { AlbumIndex } from '../albums/album-index.js';
import { type Album, breadcrumbsOf, countMedia, isAlbum, isProtected, type MediaItem, titleOf, type TreeNode } from '../albums/album-tree.js';
import { notFound } from '../http-error.js';
import { decodeUrlPath, hasHiddenSegment } from '../paths.js';
import { cardFor, listedChildren } from './cards.js';
import type { MediaStats } from './media-stats.js';
import { albumPageUrl, downloadUrl, originalUrl, thumbnailSrcset, thumbnailUrl } from './urls.js';

/** Media per album page: a 5,000-photo album must not send megabytes of HTML. */
export const MEDIA_PER_PAGE = 200;

/** Display size and duration of a media file, when known (filled by the media pipeline). */
export interface MediaDimensions {
  readonly width: number;
  readonly height: number;
  readonly duration?: number | undefined;
}
export type DimensionsProvider = (node: TreeNode, items: readonly MediaItem[]) => Promise<(MediaDimensions | undefined)[]>;

const ERROR_MESSAGES: Readonly<Record<string, string>> = {
  'wrong-password': 'Wrong password. Please try again.',
  'rate-limited': 'Too many wrong passwords. Please retry in 15 minutes.',
};

const SIZES: Readonly<Record<string, string>> = {
  grid: '(max-width: 600px) 50vw, (max-width: 1100px) 33vw, 360px',
  masonry: '(max-width: 600px) 100vw, (max-width: 1100px) 50vw, 480px',
  single: '(max-width: 1300px) 100vw, 1200px',
};

function formatDuration(seconds: number | undefined): string | undefined {
  if (seconds === undefined || !Number.isFinite(seconds)) return undefined;
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
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
  readonly production: boolean;
  readonly dimensions?: DimensionsProvider;
}

/** GET /photos/{path}: rendered per request, because what it shows depends on the visitor. */
export function albumPageHandler(deps: AlbumPageDeps): RequestHandler {
  const { index, stats } = deps;

  async function renderFolder(req: Request, res: Response, node: TreeNode): Promise<void> {
    const cards = await Promise.all(listedChildren(node).map((c) => cardFor(c, !accessOf(req, c).granted, index, stats)));
    res.set('Cache-Control', 'no-cache');
    res.render('folder', { title: titleOf(node), crumbs: crumbs(node), cards });
  }

  function renderLocked(req: Request, res: Response, album: Album): void {
    res.set('Cache-Control', 'no-store');
    // SameSite=strict keeps the cookie off a navigation that starts on another site: reload
    // once from here (same-site), and a visitor who unlocked earlier sees the album.
    if (req.get('sec-fetch-site') === 'cross-site' && req.cookies?.[ACCESS_COOKIE] === undefined) {
      res.render('locked-reload', { pageTitle: album.meta.title, refresh: true });
      return;
    }
    const error = typeof req.query.error === 'string' ? ERROR_MESSAGES[req.query.error] : undefined;
    res.render('locked', {
      title: album.meta.title,
      albumPath: album.path,
      returnUrl: albumPageUrl(album.path),
      error,
      rateLimited: req.query.error === 'rate-limited',
    });
  }

  async function renderAlbum(req: Request, res: Response, album: Album): Promise<void> {
    const total = album.media.length;
    const pages = Math.max(1, Math.ceil(total / MEDIA_PER_PAGE));
    const page = pageNumber(req, pages);
    const items = album.media.slice((page - 1) * MEDIA_PER_PAGE, page * MEDIA_PER_PAGE);
    const [itemStats, dims, children] = await Promise.all([
      stats.all(album, items),
      deps.dimensions ? deps.dimensions(album, items) : Promise.resolve(items.map(() => undefined)),
      Promise.all(listedChildren(album).map((c) => cardFor(c, !accessOf(req, c).granted, index, stats))),
    ]);
    const media = items.map((m, i) => {
      const mediaPath = `${album.path}/${m.name}`;
      const v = itemStats[i]?.mtimeMs;
      const d = dims[i];
      return {
        name: m.name,
        kind: m.kind,
        path: mediaPath,
        alt: path.parse(m.name).name,
        original: originalUrl(mediaPath),
        src: thumbnailUrl(mediaPath, 'small', v),
        large: thumbnailUrl(mediaPath, 'large', v),
        srcset: thumbnailSrcset(mediaPath, v),
        width: d?.width,
        height: d?.height,
        duration: formatDuration(d?.duration),
      };
    });
    const pageUrl = (n: number) => `${albumPageUrl(album.path)}${n === 1 ? '' : `?page=${n}`}`;
    res.set('Cache-Control', isProtected(album) ? 'no-store' : 'no-cache');
    res.render('album', {
      title: album.meta.title,
      albumPath: album.path,
      crumbs: crumbs(album),
      style: album.meta.style,
      sizes: SIZES[album.meta.style],
      counts: countMedia(album),
      children,
      media,
      downloadUrl: downloadUrl(album.path),
      pagination: {
        page,
        pages,
        total,
        perPage: MEDIA_PER_PAGE,
        prev: page > 1 ? pageUrl(page - 1) : undefined,
        next: page < pages ? pageUrl(page + 1) : undefined,
      },
    });
  }

  return async function albumPage(req, res) {
    const tail = req.path.replace(/^\/photos\/?/, '');
    const relPath = decodeUrlPath(tail);
    const node = hasHiddenSegment(relPath) ? undefined : index.node(relPath);
    if (!node || node === index.root) throw notFound('No such album');
    if (!isAlbum(node)) return renderFolder(req, res, node);
    const access = accessOf(req, node);
    if (!access.granted) return renderLocked(req, res, node);
    // A share link's token joins the cookie; the page script then drops it from the address bar.
    if (access.viaUrlToken) grantTokens(req, res, deps.production, [access.viaUrlToken]);
    return renderAlbum(req, res, node);
  };
}

function crumbs(node: TreeNode) {
  return breadcrumbsOf(node).map((c) => ({ ...c, url: albumPageUrl(c.path) }));
}
