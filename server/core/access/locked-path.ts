import type { AlbumIndex } from '../albums/album-index.js';
import type { Album } from '../albums/album-tree.js';
import { resolveAccess } from './resolve-access.js';
import type { Visitor } from './visitor.js';

/**
 * The album whose password form answers for `relPath` (an album, folder or file path, which
 * may not exist), or undefined when nothing on the way is locked to this visitor: the
 * outermost album on the path the visitor cannot open (docs/api.md#access).
 *
 * What lies below a locked album is the owner's secret: its names, its titles, even whether a
 * guessed path exists. So a visitor who cannot open the requested album, and one asking for a
 * path that does not exist below a locked album, both get the answer of the outermost locked
 * album, the last one they can see listed: the same status and the same form. A child with a
 * password of its own shows its own form only to a visitor who can open the album above it.
 *
 * The walk stops at the first segment that is no node of the tree, answering undefined when
 * everything above it opens: the caller's 404 then says no more than the listing already did.
 */
export function outermostLock(index: Pick<AlbumIndex, 'node'>, relPath: string, visitor: Visitor, now = Date.now()): Album | undefined {
  if (relPath === '') return undefined;
  const segments = relPath.split('/');
  for (let depth = 1; depth <= segments.length; depth++) {
    const node = index.node(segments.slice(0, depth).join('/'));
    if (!node) return undefined;
    const access = resolveAccess(node, visitor, now);
    if (!access.granted) return access.blocking;
  }
  return undefined;
}
