import { encodePath } from '../../core/urls.js';

/** The addresses of the feeds (docs/api.md#feeds): the pages' `<link rel="alternate">` and the routes share them. */
export const SITE_FEED_PATH = '/feed.atom';

/** The feed of an album or folder: `/feed/2024/travel/lisbon.atom`. */
export const feedPath = (nodePath: string): string => (nodePath === '' ? SITE_FEED_PATH : `/feed/${encodePath(nodePath)}.atom`);

/** The feed of a share link: only what the link opens, at an address as secret as the link's. */
export const linkFeedPath = (id: string): string => `/s/${encodeURIComponent(id)}/feed.atom`;

/**
 * Where a share link's feed has its thumbnails: a reader fetches them without the visitor's
 * cookies, so they are answered with the link alone (routes/feed-thumbnails.ts).
 */
export const linkThumbnailBase = (id: string): string => `/s/${encodeURIComponent(id)}/feed/thumbnail`;
