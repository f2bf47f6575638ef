import type { Request } from 'express';
import type { AlbumIndex } from '../../core/albums/album-index.js';
import type { Album } from '../../core/albums/album-tree.js';
import { outermostLock } from '../../core/access/locked-path.js';
import { visitorOf } from '../access/visitor.js';
import { decodeUrlPath, hasHiddenSegment, parseRelativePath } from '../../core/paths.js';
import { albumPageUrl } from '../../core/urls.js';
import type { ErrorPage, RefusedPage } from '../../http/error-handler.js';
import { languageLocals, type VisitorLanguage, varyByLanguage } from './visitor-language.js';

/**
 * The `/albums/{path}` tail or the `path` query of a media route: a file (`2024/trip/IMG_1.jpg`)
 * or, for the ZIP, an album; the chosen photos' ZIP posted as a form names it in its body.
 */
function pathNamedBy(req: Request): string | undefined {
  try {
    if (req.path.startsWith('/albums/')) return parseRelativePath(decodeUrlPath(req.path.slice('/albums/'.length)));
    return parseRelativePath(req.query.path ?? (req.body as { path?: unknown } | undefined)?.path);
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
export function refusedPageFor(index: AlbumIndex, language: VisitorLanguage): RefusedPage {
  return (req, res, status): ErrorPage => {
    varyByLanguage(res);
    const album = albumNamedBy(index, req, status);
    const albumLink = album && { href: albumPageUrl(album.path), title: album.meta.title };
    // In the visitor's language: the error arose before the pages' language middleware ran.
    const translator = language(req);
    const { t } = translator;
    // The switcher comes back to the album's page, never to the file's address: its name is the album's content.
    const base = { ...languageLocals(translator), pagePath: albumLink?.href ?? '/photos' };
    if (status === 401) {
      return {
        view: 'refused',
        locals: {
          ...base,
          title: t('refused.title'),
          heading: t('refused.heading'),
          text: album ? t('refused.textOf', { title: album.meta.title }) : t('refused.text'),
          action: albumLink
            ? { href: albumLink.href, label: t('refused.unlock', { title: albumLink.title }) }
            : { href: '/photos', label: t('refused.backToAlbums') },
        },
      };
    }
    // A 403 a browser opens is a file a "no downloads" share link refuses (gallery-access.ts).
    return {
      view: 'refused',
      locals: {
        ...base,
        title: t('refused.notAvailable'),
        heading: t('refused.notAvailable'),
        text: t('refused.noDownloads'),
        action: albumLink
          ? { href: albumLink.href, label: t('refused.backTo', { title: albumLink.title }) }
          : { href: '/photos', label: t('refused.backToAlbums') },
      },
    };
  };
}
