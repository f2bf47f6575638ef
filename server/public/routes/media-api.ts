import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import querystring from 'node:querystring';
import { type RequestHandler, Router } from 'express';
import { ANONYMOUS } from '../../core/access/visitor.js';
import { badRequest } from '../../core/errors.js';
import type { MetadataService, VideoInfo } from '../../media/metadata.js';
import type { EarlyAnswer } from '../front-door.js';
import type { MediaResolver, ResolvedMedia } from '../resolvers.js';
import type { WebVideoService } from '../../media/web-video.js';
import { webVideoUrl } from '../../core/urls.js';
import { visitorOf } from '../access/visitor.js';
import type { AskedThumbnail, ThumbnailAnswer } from './thumbnail-answer.js';

export interface MediaApiOptions {
  readonly metadata: MetadataService;
  /** Validates `path`, finds the file and enforces access (400/401/404). */
  readonly resolveMedia: MediaResolver;
  /** The web copies of videos, for the `webVideo` field of /api/video-info; absent, the field is left out. */
  readonly webVideos?: Pick<WebVideoService, 'request'>;
}

/** EXIF and video info URLs carry no version, so they are cached for a short while only. */
const METADATA_MAX_AGE = 300;

/**
 * GET /api/thumbnail?path=&size=&format= through Express: every request the front door leaves
 * to the app (see createPublicThumbnailRoute), asked with the request's own visitor, its
 * errors thrown to the one error handler. Mount with `app.use(router)`: the path is absolute.
 */
export function createThumbnailRouter(answer: ThumbnailAnswer): Router {
  const router = Router();
  router.get('/api/thumbnail', async function thumbnail(req, res) {
    // Express parses req.query again on every access: read once, here.
    await answer.send(req, res, await answer.ask(req.query, visitorOf(req)));
  });
  return router;
}

/**
 * The same answer asked by the front door (server/public/front-door.ts), before Express, for
 * a plain GET of a public album's tile: the hot path of an album page. Express costs a cache
 * hit more than the work itself (it swaps the prototypes of req and res, which slows every
 * later property access, builds a final handler, then walks the middleware stack). Measured on
 * two shared cores with wrk: a cached small thumbnail (47 KB) went out through Express at
 * 0.3-0.45x the rate of a bare `http` + `fs.createReadStream` server, and at 0.75x to 1.3x of
 * it this way (`npm run bench`; the spread is the machine's other load). A public tile not
 * made yet is made here too: on a cold album page, two decodes fill both cores, and whatever
 * the main thread spends on a request (Express's walk, the access and cache look-ups done a
 * second time) comes out of theirs.
 *
 * Only the routing differs from the Express route. The checks are asked for a visitor
 * holding nothing, so whatever they let through anyone may see; whatever they refuse (400,
 * 401: this visitor may hold access, 404) goes on to the app, as do conditional requests,
 * HEAD and anything unusual in the URL, all of which the route answers with the same answer.
 * Once a public tile is resolved, the answer is this request's whoever asks: an error it
 * meets rejects, and the front door hands it to the app's one error handler.
 */
export function createPublicThumbnailRoute(answer: ThumbnailAnswer): EarlyAnswer {
  async function answerPublic(req: IncomingMessage, res: ServerResponse, search: string): Promise<boolean> {
    let asked: AskedThumbnail;
    try {
      // The parser Express uses for req.query (its 'simple' query parser).
      asked = await answer.ask(querystring.parse(search), ANONYMOUS);
    } catch {
      return false;
    }
    if (asked.media.protected) return false;
    await answer.send(req, res, asked);
    return true;
  }

  return function answerPublicThumbnail(req, res) {
    if (req.method !== 'GET') return false;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    if (q < 0 || url.slice(0, q) !== '/api/thumbnail') return false;
    if (req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined) return false;
    return answerPublic(req, res, url.slice(q + 1));
  };
}

/** `private` for anything of a protected album: a shared cache must never keep it. */
function cacheControl(isProtected: boolean, maxAge: number): string {
  return `${isProtected ? 'private' : 'public'}, max-age=${maxAge}`;
}

/**
 * GET /api/exif?path=, GET /api/video-info?path= (docs/api.md#public-server): JSON records,
 * documents like every answer of the routes mounted after the document headers
 * (server/public/app.ts). Mount with `app.use(router)`: the paths are absolute.
 */
export function createMediaApiRouter({ metadata, resolveMedia, webVideos }: MediaApiOptions): Router {
  const router = Router();

  /** A JSON record about one media file of the right kind, cached briefly (`private` when protected). */
  const metadataRoute = (kind: 'image' | 'video', read: (media: ResolvedMedia) => Promise<unknown>): RequestHandler =>
    async function metadataRecord(req, res) {
      const media = await resolveMedia(req, req.query.path, 'view');
      if (media.kind !== kind) throw badRequest(`Invalid parameter: path must name ${kind === 'image' ? 'an image' : 'a video'}`);
      const record = await read(media);
      res.set('Cache-Control', cacheControl(media.protected, METADATA_MAX_AGE));
      res.json(record);
    };

  router.get(
    '/api/exif',
    metadataRoute('image', async (m) => {
      const record = await metadata.exif(m.absPath);
      return m.hideLocation ? withoutLocation(record) : record;
    }),
  );
  router.get(
    '/api/video-info',
    metadataRoute('video', async (m) => {
      const info = publicVideoInfo(await metadata.videoInfo(m.absPath));
      if (!webVideos) return info;
      // Asking is what starts a copy: whoever looks at a video's details is about to play it.
      const [{ kind, state }, version] = await Promise.all([webVideos.request(m), fs.promises.stat(m.absPath)]);
      return { ...info, webVideo: { kind, state, url: kind === null ? null : webVideoUrl(m.relPath, version) } };
    }),
  );

  return router;
}

/** Names of fields that would tell where a photo was taken. */
const LOCATION_FIELD = /gps|location|latitude|longitude|altitude|city|country/i;

/**
 * The EXIF record of a photo whose album hides locations (docs/api.md#location-privacy):
 * the record has no such field today; this keeps one added later from reaching those visitors.
 */
function withoutLocation<T extends object>(record: T): Partial<T> {
  return Object.fromEntries(Object.entries(record).filter(([name]) => !LOCATION_FIELD.test(name))) as Partial<T>;
}

/** The fields of docs/api.md#get-apivideo-infopath: the probe's other facts are the server's business. */
function publicVideoInfo({ duration, width, height, codec, fps }: VideoInfo) {
  return { duration, width, height, codec, fps };
}
