import type { Request } from 'express';
import type { AlbumIndex } from '../../core/albums/album-index.js';
import { type Album, isProtected, type MediaItem, type TreeNode } from '../../core/albums/album-tree.js';
import { forbidden, notFound, unauthorized } from '../../core/errors.js';
import { mediaKind } from '../../core/media-catalogue.js';
import { hasHiddenSegment, parseRelativePath } from '../../core/paths.js';
import type { AlbumResolver, MediaResolver, MediaUse, ReadableFile, ResolvedAlbum, ResolvedMedia, VisitorMediaResolver } from '../resolvers.js';
import { createMediaLocator, hidesLocationAt, type ItemLocation, type LocateMedia, type MediaLocation } from '../../core/access/media-location.js';
import { filesOf } from '../../core/albums/live-photos.js';
import { type AccessResult, allowsDownloads, resolveAccess } from '../../core/access/resolve-access.js';
import type { Visitor } from '../../core/access/visitor.js';
import { outermostLock } from '../../core/access/locked-path.js';
import { visitorOf } from './visitor.js';

/** Access of the visitor making `req` to a node of the tree. */
export function accessOf(req: Request, node: TreeNode): AccessResult {
  return resolveAccess(node, visitorOf(req));
}

/**
 * The media of an album the visitor has already been let into that it may also read, in
 * album order, with their real paths: a symlink counts only where the rule follows it and the
 * visitor may open the album it leads into.
 */
export type ReadableMedia = (req: Request, album: Album) => Promise<readonly ReadableFile[]>;

export interface GalleryAccess {
  /** The media resolver on a Visitor: for callers outside Express (server/public/front-door.ts). */
  readonly mediaFor: VisitorMediaResolver;
  readonly albumFor: (visitor: Visitor, raw: unknown, use: MediaUse) => Promise<ResolvedAlbum>;
  readonly readableFor: (visitor: Visitor, album: Album) => Promise<readonly ReadableFile[]>;
  /** The same three for a request, its visitor read by visitorOf. */
  readonly resolveMedia: MediaResolver;
  readonly resolveAlbum: AlbumResolver;
  readonly readableMedia: ReadableMedia;
  /** The symlink rule alone, the same for every visitor: for caches of file facts (sizes, mtimes). */
  readonly locateMedia: LocateMedia;
}

/**
 * The one place that decides whether a visitor may read a media item of an album, and where
 * it really is. Every route that reveals album content goes through it. The order of checks
 * matters: the album's access is decided before the file is looked up, so a locked album
 * answers 401 whether or not a guessed file name exists in it. A symlink leading into another
 * album needs that album's access too (401 without it, as for the album itself); a symlink the
 * rule does not follow reads as a missing file (404).
 */
export function createResolvers(index: AlbumIndex, albumsDir: string): GalleryAccess {
  // Only the lookups are remembered (the real path is most of a thumbnail cache hit);
  // access is decided afresh on every request.
  const itemsByName = new WeakMap<TreeNode, Map<string, MediaItem>>();
  const locateMedia = createMediaLocator(index, albumsDir);

  function requireAccess(visitor: Visitor, node: TreeNode): Grant {
    const grant = grantOf(visitor, node);
    if (!grant.open) throw lockedAlbum();
    return grant;
  }

  /**
   * A 5,000-photo album is not scanned on every request. A Live Photo's motion file is found
   * here like any file of its album: it is not listed, but it is served to whoever may open
   * the album (docs/api.md#live-photos).
   */
  function itemOf(album: TreeNode, name: string): MediaItem | undefined {
    let byName = itemsByName.get(album);
    if (!byName) {
      byName = new Map(Array.from(filesOf(album.media), (m) => [m.name, m]));
      itemsByName.set(album, byName);
    }
    return byName.get(name);
  }

  const mediaFor: VisitorMediaResolver = async (visitor, raw, use) => {
    const relPath = parseRelativePath(raw);
    const slash = relPath.lastIndexOf('/');
    const kind = mediaKind(relPath);
    if (slash < 0 || kind === undefined || hasHiddenSegment(relPath)) throw notFound('File not found');
    const albumPath = relPath.slice(0, slash);
    const album = index.album(albumPath);
    // Below a locked album, a path that is no album answers as a locked one (docs/api.md#access).
    if (!album) throw outermostLock(index, albumPath, visitor) ? lockedAlbum() : notFound('File not found');
    // Access before the file lookup, so a locked album answers 401 for any file name.
    const grant = requireAccess(visitor, album);
    const item = itemOf(album, relPath.slice(slash + 1));
    const where = item && (await locateMedia(album, item));
    if (!where) throw notFound('File not found');
    const realGrant = where.realAlbum === album ? grant : requireAccess(visitor, where.realAlbum);
    // The one check of a share link's "no downloads" (docs/api.md#share-links): videos still play.
    if (use === 'original' && kind === 'image' && !(grant.downloads && realGrant.downloads)) throw noDownloads();
    return {
      relPath,
      absPath: where.absPath,
      kind,
      albumPath: album.path,
      protected: isProtected(album) || isProtected(where.realAlbum),
      hideLocation: hidesLocationAt(album, where),
      rotation: where.rotation,
    } satisfies ResolvedMedia;
  };

  // An album of plain files (no links) reads the same for every visitor let into it with the
  // same right to download: [with downloads, without].
  const allPlain = new WeakMap<readonly (ItemLocation | undefined)[], [(readonly ReadableFile[])?, (readonly ReadableFile[])?]>();

  const readableFor = async (visitor: Visitor, album: Album): Promise<readonly ReadableFile[]> => {
    const located = await locateMedia.all(album);
    const albumGrant = grantOf(visitor, album);
    const variant = albumGrant.downloads ? 0 : 1;
    const known = allPlain.get(located)?.[variant];
    if (known) return known;
    const ownFile = (where: MediaLocation | undefined) => where === undefined || where.realAlbum === album;
    const plain = located.every((where) => ownFile(where) && ownFile(where?.motion));
    // One access decision per album a link leads into, not one per link.
    const grants = new Map<Album, Grant>([[album, albumGrant]]);
    const grantAt = (where: MediaLocation) => {
      let grant = grants.get(where.realAlbum);
      if (!grant) {
        grant = grantOf(visitor, where.realAlbum);
        grants.set(where.realAlbum, grant);
      }
      return grant;
    };
    const readableAt = (item: MediaItem, where: MediaLocation): ReadableFile => ({
      item,
      absPath: where.absPath,
      protected: isProtected(album) || isProtected(where.realAlbum),
      hideLocation: hidesLocationAt(album, where),
      downloadable: albumGrant.downloads && grantAt(where).downloads,
    });
    const readable: ReadableFile[] = [];
    album.media.forEach((item, i) => {
      const where = located[i];
      if (!where || !grantAt(where).open) return;
      // A motion file this visitor may not read (a link into a locked album) leaves a plain photo.
      const motion = item.motion && where.motion && grantAt(where.motion).open ? readableAt(item.motion, where.motion) : undefined;
      readable.push(motion ? { ...readableAt(item, where), motion } : readableAt(item, where));
    });
    if (plain) {
      const variants = allPlain.get(located) ?? [];
      variants[variant] = readable;
      allPlain.set(located, variants);
    }
    return readable;
  };

  const albumFor = async (visitor: Visitor, raw: unknown, use: MediaUse): Promise<ResolvedAlbum> => {
    const albumPath = parseRelativePath(raw);
    const album = hasHiddenSegment(albumPath) ? undefined : index.album(albumPath);
    if (!album) throw outermostLock(index, albumPath, visitor) ? lockedAlbum() : notFound('Album not found');
    const grant = requireAccess(visitor, album);
    if (use === 'original' && !grant.downloads) throw noDownloads();
    return {
      path: album.path,
      name: album.name,
      title: album.meta.title,
      readable: async () => {
        const files = await readableFor(visitor, album);
        return use === 'original' ? downloadableOnly(files) : files;
      },
      protected: isProtected(album),
      downloads: grant.downloads,
    } satisfies ResolvedAlbum;
  };

  return {
    mediaFor,
    albumFor,
    readableFor,
    resolveMedia: (req, raw, use) => mediaFor(visitorOf(req), raw, use),
    resolveAlbum: (req, raw, use) => albumFor(visitorOf(req), raw, use),
    readableMedia: (req, album) => readableFor(visitorOf(req), album),
    locateMedia,
  };
}

/** What a visitor may do with a node: open it, and download its originals (docs/api.md#share-links). */
interface Grant {
  readonly open: boolean;
  readonly downloads: boolean;
}
const FULL: Grant = Object.freeze({ open: true, downloads: true });
const CLOSED: Grant = Object.freeze({ open: false, downloads: false });
const VIEW_ONLY: Grant = Object.freeze({ open: true, downloads: false });

function grantOf(visitor: Visitor, node: TreeNode): Grant {
  // Nothing on the chain has a password: access is granted whatever the visitor holds
  // (resolveAccess would say the same, after comparing every token).
  if (!isProtected(node)) return FULL;
  const access = resolveAccess(node, visitor);
  if (!access.granted) return CLOSED;
  return allowsDownloads(access) ? FULL : VIEW_ONLY;
}

/** The one answer of a locked album, whichever album of the path it is and whether the rest of the path exists. */
function lockedAlbum() {
  return unauthorized('This album is protected: unlock it first');
}

function noDownloads() {
  return forbidden('This share link does not allow downloads: ask the person who sent it for the original');
}

/** Files whose bytes this visitor may take away (a ZIP): a motion file too, or the still goes alone. */
function downloadableOnly(files: readonly ReadableFile[]): ReadableFile[] {
  return files.flatMap((f) => {
    if (!f.downloadable) return [];
    if (!f.motion || f.motion.downloadable) return [f];
    const { motion: _left, ...still } = f;
    return [still];
  });
}
