import { Router } from 'express';
import { hasControlCharacter } from '../../core/control-characters.js';
import { badRequest } from '../../core/errors.js';
import { hasHiddenSegment, parseRelativePath } from '../../core/paths.js';
import type { AdminContext } from '../admin-context.js';
import { jsonObjectBody } from '../request-body.js';

/** More albums side by side than anyone arranges by hand. */
const MAX_SIBLINGS = 1000;

const invalid = (problem: string) => badRequest(`Invalid album order: ${problem}`);

/** `{parent, albums}` checked: the folder or album holding them ('' for the top), and their folder names in the new order. */
function parseOrder(body: Record<string, unknown>): { parent: string; names: string[] } {
  const unknown = Object.keys(body).filter((key) => key !== 'parent' && key !== 'albums');
  if (unknown.length > 0) throw invalid(`unknown field "${unknown[0]}"`);
  const { parent: rawParent = '', albums } = body;
  if (typeof rawParent !== 'string') throw invalid('parent must be a path ("" for the top level)');
  const parent = rawParent === '' ? '' : parseRelativePath(rawParent, 'parent');
  if (hasHiddenSegment(parent)) throw invalid('parent must not name a hidden folder');
  if (!Array.isArray(albums) || albums.length === 0 || albums.length > MAX_SIBLINGS) {
    throw invalid(`albums must be a list of 1 to ${MAX_SIBLINGS} folder names, in the new order`);
  }
  const names = albums.map((name) => {
    if (typeof name !== 'string' || name === '' || name === '..' || name.startsWith('.') || /[/\\]/.test(name) || hasControlCharacter(name)) {
      throw invalid(`${JSON.stringify(name)} is not the folder name of a child album`);
    }
    return name;
  });
  if (new Set(names).size !== names.length) throw invalid('an album is named twice');
  return { parent, names };
}

/**
 * PUT /api/album-order `{parent, albums}`: the child albums of a folder or album in the order
 * given, written as each one's `order` (1, 2, 3…; docs/api.md#albumjson), so the gallery lists
 * them so. Every album is found and read before any is changed (404, 409); the album.json files
 * are then written holding all their queues, and only where the order changes.
 */
export function albumOrderRoutes(ctx: AdminContext): Router {
  const router = Router();

  router.put('/api/album-order', async (req, res) => {
    const { parent, names } = parseOrder(jsonObjectBody(req));
    const paths = names.map((name) => (parent === '' ? name : `${parent}/${name}`));
    // Each one found and readable (404, 409) before the first is written.
    for (const albumPath of paths) await ctx.albums.read(albumPath);
    // All their queues held at once: two orders sent together (quick ↑ ↑, two tabs) are written
    // one after the other, never interleaved into a mix with two albums at the same place.
    const written = await ctx.albums.withAlbums(paths, async (held) => {
      const done: Array<{ path: string; order: number }> = [];
      for (const [i, album] of held.entries()) {
        const order = i + 1;
        await album.edit((record) => (record.order === order ? undefined : { ...record, order }));
        done.push({ path: album.path, order });
      }
      return done;
    });
    await ctx.refreshIndex();
    res.json({ parent, albums: written });
  });

  return router;
}
