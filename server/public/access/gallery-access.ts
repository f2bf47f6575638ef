import type { Request } from 'express';
import type { AlbumIndex } from '../../core/albums/album-index.js';
import { type Album, hidesLocation, isProtected, type MediaItem, type TreeNode } from '../../core/albums/album-tree.js';
import { notFound, unauthorized } from '../../core/errors.js';
import { mediaKind } from '../../core/media-catalogue.js';
import { hasHiddenSegment, parseRelativePath } from '../../core/paths.js';
import type { AlbumResolver, MediaResolver, ReadableFile, ResolvedAlbum, ResolvedMedia, VisitorMediaResolver } from '../resolvers.js';
import { createMediaLocator, type ItemLocation, type LocateMedia, type MediaLocation } from '../../core/access/media-location.js';
import { filesOf } from '../../core/albums/live-photos.js';
import { type AccessResult, resolveAccess } from '../../core/access/resolve-access.js';
import type { Visitor } from '../../core/access/visitor.js';
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
  readonly albumFor: (visitor: Visitor, raw: unknown) => Promise<ResolvedAlbum>;
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

  function requireAccess(visitor: Visitor, node: TreeNode): void {
    if (!mayOpen(visitor, node)) throw unauthorized('This album is protected: unlock it first');
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

  const mediaFor: VisitorMediaResolver = async (visitor, raw) => {
    const relPath = parseRelativePath(raw);
    const slash = relPath.lastIndexOf('/');
    const kind = mediaKind(relPath);
    if (slash < 0 || kind === undefined || hasHiddenSegment(relPath)) throw notFound('File not found');
    const album = index.album(relPath.slice(0, slash));
    if (!album) throw notFound('File not found');
    // Access before the file lookup, so a locked album answers 401 for any file name.
    requireAccess(visitor, album);
    const item = itemOf(album, relPath.slice(slash + 1));
    const where = item && (await locateMedia(album, item));
    if (!where) throw notFound('File not found');
    if (where.realAlbum !== album) requireAccess(visitor, where.realAlbum);
    return {
      relPath,
      absPath: where.absPath,
      kind,
      albumPath: album.path,
      protected: isProtected(album) || isProtected(where.realAlbum),
      // Either album's choice holds: a link must not carry a location its own album hides, nor show one where it is shown.
      hideLocation: hidesLocation(album) || hidesLocation(where.realAlbum),
    } satisfies ResolvedMedia;
  };

  // An album of plain files (no links) reads the same for every visitor let into it.
  const allPlain = new WeakMap<readonly (ItemLocation | undefined)[], readonly ReadableFile[]>();

  const readableFor = async (visitor: Visitor, album: Album): Promise<readonly ReadableFile[]> => {
    const located = await locateMedia.all(album);
    const known = allPlain.get(located);
    if (known) return known;
    const ownFile = (where: MediaLocation | undefined) => where === undefined || where.realAlbum === album;
    const plain = located.every((where) => ownFile(where) && ownFile(where?.motion));
    // One access decision per album a link leads into, not one per link.
    const opens = new Map<Album, boolean>([[album, true]]);
    const mayRead = (where: MediaLocation) => {
      const known = opens.get(where.realAlbum);
      if (known !== undefined) return known;
      const may = mayOpen(visitor, where.realAlbum);
      opens.set(where.realAlbum, may);
      return may;
    };
    const readableAt = (item: MediaItem, where: MediaLocation) => ({
      item,
      absPath: where.absPath,
      protected: isProtected(album) || isProtected(where.realAlbum),
      hideLocation: hidesLocation(album) || hidesLocation(where.realAlbum),
    });
    const readable: ReadableFile[] = [];
    album.media.forEach((item, i) => {
      const where = located[i];
      if (!where || !mayRead(where)) return;
      // A motion file this visitor may not read (a link into a locked album) leaves a plain photo.
      const motion = item.motion && where.motion && mayRead(where.motion) ? readableAt(item.motion, where.motion) : undefined;
      readable.push(motion ? { ...readableAt(item, where), motion } : readableAt(item, where));
    });
    if (plain) allPlain.set(located, readable);
    return readable;
  };

  const albumFor = async (visitor: Visitor, raw: unknown): Promise<ResolvedAlbum> => {
    const albumPath = parseRelativePath(raw);
    const album = hasHiddenSegment(albumPath) ? undefined : index.album(albumPath);
    if (!album) throw notFound('Album not found');
    requireAccess(visitor, album);
    return {
      path: album.path,
      name: album.name,
      title: album.meta.title,
      readable: () => readableFor(visitor, album),
      protected: isProtected(album),
    } satisfies ResolvedAlbum;
  };

  return {
    mediaFor,
    albumFor,
    readableFor,
    resolveMedia: (req, raw) => mediaFor(visitorOf(req), raw),
    resolveAlbum: (req, raw) => albumFor(visitorOf(req), raw),
    readableMedia: (req, album) => readableFor(visitorOf(req), album),
    locateMedia,
  };
}

function mayOpen(visitor: Visitor, node: TreeNode): boolean {
  // Nothing on the chain has a password: access is granted whatever the visitor holds
  // (resolveAccess would say the same, after comparing every token).
  return !isProtected(node) || resolveAccess(node, visitor).granted;
}
