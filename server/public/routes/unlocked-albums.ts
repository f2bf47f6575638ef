import { Router } from 'express';
import type { AlbumIndex } from '../../core/albums/album-index.js';
import type { TreeNode } from '../../core/albums/album-tree.js';
import { accessOf } from '../access/gallery-access.js';
import { cardFor, lockedCardsOf, photosCardLayout } from '../pages/cards.js';
import type { MediaStats } from '../pages/media-stats.js';
import { type VisitorLanguage, varyByLanguage } from '../pages/visitor-language.js';

export interface UnlockedAlbumsDeps {
  readonly index: AlbumIndex;
  /** File identities for the covers' thumbnail versions, shared with the pages. */
  readonly stats: MediaStats;
  /** The visitor's language: the subtitles are written in it. */
  readonly language: VisitorLanguage;
}

/** One album of `/api/unlocked-albums`: what its padlock on /photos becomes. */
export interface UnlockedAlbumView {
  readonly path: string;
  /** The album page, as /photos links it: the script finds the card by it. */
  readonly url: string;
  /** '12 photos · 1 video', as the card of an open album says, in the visitor's language. */
  readonly subtitle: string;
  /** The cover through the thumbnail route, which checks access again for each image. */
  readonly cover: { readonly src: string; readonly srcset: string; readonly webpSrcset: string; readonly sizes: string } | null;
}

/**
 * `GET /api/unlocked-albums` (docs/api.md#get-apiunlocked-albums): of the albums /photos shows
 * as padlocks (the page is one for everyone, cached), those this visitor may open, with
 * their covers. Access is the resolver's, decided afresh on every request; an album the
 * visitor cannot open is not in the answer at all (neither its path nor its count), and the
 * answer is for this visitor only.
 */
export function createUnlockedAlbumsRouter({ index, stats, language }: UnlockedAlbumsDeps): Router {
  const router = Router();
  router.get('/api/unlocked-albums', async function unlockedAlbums(req, res) {
    const mayOpen = (node: TreeNode) => accessOf(req, node).granted;
    const open = lockedCardsOf(index.root).filter(mayOpen);
    const { t } = language(req);
    const albums = await Promise.all(
      open.map(async (album): Promise<UnlockedAlbumView> => {
        // The cover is one that opens with the album (coverOf never takes one from a child with its own password).
        const card = await cardFor(album, false, index, stats, t, undefined, photosCardLayout(album));
        return { path: album.path, url: card.url, subtitle: card.subtitle, cover: card.cover ?? null };
      }),
    );
    res.set('Cache-Control', 'private, no-store');
    varyByLanguage(res);
    res.json({ albums });
  });
  return router;
}
