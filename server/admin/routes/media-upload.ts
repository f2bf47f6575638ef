import path from 'node:path';
import { type Request, type Response, Router } from 'express';
import { HttpError, badRequest } from '../../core/errors.js';
import { MEDIA_EXTENSIONS, listExtensions, mediaKind } from '../../core/media-catalogue.js';
import type { AdminContext } from '../admin-context.js';
import { albumPathParam } from '../album-paths.js';
import { listMediaFiles, mediaUrl } from '../media-listing.js';
import { receiveFiles } from '../uploads/receive-files.js';
import { type UploadResult, storeUploads } from '../uploads/store-uploads.js';

/** Where uploads are streamed before they are verified: on the albums' filesystem, hidden from the gallery. */
export const UPLOADS_DIR = '.uploads';

/**
 * The per-file results of an upload: 201 when at least one file was stored, else 400 with
 * the reasons (every file refused, or none sent).
 */
export function answerUploads(res: Response, results: readonly UploadResult[]): void {
  if (results.length === 0) throw badRequest('No files received: send them in the multipart field "files"');
  const stored = results.filter((r) => r.ok).length;
  if (stored === 0) {
    const reasons = results.map((r) => `"${r.name}": ${r.ok ? 'stored' : r.error}`).join('; ');
    throw new HttpError(400, `No file was stored: ${reasons}`, { body: { stored, rejected: results.length, results } });
  }
  res.status(201).json({ stored, rejected: results.length - stored, results });
}

/** GET/POST /api/photos/{path} and /api/videos/{path}: list an album's photos or videos, and upload more. */
export function mediaUploadRoutes(ctx: AdminContext): Router {
  const router = Router();

  for (const [route, kind] of [
    ['/api/photos', 'image'],
    ['/api/videos', 'video'],
  ] as const) {
    router.get(`${route}/*albumPath`, async (req, res) => {
      const albumPath = albumPathParam(req);
      const files = await listMediaFiles(await ctx.albums.locate(albumPath), kind);
      res.json(files.map((f) => ({ ...f, url: mediaUrl(albumPath, f.name) })));
    });

    router.post(`${route}/*albumPath`, async (req: Request, res: Response) => {
      // The album is checked before the body is read: no upload is streamed for nothing.
      const dir = await ctx.albums.locate(albumPathParam(req));
      const received = await receiveFiles(req, res, {
        tempDir: path.join(ctx.config.albumsDir, UPLOADS_DIR),
        maxFileBytes: ctx.uploads.maxFileBytes,
        maxFiles: ctx.uploads.maxFiles,
        accepts: (name) => mediaKind(name) === kind,
        refusal: `Only ${kind === 'image' ? 'photos' : 'videos'} are accepted here (${listExtensions(MEDIA_EXTENSIONS[kind])})`,
      });
      const results = await storeUploads(received, { destDir: dir, kind, queue: ctx.queue, decodeHeif: ctx.decodeHeif });
      if (results.some((r) => r.ok)) await ctx.refreshIndex();
      answerUploads(res, results);
    });
  }

  return router;
}
