import type { Request, RequestHandler, Response } from 'express';
import type { AlbumIndex } from '../../core/albums/album-index.js';
import { isAlbum, isProtected, type TreeNode } from '../../core/albums/album-tree.js';
import { notFound } from '../../core/errors.js';
import { decodeUrlPath, hasHiddenSegment } from '../../core/paths.js';
import { albumPageUrl, encodePath, shareLinkPath } from '../../core/urls.js';
import { hasControlCharacter } from '../../core/control-characters.js';
import { accessOf } from '../access/gallery-access.js';
import type { LinkVisits } from '../access/link-visits.js';
import { addressLinkId, grantTokens } from '../access/tokens.js';
import { frameMediaApiUrl } from '../routes/frame-media-api.js';
import type { AlbumPages } from './album-page.js';
import { pageTitleOf } from './folder-listing.js';
import { albumMediaApiUrl } from './media-items.js';

/** The seconds per photo offered in the frame's settings; any other of the URL is added to them. */
export const FRAME_INTERVALS = [5, 10, 15, 30, 60, 120, 300] as const;
export const DEFAULT_INTERVAL = 10;
/** Bounds of `interval=`: fractions of a second are taken, for tests that loop a frame fast. */
const MIN_INTERVAL = 0.02;
const MAX_INTERVAL = 86_400;
/** A `source=` longer than this is no API address of this site. */
const MAX_SOURCE_LENGTH = 2000;

/** The frame's options, from its address (docs/api.md#photo-frame). */
export interface FrameOptions {
  /** Seconds per photo. */
  readonly interval: number;
  readonly shuffle: boolean;
  /** Whether the owner's caption is shown over the photo. */
  readonly caption: boolean;
  /** Whether the date taken is shown over the photo. */
  readonly date: boolean;
}

const isOn = (v: unknown, byDefault: boolean): boolean => {
  if (typeof v !== 'string') return byDefault;
  if (['1', 'true', 'on', 'yes'].includes(v)) return true;
  if (['0', 'false', 'off', 'no'].includes(v)) return false;
  return byDefault;
};

/** The options of a frame's query; anything malformed reads as its default, so a typo on a TV never breaks the frame. */
export function frameOptions(query: Request['query']): FrameOptions {
  const asked = typeof query.interval === 'string' ? Number(query.interval) : Number.NaN;
  const interval = Number.isFinite(asked) && asked >= MIN_INTERVAL && asked <= MAX_INTERVAL ? asked : DEFAULT_INTERVAL;
  return { interval, shuffle: isOn(query.shuffle, false), caption: isOn(query.caption, true), date: isOn(query.date, true) };
}

/** The query of a frame address holding these options, only those that differ from the defaults ('' when none does). */
export function frameQuery(options: FrameOptions): string {
  const params = new URLSearchParams();
  if (options.interval !== DEFAULT_INTERVAL) params.set('interval', String(options.interval));
  if (options.shuffle) params.set('shuffle', '1');
  if (!options.caption) params.set('caption', '0');
  if (!options.date) params.set('date', '0');
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}

export const framePageUrl = (nodePath: string): string => (nodePath === '' ? '/frame' : `/frame/${encodePath(nodePath)}`);

/**
 * A `source=` or `back=` of the address: a path of this site (one leading `/`, no `\`, no
 * control character), and for a source one under /api/, which the page's policy lets the
 * frame fetch anyway (connect-src 'self'). Undefined for anything else.
 */
export function sitePath(raw: unknown, under = '/'): string | undefined {
  if (typeof raw !== 'string' || raw.length > MAX_SOURCE_LENGTH || !raw.startsWith(under)) return undefined;
  if (raw.startsWith('//') || raw.includes('\\') || hasControlCharacter(raw)) return undefined;
  return raw;
}

export interface FrameView {
  /** The page's heading: the album's or folder's title. */
  readonly title: string;
  /** The JSON list the frame shows (docs/api.md#photo-frame). */
  readonly source: string;
  /** Where "Close" goes: the album page, or the share link's address. */
  readonly back: string;
  readonly protected: boolean;
}

/**
 * What a frame of `node` shows: an album with photos of its own shows them, as its page
 * lists them (/api/album-media); a folder, the top of the tree, or a collection without photos
 * of its own shows those of every album below it the visitor may open (/api/frame-media).
 */
export function frameOfNode(node: TreeNode, title: string, back: string): FrameView {
  const own = isAlbum(node) && node.media.length > 0;
  return { title, source: own ? albumMediaApiUrl(node.path) : frameMediaApiUrl(node.path), back, protected: isProtected(node) };
}

/** Renders the frame page (views/frame.ejs). */
export function renderFrame(req: Request, res: Response, view: FrameView): void {
  const options = frameOptions(req.query);
  const intervals: number[] = FRAME_INTERVALS.includes(options.interval as (typeof FRAME_INTERVALS)[number])
    ? [...FRAME_INTERVALS]
    : [...FRAME_INTERVALS, options.interval].sort((a, b) => a - b);
  // A protected album's frame is never stored; a public one is asked again (its list may grow).
  res.set('Cache-Control', view.protected ? 'no-store' : 'no-cache');
  res.render('frame', { ...view, options, intervals });
}

export interface FramePageDeps {
  readonly index: AlbumIndex;
  readonly albumPages: Pick<AlbumPages, 'renderLockedAt'>;
  readonly linkVisits?: LinkVisits | undefined;
  readonly production: boolean;
}

/**
 * GET /frame and /frame/{path} (docs/api.md#photo-frame): the frame of an album or folder the
 * visitor may open, answering as its page does otherwise (the password form, which brings the
 * visitor back to the frame, or the 404 page). `/frame?source=/api/…` shows another list of
 * this site's API (a search's, a timeline's).
 */
export function framePageHandler(deps: FramePageDeps): RequestHandler {
  const { index } = deps;
  return async function framePage(req, res) {
    const tail = req.path.replace(/^\/frame\/?/, '');
    const relPath = tail === '' ? '' : decodeUrlPath(tail);
    const here = `${framePageUrl(relPath)}${frameQuery(frameOptions(req.query))}`;
    const source = relPath === '' ? sitePath(req.query.source, '/api/') : undefined;
    const node = relPath === '' ? index.root : hasHiddenSegment(relPath) ? undefined : index.node(relPath);
    const access = node && accessOf(req, node);
    if (!node || !access?.granted) {
      if (await deps.albumPages.renderLockedAt(req, res, relPath, here)) return;
      throw notFound('No such album');
    }
    // As on the album page: a share link's view, a URL token joining the cookie (the frame's list is read with it).
    if (access.link) deps.linkVisits?.record(req, access.link.id);
    if (access.viaUrlToken) grantTokens(req, res, deps.production, [access.viaUrlToken]);
    const { t } = res.locals as { t: (key: string) => string };
    if (source) return renderFrame(req, res, { title: t('frame.listTitle'), source, back: sitePath(req.query.back) ?? '/photos', protected: true });
    renderFrame(req, res, frameOfNode(node, pageTitleOf(node, t), albumPageUrl(node.path)));
  };
}

/** The frame of a share link's album at `/s/<id>/frame`, its "Close" going back to the link's page. */
export function renderLinkFrame(req: Request, res: Response, album: TreeNode): Promise<void> {
  const { t } = res.locals as { t: (key: string) => string };
  const id = addressLinkId(req);
  renderFrame(req, res, frameOfNode(album, pageTitleOf(album, t), id === undefined ? albumPageUrl(album.path) : shareLinkPath(id)));
  return Promise.resolve();
}
