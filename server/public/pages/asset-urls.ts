import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Versioned URLs for client assets (`/assets/site.css?v=1a2b3c4d`), so they can be cached
 * for a year and still change on deploy. Hashes are computed once per file and process.
 */
export function createAssetUrls(roots: Readonly<Record<string, string>>): (url: string) => string {
  const cache = new Map<string, string>();
  return (url) => {
    let versioned = cache.get(url);
    if (versioned !== undefined) return versioned;
    const prefix = Object.keys(roots).find((p) => url.startsWith(p));
    versioned = url;
    if (prefix) {
      try {
        const file = path.join(roots[prefix]!, url.slice(prefix.length));
        const hash = crypto.createHash('sha1').update(fs.readFileSync(file)).digest('hex').slice(0, 10);
        versioned = `${url}?v=${hash}`;
      } catch {
        // A missing asset keeps its plain URL: the page still renders, the 404 shows in dev tools.
      }
    }
    cache.set(url, versioned);
    return versioned;
  };
}
