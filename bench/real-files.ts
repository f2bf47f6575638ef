/**
 * Real photos from a sample collection, looked at as a browser and as the gallery see them:
 * `node --import tsx bench/real-files.ts DIR` (every photo under DIR, e.g. a checkout of a
 * public EXIF sample collection; nothing of it is kept).
 *
 * For each photo: does Chromium display it (an <img> of the original, as served by the
 * gallery: decoded, its natural size read), and what does the gallery answer: its small
 * thumbnail (200 or not), its EXIF record (200 or not) and the size the album page gives its
 * tile. A photo the browser displays is *refused* when the gallery answers its thumbnail or
 * EXIF with an error, and *misread* when the page's size is not the size the browser shows
 * (EXIF orientation applied by both). Formats Chromium does not display (HEIC, TIFF) are
 * counted apart: the gallery must still show them, and a refusal of one is listed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser } from '../test/support/browser.js';
import { isImage } from '../server/core/media-catalogue.js';
import { startGallery } from './server-process.js';

interface Seen {
  readonly rel: string;
  readonly browser: { width: number; height: number } | null;
  readonly thumbnail: number;
  readonly exif: number;
  readonly page: { width: number; height: number } | null;
}

async function main(): Promise<void> {
  const source = process.argv[2];
  if (!source || !fs.statSync(source).isDirectory()) throw new Error('usage: bench/real-files.ts DIR');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'real-files-'));
  const albumsDir = path.join(root, 'albums');
  // One album per folder of the collection; names kept, dot-names left out as the gallery does.
  const files: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const entryRel = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path.join(dir, entry.name), entryRel);
      else if (isImage(entry.name) && fs.statSync(path.join(dir, entry.name)).size > 0) files.push(entryRel);
    }
  };
  walk(source, '');
  for (const rel of files) {
    const albumRel = path.posix.dirname(rel) === '.' ? 'top' : `top/${path.posix.dirname(rel)}`;
    const dir = path.join(albumsDir, ...albumRel.split('/'));
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'album.json'), JSON.stringify({ title: albumRel }));
    fs.copyFileSync(path.join(source, ...rel.split('/')), path.join(dir, path.posix.basename(rel)));
  }
  const contentDir = path.join(root, 'content');
  fs.mkdirSync(contentDir);
  const server = await startGallery({ albumsDir, cacheDir: path.join(root, 'cache'), contentDir, logFile: path.join(root, 'server.log') });
  const browser = await launchBrowser();
  const seen: Seen[] = [];
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}/photos`);
    const pages = new Map<string, string>();
    for (const rel of files) {
      const albumRel = path.posix.dirname(rel) === '.' ? 'top' : `top/${path.posix.dirname(rel)}`;
      const mediaPath = `${albumRel}/${path.posix.basename(rel)}`;
      const original = `/albums/${mediaPath.split('/').map(encodeURIComponent).join('/')}`;
      const shown = await page.evaluate(async (src) => {
        const img = new Image();
        img.src = src;
        try {
          await img.decode();
          return { width: img.naturalWidth, height: img.naturalHeight };
        } catch {
          return null;
        }
      }, original);
      const q = encodeURIComponent(mediaPath);
      const thumbnail = (await fetch(`${server.url}/api/thumbnail?path=${q}&size=small`)).status;
      const exif = (await fetch(`${server.url}/api/exif?path=${q}`)).status;
      // The page's sizes come from a background pass: asked until the tile has them (or 20 s).
      let size: { width: number; height: number } | null = null;
      for (let tries = 0; tries < 40 && size === null; tries++) {
        if (!pages.has(albumRel) || tries > 0)
          pages.set(albumRel, await (await fetch(`${server.url}/photos/${albumRel.split('/').map(encodeURIComponent).join('/')}`)).text());
        const name = path.posix.basename(rel).replaceAll('&', '&amp;');
        const tile = new RegExp(`data-name="${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*data-width="(\\d+)" data-height="(\\d+)"`).exec(
          pages.get(albumRel)!,
        );
        if (tile) size = { width: Number(tile[1]), height: Number(tile[2]) };
        else await new Promise((r) => setTimeout(r, 500));
      }
      seen.push({ rel, browser: shown, thumbnail, exif, page: size });
    }
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }

  const displayed = seen.filter((s) => s.browser !== null);
  const refused = displayed.filter((s) => s.thumbnail !== 200 || s.exif !== 200);
  const misread = displayed.filter(
    (s) => !refused.includes(s) && (s.page === null || s.page.width !== s.browser!.width || s.page.height !== s.browser!.height),
  );
  const other = seen.filter((s) => s.browser === null);
  const line = (s: Seen) =>
    `  ${s.rel}: browser ${s.browser ? `${s.browser.width}x${s.browser.height}` : 'no'}, thumbnail ${s.thumbnail}, exif ${s.exif}, page ${s.page ? `${s.page.width}x${s.page.height}` : 'none'}`;
  console.log(`${seen.length} photos; ${displayed.length} displayed by Chromium`);
  console.log(`refused by the gallery: ${refused.length}`);
  for (const s of refused) console.log(line(s));
  console.log(`misread by the gallery (size): ${misread.length}`);
  for (const s of misread) console.log(line(s));
  console.log(`not displayed by Chromium: ${other.length} (the gallery's answers:)`);
  for (const s of other) console.log(line(s));
  console.log(`\nreal files that browsers display and the gallery refuses or misreads: ${refused.length + misread.length} of ${displayed.length}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
