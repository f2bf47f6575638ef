import { type Request, type Response, Router } from 'express';
import { liveLink } from '../../core/access/secret-directory.js';
import { albumsVisibleTo } from '../../core/access/visible-albums.js';
import { ANONYMOUS, type Visitor } from '../../core/access/visitor.js';
import type { AlbumIndex } from '../../core/albums/album-index.js';
import { type Album, isAlbum, type TreeNode } from '../../core/albums/album-tree.js';
import { notFound, unauthorized } from '../../core/errors.js';
import { outermostLock } from '../../core/access/locked-path.js';
import { decodeUrlPath, hasHiddenSegment } from '../../core/paths.js';
import { shareLinkPath } from '../../core/urls.js';
import type { SiteSettings } from '../../core/site-settings.js';
import { type Translator, translatorFor } from '../../http/i18n.js';
import { visitorOf } from '../access/visitor.js';
import { accessOf } from '../access/gallery-access.js';
import type { ReadableFile } from '../resolvers.js';
import { atomXml } from '../pages/feed-atom.js';
import { type FeedScope, feedDocument } from '../pages/feed-document.js';
import { feedEntries } from '../pages/feed-entries.js';
import type { MediaStats } from '../pages/media-stats.js';
import type { VisitorLanguage } from '../pages/visitor-language.js';
import { feedPath, linkFeedPath, linkThumbnailBase, SITE_FEED_PATH } from '../pages/feed-paths.js';

export interface FeedRouterDeps {
  readonly index: Pick<AlbumIndex, 'root' | 'node'>;
  readonly stats: MediaStats;
  /** What of an album a visitor may read (server/public/access/gallery-access.ts `readableFor`). */
  readonly readableFor: (visitor: Visitor, album: Album) => Promise<readonly ReadableFile[]>;
  /** site.json as it is now: its name, and its public address for absolute URLs. */
  readonly site: () => Pick<SiteSettings, 'name' | 'publicUrl'>;
  readonly language: VisitorLanguage;
  /** What makes this gallery's ids its own (feed-document.ts): the albums directory. */
  readonly siteKey: string;
}

/** How long a cache may keep the public feed: a new photo shows within a minute. */
const PUBLIC_FEED_SECONDS = 60;

/** Albums of `albums` at `node` or below it. */
function within(albums: readonly Album[], node: TreeNode): Album[] {
  const prefix = `${node.path}/`;
  return albums.filter((a) => a.path === node.path || a.path.startsWith(prefix));
}

/** The origin absolute URLs start with: site.json's public address, else the request's own. */
function originOf(req: Request, site: Pick<SiteSettings, 'publicUrl'>): string {
  return site.publicUrl || `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

/**
 * The feeds (docs/api.md#feeds): `/feed.atom` (what an anonymous visitor may see),
 * `/feed/<path>.atom` (an album or folder, for the request's visitor) and `/s/<id>/feed.atom`
 * (only what that share link opens). Which albums each holds is the one rule of
 * server/core/access/visible-albums.ts; nothing else is looked at.
 */
export function createFeedRouter(deps: FeedRouterDeps): Router {
  const router = Router();

  async function send(req: Request, res: Response, scope: FeedScope, visitor: Visitor, albums: readonly Album[], translator: Translator): Promise<void> {
    const site = deps.site();
    const entries = await feedEntries(albums, (album) => deps.readableFor(visitor, album), deps.stats);
    const xml = atomXml(feedDocument({ scope, entries, site, origin: originOf(req, site), translator, siteKey: deps.siteKey }));
    // Express answers If-None-Match with 304 from the ETag it makes of the body.
    res.type('application/atom+xml; charset=utf-8').send(xml);
  }

  router.get(SITE_FEED_PATH, async function siteFeed(req, res) {
    res.set('Cache-Control', `public, max-age=${PUBLIC_FEED_SECONDS}`);
    await send(req, res, { kind: 'site', self: SITE_FEED_PATH }, ANONYMOUS, albumsVisibleTo(deps.index.root, ANONYMOUS), deps.language(req));
  });

  router.get(/^\/feed\/(.+)\.atom$/, async function folderFeed(req, res) {
    const relPath = decodeUrlPath(req.path.slice('/feed/'.length, -'.atom'.length));
    const visitor = visitorOf(req);
    const node = hasHiddenSegment(relPath) ? undefined : deps.index.node(relPath);
    // What the album's page answers: a locked album (or a path below one) asks for its password.
    if (!node || node === deps.index.root) throw outermostLock(deps.index, relPath, visitor) ? lockedFeed() : notFound('No such album');
    if (!accessOf(req, node).granted) throw lockedFeed();
    const albums = within(albumsVisibleTo(deps.index.root, visitor), node);
    // A hidden album is reached by its link, never found: its feed is its link's (a key of its own opens it here too).
    if (isAlbum(node) && !albums.includes(node)) throw notFound('No such album');
    // What it holds depends on the visitor's cookie: no shared cache keeps it.
    res.set('Cache-Control', 'private, no-cache');
    await send(req, res, { kind: 'node', node, self: feedPath(node.path) }, visitor, albums, deps.language(req));
  });

  router.get('/s/:id/feed.atom', async function linkFeed(req, res) {
    const id = req.params.id;
    const found = liveLink(deps.index.root, id);
    // Unknown, expired or revoked: the same bare 404 for all three, nothing of the album.
    if (!found) throw notFound('No such feed');
    // Only what the link opens: not the cookie's albums, nor the public site around it.
    const visitor: Visitor = { held: [], urlToken: undefined, links: [id] };
    const albums = within(albumsVisibleTo(deps.index.root, visitor), found.album);
    res.set('Cache-Control', 'private, no-cache');
    // Its URL is as secret as the link: no referrer carries it off when a reader opens an entry.
    res.set('Referrer-Policy', 'no-referrer');
    const translator = found.link.language === undefined ? deps.language(req) : translatorFor(found.link.language);
    const scope: FeedScope = { kind: 'link', node: found.album, self: linkFeedPath(id), page: shareLinkPath(id), thumbnails: linkThumbnailBase(id) };
    await send(req, res, scope, visitor, albums, translator);
  });

  return router;
}

/** The one answer of a locked album's feed, as its files answer (server/public/access/gallery-access.ts). */
function lockedFeed() {
  return unauthorized('This album is protected: unlock it first');
}
