import path from 'node:path';
import type { Request } from 'express';
import type { AlbumIndex } from '../albums/album-index.js';
import { isAlbum, isProtected, type MediaItem, type TreeNode } from '../albums/album-tree.js';
import { notFound, unauthorized } from '../http-error.js';
import { mediaKind } from '../media-types.js';
import { hasHiddenSegment, parseRelativePath, realRootOf, resolveInside } from '../paths.js';
import type { AlbumResolver, MediaResolver, ResolvedAlbum, ResolvedMedia } from '../resolvers.js';
import { type AccessResult, resolveAccess } from './resolve-access.js';
import { heldTokens, urlToken } from './tokens.js';

/** Access of the visitor making `req` to a node of the tree. */
export function accessOf(req: Request, node: TreeNode): AccessResult {
  return resolveAccess(node, heldTokens(req), urlToken(req));
}

/**
 * How long a file's real path is trusted without looking again. A rescan of the index (the
 * watcher sees any change in an album directory, a replaced symlink included) makes new
 * MediaItem objects, so entries of the old tree are never used again; the time limit
 * bounds what no watcher sees (a symlink's target outside the tree, or `watch: false`).
 */
const REAL_PATH_TTL_MS = 2000;

/** Where a media file really is, and the album that holds it there (when it is one). */
interface Located {
  readonly absPath: string;
  readonly realAlbum: TreeNode | undefined;
  readonly at: number;
}

/**
 * Resolvers used by every route that reveals album content. The order of checks matters:
 * the album's access is decided before the file is looked up, so a locked album answers
 * 401 whether or not a guessed file name exists in it.
 */
export function createResolvers(index: AlbumIndex, albumsDir: string): { resolveMedia: MediaResolver; resolveAlbum: AlbumResolver } {
  // Only the lookups are remembered (they cost two realpath calls per request, most of a
  // thumbnail cache hit); access is decided afresh on every request.
  const itemsByName = new WeakMap<TreeNode, Map<string, MediaItem>>();
  const located = new WeakMap<MediaItem, Located>();

  function requireAccess(req: Request, node: TreeNode): void {
    // Nothing on the chain has a password: access is granted whatever the visitor holds, so
    // the cookie and query need not be parsed (resolveAccess would say the same).
    if (!isProtected(node)) return;
    if (!accessOf(req, node).granted) throw unauthorized('This album is protected: unlock it first');
  }

  /** A 5,000-photo album is not scanned on every request. */
  function itemOf(album: TreeNode, name: string): MediaItem | undefined {
    let byName = itemsByName.get(album);
    if (!byName) {
      byName = new Map(album.media.map((m) => [m.name, m]));
      itemsByName.set(album, byName);
    }
    return byName.get(name);
  }

  async function locate(item: MediaItem, relPath: string): Promise<Located> {
    const now = performance.now();
    const known = located.get(item);
    if (known && now - known.at < REAL_PATH_TTL_MS) return known;
    const absPath = await resolveInside(albumsDir, relPath);
    const entry: Located = { absPath, realAlbum: await albumOfRealPath(index, albumsDir, absPath), at: now };
    located.set(item, entry);
    return entry;
  }

  const resolveMedia: MediaResolver = async (req, raw) => {
    const relPath = parseRelativePath(raw);
    const slash = relPath.lastIndexOf('/');
    const kind = mediaKind(relPath);
    if (slash < 0 || kind === undefined || hasHiddenSegment(relPath)) throw notFound('File not found');
    const album = index.album(relPath.slice(0, slash));
    if (!album) throw notFound('File not found');
    // Access before the file lookup, so a locked album answers 401 for any file name.
    requireAccess(req, album);
    const item = itemOf(album, relPath.slice(slash + 1));
    if (!item) throw notFound('File not found');
    const { absPath, realAlbum } = await locate(item, relPath);
    // A symlink may lead into another album: that album's access applies as well.
    if (realAlbum && realAlbum !== album) requireAccess(req, realAlbum);
    return { relPath, absPath, kind, albumPath: album.path, protected: isProtected(album) || (realAlbum ? isProtected(realAlbum) : false) } satisfies ResolvedMedia;
  };

  const resolveAlbum: AlbumResolver = async (req, raw) => {
    const albumPath = parseRelativePath(raw);
    const album = hasHiddenSegment(albumPath) ? undefined : index.album(albumPath);
    if (!album) throw notFound('Album not found');
    requireAccess(req, album);
    const dir = await resolveInside(albumsDir, albumPath);
    return {
      path: album.path,
      name: album.name,
      title: album.meta.title,
      dir,
      images: album.media.filter((m) => m.kind === 'image').map((m) => m.name),
      protected: isProtected(album),
    } satisfies ResolvedAlbum;
  };

  return { resolveMedia, resolveAlbum };
}

async function albumOfRealPath(index: AlbumIndex, albumsDir: string, absPath: string): Promise<TreeNode | undefined> {
  const realRoot = await realRootOf(albumsDir).catch(() => albumsDir);
  const rel = path.relative(realRoot, path.dirname(absPath)).split(path.sep).join('/');
  const node = index.node(rel);
  return isAlbum(node) ? node : undefined;
}
