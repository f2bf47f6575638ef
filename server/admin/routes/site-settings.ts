import fs from 'node:fs/promises';
import path from 'node:path';
import { Router } from 'express';
import { writeFileAtomic } from '../../core/fs-atomic.js';
import { HttpError, badRequest } from '../../core/errors.js';
import { isMissing } from '../../core/paths.js';
import {
  SITE_FILE,
  type SiteFile,
  SiteFileError,
  type SiteSettings,
  checkSitePatch,
  parseSiteFile,
  publicUrlWarning,
  siteSettingsOf,
} from '../../core/site-settings.js';
import type { AdminContext } from '../admin-context.js';
import { jsonObjectBody } from '../request-body.js';

/** What GET and PUT /api/site answer: the settings in effect, and why the public address will not do, if it will not. */
function siteAnswer(file: SiteFile): Omit<SiteSettings, 'publicUrl'> & { publicUrl: string | null; publicUrlWarning: string | null } {
  const { settings } = siteSettingsOf(file);
  return { ...settings, publicUrl: settings.publicUrl || null, publicUrlWarning: publicUrlWarning(settings.publicUrl) ?? null };
}

/**
 * GET/PUT /api/site: the site's name, landing subtitle, accent colour and public address, in
 * CONTENT_DIR/site.json (docs/api.md#sitejson). A change is checked whole before anything is
 * written, then read-modify-written in the admin's one queue, atomically.
 */
export function siteSettingsRoutes(ctx: AdminContext): Router {
  const router = Router();
  const file = path.join(ctx.config.contentDir, SITE_FILE);

  async function read(): Promise<SiteFile> {
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (err) {
      if (isMissing(err)) return {};
      throw err;
    }
    try {
      return parseSiteFile(text);
    } catch (err) {
      throw err instanceof SiteFileError ? new HttpError(500, err.message) : err;
    }
  }

  router.get('/api/site', async (_req, res) => {
    res.json(siteAnswer(await read()));
  });

  router.put('/api/site', async (req, res) => {
    const { patch, problems } = checkSitePatch(jsonObjectBody(req));
    if (problems.length > 0) throw badRequest(`Invalid site settings: ${problems.join('; ')}`);
    const next = await ctx.queue.run(file, async () => {
      const merged: Record<string, unknown> = { ...(await read()), ...patch };
      for (const [key, value] of Object.entries(patch)) if (value === undefined) delete merged[key];
      await fs.mkdir(path.dirname(file), { recursive: true });
      await writeFileAtomic(file, `${JSON.stringify(merged, null, 2)}\n`);
      return merged;
    });
    res.json(siteAnswer(next));
  });

  return router;
}
