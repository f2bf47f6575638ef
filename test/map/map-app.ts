import type { Express } from 'express';
import type { Album } from '../../server/core/albums/album-tree.js';
import { createResolvers } from '../../server/public/access/gallery-access.js';
import { createPasswordLimiter } from '../../server/public/access/password-limiter.js';
import { createApp } from '../../server/public/app.js';
import type { PlacedFile, PositionedFiles } from '../../server/core/map-points.js';
import { quietLogger } from '../support/capture-logger.js';
import type { GalleryFixture } from '../support/gallery-fixture.js';

export type Positions = Readonly<Record<string, { lat: number; lon: number }>>;

/**
 * The library's `positioned` over the real album tree: every file of the albums asked for
 * that has a position in `positions` (by its path). What the library keeps is not under test
 * with it; which albums the map asks for, and what the map makes of the answer, is.
 */
export function placesFrom(positions: Positions): PositionedFiles {
  return {
    *positioned(albums: readonly Album[]): Iterable<PlacedFile> {
      for (const album of albums) {
        for (const item of album.media) {
          const position = positions[`${album.path}/${item.name}`];
          if (position) yield { album, item, sortTime: Date.parse('2024-05-01'), position };
        }
      }
    },
  };
}

/** The public app (pages, access, the map) of a started fixture's tree, its map's places from `positions`. */
export function publicAppWithPlaces(fx: GalleryFixture, positions: Positions): Express {
  const { index, home, linkUsage } = fx.gallery;
  const { resolveMedia, readableMedia, locateMedia } = createResolvers(index, fx.albumsDir);
  return createApp({
    config: fx.config,
    index,
    home,
    limiter: createPasswordLimiter(),
    resolveMedia,
    readableMedia,
    locateMedia,
    linkUsage,
    places: placesFrom(positions),
    log: quietLogger,
  }).app;
}
