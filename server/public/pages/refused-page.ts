import type { Request } from 'express';
import type { AlbumIndex } from '../../core/albums/album-index.js';
import type { Album } from '../../core/albums/album-tree.js';
import { outermostLock } from '../../core/access/locked-path.js';
import { visitorOf } from '../access/visitor.js';
import { decodeUrlPath, hasHiddenSegment, parseRelativePath } from '../../core/paths.js';
import { albumPageUrl } from '../../core/urls.js';
import type { ErrorPage, RefusedPage } from '../../http/error-handler.js';

/** The `/albums/{path}` tail or the `path` query of a media route: a file (`2024/trip/IMG_1.jpg`) or, for the ZIP, an album. */
function pathNamedBy(req: Request): string | undefined {
  try {
    return parseRelativePath(req.path.startsWith('/albums/') ? decodeUrlPath(req.path.slice('/albums/'.length)) : req.query.path);
  } catch {
    return undefined;
  }
}

/**
 * The album a refused request was about. Refused as locked (401), it is the outermost album
 * of the path this visitor cannot open, whatever lies below it and whether it exists: the page
 * names nothing the visitor could not see listed (core/access/locked-path.ts). Otherwise
 * (403, or a 401 for a symlink into another album) the album the path names, which the
 * resolver found.
 */
function albumNamedBy(index: AlbumIndex, req: Request, status: 401 | 403): Album | undefined {
  const relPath = pathNamedBy(req);
  if (relPath === undefined) return undefined;
  const lock = status === 401 ? outermostLock(index, relPath, visitorOf(req)) : undefined;
  if (lock || hasHiddenSegment(relPath)) return lock;
  const slash = relPath.lastIndexOf('/');
  return index.album(relPath) ?? (slash > 0 ? index.album(relPath.slice(0, slash)) : undefined);
}

/**
 * What a browser sees when it opens a file, a thumbnail or the ZIP of an album it may not
 * read (docs/api.md, conventions): a page in the site's look that says so and links to the
 * album's page, where the password form is (401), or back to the album when the file is
 * refused for another reason (403, such as a share link without downloads). The link goes
 * to the album the visitor asked for, never to the one a symlink leads into.
 */
export function refusedPageFor(index: AlbumIndex): RefusedPage {
  return (req, status, message): ErrorPage => {
    const album = albumNamedBy(index, req, status);
    const albumLink = album && { href: albumPageUrl(album.path), title: album.meta.title };
    if (status === 401) {
      return {
        view: 'refused',
        locals: {
          title: 'Private album',
          heading: 'This is in a private album',
          text: album
            ? `“${album.meta.title}” is private. Unlock it with its password (or open your share link again), then try again.`
            : 'It belongs to a private album. Unlock the album with its password (or open your share link again), then try again.',
          action: albumLink ? { href: albumLink.href, label: `Unlock “${albumLink.title}”` } : { href: '/photos', label: 'Back to the albums' },
        },
      };
    }
    return {
      view: 'refused',
      locals: {
        title: 'Not available',
        heading: 'Not available',
        text: message,
        action: albumLink ? { href: albumLink.href, label: `Back to “${albumLink.title}”` } : { href: '/photos', label: 'Back to the albums' },
      },
    };
  };
}
