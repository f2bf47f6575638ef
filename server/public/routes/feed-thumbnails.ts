import { Router } from 'express';
import { liveLink } from '../../core/access/secret-directory.js';
import type { Visitor } from '../../core/access/visitor.js';
import type { AlbumIndex } from '../../core/albums/album-index.js';
import { notFound } from '../../core/errors.js';
import type { ThumbnailAnswer } from './thumbnail-answer.js';

/**
 * GET /s/<id>/feed/thumbnail?path=&size=&v= (docs/api.md#feeds): the thumbnails of a share
 * link's feed, answered with that link alone. A feed reader fetches them without the browser's
 * cookies, where /api/thumbnail would refuse a protected album's. The same answer as
 * /api/thumbnail (thumbnail-answer.ts): the same checks, bytes and caching (`private`); only
 * the visitor differs, and it holds nothing but the link. A link that no longer works opens
 * nothing: 404, as its feed.
 */
export function createFeedThumbnailRouter(deps: { readonly index: Pick<AlbumIndex, 'root'>; readonly answer: ThumbnailAnswer }): Router {
  const router = Router();
  router.get('/s/:id/feed/thumbnail', async function linkFeedThumbnail(req, res) {
    const id = req.params.id;
    if (!liveLink(deps.index.root, id)) throw notFound('No such feed');
    const visitor: Visitor = { held: [], urlToken: undefined, links: [id] };
    await deps.answer.send(req, res, await deps.answer.ask(req.query, visitor));
  });
  return router;
}
