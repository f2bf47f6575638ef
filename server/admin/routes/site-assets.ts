import fs from 'node:fs/promises';
import path from 'node:path';
import { Router } from 'express';
import sharp, { type OutputInfo } from 'sharp';
import { commitTempFile, renameDurably, tempNameFor } from '../../core/fs-atomic.js';
import { badRequest, missingParameter } from '../../core/errors.js';
import { MEDIA_EXTENSIONS, WEB_IMAGE_EXTENSIONS, isImage, isWebImage, listExtensions } from '../../core/media-catalogue.js';
import { resolveExistingInside } from '../existing-file.js';
import type { AdminContext } from '../admin-context.js';
import { TRASH_DIR } from '../album-files.js';
import { listMediaFiles } from '../media-listing.js';
import { queryParam } from '../request-body.js';
import { receiveFiles } from '../uploads/receive-files.js';
import { storeUploads } from '../uploads/store-uploads.js';
import { RejectedUpload, verifyImage } from '../uploads/verify-media.js';
import { UPLOADS_DIR, answerUploads } from './media-upload.js';
import { hasControlCharacter } from '../../core/control-characters.js';

/** The asset folders of CONTENT_DIR/assets (README "Configuration": CONTENT_DIR). */
export const ASSET_KINDS = ['hero', 'cards', 'landing'] as const;
export type AssetKind = (typeof ASSET_KINDS)[number];

export const LANDING_FILE = 'landing.jpg';
/** The landing image is re-encoded no larger than this: it is a page background, not an original. */
const LANDING_MAX_EDGE = 3840;

export const assetsDir = (contentDir: string, kind: AssetKind) => path.join(contentDir, 'assets', kind);
export const assetUrl = (kind: AssetKind, name: string) => `/content-assets/${kind}/${encodeURIComponent(name)}`;

/** A `?name=` that names one image of an asset folder, nothing else. */
function assetName(raw: string | undefined): string {
  if (raw === undefined) throw missingParameter('name');
  if (raw.includes('/') || raw.includes('\\') || raw.startsWith('.') || hasControlCharacter(raw) || !isImage(raw)) {
    throw badRequest('Invalid parameter: name must be the file name of an image in the folder');
  }
  return raw;
}

/** GET/POST/DELETE /api/assets/hero and /api/assets/cards, and GET/POST /api/assets/landing. */
export function siteAssetsRoutes(ctx: AdminContext): Router {
  const router = Router();
  const { contentDir } = ctx.config;
  const tempDir = path.join(contentDir, UPLOADS_DIR);

  for (const kind of ['hero', 'cards'] as const) {
    const dir = assetsDir(contentDir, kind);

    router.get(`/api/assets/${kind}`, async (_req, res) => {
      const files = await listMediaFiles(dir, 'image');
      res.json(files.map(({ name, size, modified }) => ({ name, size, modified, url: assetUrl(kind, name) })));
    });

    router.post(`/api/assets/${kind}`, async (req, res) => {
      const received = await receiveFiles(req, res, {
        tempDir,
        maxFileBytes: ctx.uploads.maxFileBytes,
        maxFiles: ctx.uploads.maxFiles,
        accepts: isWebImage,
        // Served as they are, without thumbnails, and the public home page picks only these.
        refusal: `Only web images are accepted here (${listExtensions(WEB_IMAGE_EXTENSIONS)})`,
      });
      await fs.mkdir(dir, { recursive: true });
      answerUploads(res, await storeUploads(received, { destDir: dir, kind: 'image', queue: ctx.queue }));
    });

    // Deleting moves the file to CONTENT_DIR/.trash/<timestamp>/assets/<kind>/: a slip is recoverable.
    router.delete(`/api/assets/${kind}`, async (req, res) => {
      const name = assetName(queryParam(req, 'name'));
      const file = await resolveExistingInside(dir, name);
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const trashedTo = `${TRASH_DIR}/${stamp}/assets/${kind}/${name}`;
      await ctx.queue.run(dir, async () => {
        await fs.mkdir(path.join(contentDir, TRASH_DIR, stamp, 'assets', kind), { recursive: true });
        await renameDurably(file, path.join(contentDir, ...trashedTo.split('/')));
      });
      res.json({ deleted: name, trashedTo });
    });
  }

  // Beyond the documented routes: the page asks whether there is a landing image before showing it.
  router.get('/api/assets/landing', async (_req, res) => {
    const files = (await listMediaFiles(assetsDir(contentDir, 'landing'), 'image')).filter((f) => f.name === LANDING_FILE);
    res.json(files.map(({ name, size, modified }) => ({ name, size, modified, url: assetUrl('landing', name) })));
  });

  router.post('/api/assets/landing', async (req, res) => {
    const received = await receiveFiles(req, res, {
      tempDir,
      maxFileBytes: ctx.uploads.maxFileBytes,
      maxFiles: 1,
      // Any image the gallery reads: it is converted to JPEG anyway.
      accepts: isImage,
      refusal: `Only images are accepted here (${listExtensions(MEDIA_EXTENSIONS.image)})`,
    });
    const [skipped] = received.skipped;
    const [upload] = received.files;
    try {
      if (!upload) throw badRequest(skipped ? `"${skipped.originalName}": ${skipped.error}` : 'No file received: send it in the multipart field "files"');
      try {
        await verifyImage(upload.tempPath);
      } catch (err) {
        if (err instanceof RejectedUpload) throw badRequest(`"${upload.originalName}": ${err.message}`);
        throw err;
      }
      const dir = assetsDir(contentDir, 'landing');
      await fs.mkdir(dir, { recursive: true });
      const target = path.join(dir, LANDING_FILE);
      const info = await ctx.queue.run(target, async () => {
        const tmp = tempNameFor(target);
        let out: OutputInfo;
        try {
          // Always re-encoded: the file becomes a JPEG, upright, and loses its EXIF (GPS
          // included), which matters for the one image every visitor of the site sees.
          out = await sharp(upload.tempPath)
            .rotate()
            .resize({ width: LANDING_MAX_EDGE, height: LANDING_MAX_EDGE, fit: 'inside', withoutEnlargement: true })
            .jpeg({ quality: 88, mozjpeg: true })
            .toFile(tmp);
        } catch (err) {
          await fs.rm(tmp, { force: true });
          throw err;
        }
        await commitTempFile(tmp, target);
        return out;
      });
      res.status(201).json({ name: LANDING_FILE, width: info.width, height: info.height, size: info.size, url: assetUrl('landing', LANDING_FILE) });
    } finally {
      await Promise.all(received.files.map((f) => fs.rm(f.tempPath, { force: true })));
    }
  });

  return router;
}
