import { Router } from 'express';
import { badRequest, missingParameter } from '../../core/errors.js';
import { hasHiddenSegment, parseRelativePath } from '../../core/paths.js';
import type { AdminContext } from '../admin-context.js';
import { albumPathParam } from '../album-paths.js';
import { MediaActions } from '../media-actions/media-actions.js';
import { parseMediaTarget } from '../media-actions/media-target.js';
import { jsonObjectBody, queryParam } from '../request-body.js';

/** The actions of `POST /api/media/{path}?action=…`, each with the one body field it takes. */
const ACTIONS = { rename: 'name', move: 'album', rotate: 'degrees', caption: 'caption' } as const;
type Action = keyof typeof ACTIONS;

const isAction = (value: string): value is Action => Object.hasOwn(ACTIONS, value);

/** An album path given in a body (`{"album": "2024/lisbon"}`), checked as the route's paths are. */
function albumPathOf(raw: unknown): string {
  const rel = parseRelativePath(raw, 'album');
  if (hasHiddenSegment(rel)) throw badRequest('Invalid parameter: album must not name a hidden folder');
  return rel;
}

/**
 * DELETE /api/media/{album path}/{file} and POST /api/media/{album path}/{file}?action=
 * rename|move|rotate|caption: one photo or video of an album (docs/api.md#admin-server).
 */
export function mediaActionRoutes(ctx: AdminContext): Router {
  const router = Router();
  const actions = new MediaActions({ albumsDir: ctx.config.albumsDir, cacheDir: ctx.config.cacheDir, albums: ctx.albums, log: ctx.log });

  router.delete('/api/media/*albumPath', async (req, res) => {
    const result = await actions.remove(parseMediaTarget(albumPathParam(req)));
    await ctx.refreshIndex();
    res.json(result);
  });

  router.post('/api/media/*albumPath', async (req, res) => {
    const target = parseMediaTarget(albumPathParam(req));
    const action = queryParam(req, 'action');
    if (action === undefined) throw missingParameter('action');
    if (!isAction(action)) throw badRequest(`Invalid parameter: action must be one of ${Object.keys(ACTIONS).join(', ')}`);
    const body = jsonObjectBody(req);
    const field = ACTIONS[action];
    const unknown = Object.keys(body).filter((key) => key !== field);
    if (unknown.length > 0) throw badRequest(`Invalid ${action}: unknown field "${unknown[0]}" (the body is {"${field}": …})`);
    if (!Object.hasOwn(body, field)) throw badRequest(`Invalid ${action}: the body must give "${field}"`);
    const value = body[field];
    let result: unknown;
    switch (action) {
      case 'rename':
        result = await actions.rename(target, value);
        break;
      case 'move':
        result = await actions.move(target, value, albumPathOf);
        break;
      case 'rotate':
        result = await actions.rotate(target, value);
        break;
      case 'caption':
        result = await actions.caption(target, value);
        break;
    }
    await ctx.refreshIndex();
    res.json(result);
  });

  return router;
}
