import path from 'node:path';
import { Router } from 'express';
import { adoptFolders, findAdoptable } from '../../core/albums/adopt.js';
import { albumFromFolderName } from '../../core/albums/folder-name.js';
import { badRequest } from '../../core/errors.js';
import { hasHiddenSegment, parseRelativePath } from '../../core/paths.js';
import type { AdminContext } from '../admin-context.js';
import { jsonObjectBody } from '../request-body.js';

/** More folders than one click should adopt is still fine: "all" of a 10,000-folder library. */
const MAX_FOLDERS = 100_000;

const invalid = (problem: string) => badRequest(`Invalid adoption: ${problem}`);

/** `{paths, password?, hidden?}` checked. */
function parseAdoption(body: Record<string, unknown>): { paths: string[]; password: string | undefined; hidden: boolean } {
  const unknown = Object.keys(body).filter((key) => !['paths', 'password', 'hidden'].includes(key));
  if (unknown.length > 0) throw invalid(`unknown field "${unknown[0]}"`);
  const { paths, password, hidden = false } = body;
  if (!Array.isArray(paths) || paths.length === 0 || paths.length > MAX_FOLDERS) throw invalid(`paths must be a list of 1 to ${MAX_FOLDERS} folder paths`);
  const checked = paths.map((p) => {
    const rel = parseRelativePath(p, 'paths');
    if (hasHiddenSegment(rel)) throw invalid(`${JSON.stringify(p)} is a hidden folder`);
    return rel;
  });
  if (password !== undefined && password !== null && (typeof password !== 'string' || password === ''))
    throw invalid('password must be a non-empty string, or absent');
  if (typeof hidden !== 'boolean') throw invalid('hidden must be a boolean');
  return { paths: [...new Set(checked)], password: typeof password === 'string' ? password : undefined, hidden };
}

/**
 * The folders of photos that are not albums yet, and adopting them (README "Your own photos";
 * server/core/albums/adopt.ts, as `npm run adopt` does):
 * - GET /api/adoptable: `[{path, title, date, media}]`, what the last scan found, with the
 *   title and date each would get;
 * - POST /api/adopt `{paths, password?, hidden?}`: each folder looked at again (one that became
 *   an album, lost its photos or is gone is reported, not adopted), then adopted; 200
 *   `{adopted: [paths], skipped: [{path, reason}]}`.
 */
export function adoptFolderRoutes(ctx: AdminContext): Router {
  const router = Router();

  router.get('/api/adoptable', (_req, res) => {
    res.json(
      ctx.index.adoptable.map(({ path: rel, media }) => {
        const { title, date } = albumFromFolderName(path.posix.basename(rel), path.posix.basename(path.posix.dirname(rel)));
        return { path: rel, title, date: date ?? null, media };
      }),
    );
  });

  router.post('/api/adopt', async (req, res) => {
    const { paths, password, hidden } = parseAdoption(jsonObjectBody(req));
    const albumsDir = ctx.config.albumsDir;
    const wanted = new Set(paths);
    // Looked at again now: only these folders themselves, never what lies below them.
    const found = (await Promise.all(paths.map((p) => findAdoptable(albumsDir, [p]).catch(() => [])))).flat().filter((f) => wanted.has(f.path));
    const outcomes = await adoptFolders(albumsDir, found, { password, hidden });
    const adopted = outcomes.filter((o) => o.adopted).map((o) => o.folder.path);
    const skipped = [
      ...outcomes.flatMap((o) => (o.adopted ? [] : [{ path: o.folder.path, reason: o.reason }])),
      ...paths.filter((p) => !found.some((f) => f.path === p)).map((p) => ({ path: p, reason: 'not a folder of photos without an album.json (any more)' })),
    ];
    if (adopted.length > 0) ctx.log.info(`adopted ${adopted.length} folder${adopted.length === 1 ? '' : 's'} as albums`);
    await ctx.refreshIndex();
    res.json({ adopted, skipped });
  });

  return router;
}
