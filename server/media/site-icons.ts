import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../core/fs-atomic.js';
import type { MediaPool } from './pool.js';

export interface SiteIcons {
  /** The PNG of `svg` at `size` × `size` pixels: its path in the cache, made first if need be. */
  png(svg: string, size: number): Promise<string>;
}

/**
 * The site's app icons (docs/api.md#site-identity), drawn by the pool from the site's SVG
 * icon and cached under `CACHE_DIR/site-icons/`, named by a hash of the SVG: a new name or
 * colour is a new file, and the same one is made once however many ask at the same moment.
 */
export function createSiteIcons(opts: { readonly cacheDir: string; readonly pool: Pick<MediaPool, 'siteIcon'> }): SiteIcons {
  const dir = path.join(opts.cacheDir, 'site-icons');
  const jobs = new Map<string, Promise<string>>();

  async function make(svg: string, hash: string, size: number, dest: string): Promise<string> {
    try {
      await fs.access(dest);
      return dest;
    } catch {
      // Not made yet.
    }
    const src = path.join(dir, `${hash}.svg`);
    await fs.mkdir(dir, { recursive: true });
    await writeFileAtomic(src, svg);
    await opts.pool.siteIcon({ src, dest, size });
    return dest;
  }

  return {
    png(svg, size) {
      const hash = crypto.createHash('sha1').update(svg).digest('hex').slice(0, 16);
      const dest = path.join(dir, `${hash}-${size}.png`);
      let job = jobs.get(dest);
      if (!job) {
        job = make(svg, hash, size, dest).finally(() => jobs.delete(dest));
        jobs.set(dest, job);
      }
      return job;
    },
  };
}
