import path from 'node:path';
import type { Request } from 'express';
import type { AlbumIndex } from '../albums/album-index.js';
import { isAlbum, isProtected, type TreeNode } from '../albums/album-tree.js';
import { notFound, unauthorized } from '../http-error.js';
import { mediaKind } from '../media-types.js';
import { hasHiddenSegment, parseRelativePath, resolveInside } from '../paths.js';
import type { AlbumResolver, MediaResolver, ResolvedAlbum, ResolvedMedia } from '../resolvers.js';
import { type AccessResult, resolveAccess } from './resolve-access.js';
import { heldTokens, urlToken } from './tokens.js';

/** Access of the visitor making `req` to a node of the tree. */
export function accessOf(req: Request, node: TreeNode): AccessResult {
  return resolveAccess(node, heldTokens(req), urlToken(req));
}

/**
 * Resolvers used by every route that reveals album content. The order of checks matters:
 * the album's access is decided before the file is looked up, so a locked album answers
 * 401 whether or not a guessed file name exists in it.
 */
export function createResolvers(index: AlbumIndex, albumsDir: string): { resolveMedia: MediaResolver; resolveAlbum: AlbumResolver } {
  function requireAccess(req: Request, node: TreeNode): void {
    if (!accessOf(req, node).granted) throw unauthorized('This album is protected: unlock it first');
  }

  const resolveMedia: MediaResolver = async (req, raw) => {
    const relPath = parseRelativePath(raw);
    const slash = relPath.lastIndexOf('/');
    const kind = mediaKind(relPath);
    if (slash < 0 || kind === undefined || hasHiddenSegment(relPath)) throw notFound('File not found');
    const album = index.album(relPath.slice(0, slash));
    if (!album) throw notFound('File not found');
    requireAccess(req, album);
    const name = relPath.slice(slash + 1);
    if (!album.media.some((m) => m.name === name)) throw notFound('File not found');
    const absPath = await resolveInside(albumsDir, relPath);
    // A symlink may lead into another album: that album's access applies as well.
    const realAlbum = await albumOfRealPath(index, albumsDir, absPath);
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
  const realRoot = await resolveInside(albumsDir, '.').catch(() => albumsDir);
  const rel = path.relative(realRoot, path.dirname(absPath)).split(path.sep).join('/');
  const node = index.node(rel);
  return isAlbum(node) ? node : undefined;
}
