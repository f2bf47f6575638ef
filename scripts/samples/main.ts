/**
 * Generates the sample gallery shipped with the repository: every file under `albums/` and
 * `content/`.  Run with `npx tsx scripts/make-samples.ts` (or `npx tsx scripts/samples/main.ts`);
 * `--out <dir>` writes the two trees under `<dir>` instead of the repository (to compare a
 * regeneration with the committed files).
 *
 * Everything is procedural (SVG scenes rendered by sharp, then film grain, EXIF and mozjpeg;
 * videos encoded by the bundled ffmpeg) and seeded per file, so running the script again
 * rewrites the same bytes.  The previous `albums/` and `content/` trees are removed first.
 *
 * The package, from what an owner edits to what does the drawing:
 *   albums.ts        the album table: paths, album.json, camera, photos and their scenes
 *   cameras.ts       camera bodies and exposures per light, for the EXIF
 *   album-files.ts   an album of the table as album.json + JPEGs
 *   edge-cases.ts    the hidden album of test fixtures (EXIF orientations 1-8, truncated JPEG,
 *                    non-ASCII file name, tiny PNG without EXIF, rotated MP4)
 *   videos.ts        the Ken Burns video and the rotated clip; ffmpeg.ts encodes and probes
 *   content.ts       content/home.json and content/assets/{hero,cards,landing}/
 *   painter/         the procedural painter: seeded rng, SVG builder, pieces, filters, scenes,
 *                    the named presets the table uses, and the render to JPEG
 * The EXIF layout, the orientation transforms and the video rotation are shared with the
 * tests' fixtures, in scripts/image-fixtures/.
 *
 * The script checks its own output and fails loudly: each orientation-N.jpg must auto-orient
 * back to the upright card, both videos are probed with ffprobe (codec, size, duration, and the
 * display-matrix rotation of rotated.mp4), and every album `thumbnail` must name a generated
 * photo.  It takes a few minutes (librsvg filters are slow at 1600 px).
 *
 * `--preview <scene> <out.jpg|out.png> [WxH] [seed]` renders one scene without touching the
 * tree, for tuning the look.
 */
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { makeAlbum } from './album-files.js';
import { ALBUMS, checkThumbnails } from './albums.js';
import { makeContent } from './content.js';
import { makeEdgeCases } from './edge-cases.js';
import { log, logTotal, type SampleTree, sampleTree } from './output.js';
import { type SceneName, scenes } from './painter/presets.js';
import { PHOTO_GRAIN, PHOTO_QUALITY, renderPhoto } from './painter/render.js';
import { makeKenBurns } from './videos.js';
import { makePhoneMedia } from './phone.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

// Same output whatever the machine: no cache reuse between files, one thread for libvips.
sharp.cache(false);
sharp.concurrency(1);

async function main(tree: SampleTree): Promise<void> {
  checkThumbnails();
  for (const dir of [tree.albumsDir, tree.contentDir]) {
    if (path.dirname(dir) !== tree.root) throw new Error(`refusing to clear ${dir}`);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
  }
  for (const album of ALBUMS) await makeAlbum(album, tree.albumsDir);
  const kenBurns = path.join(tree.albumsDir, '2024/travel/lisbon', 'tagus-evening.mp4');
  await makeKenBurns(kenBurns, '2024/travel/lisbon/tagus-evening.mp4', 'lisbonBridge');
  log('2024/travel/lisbon/tagus-evening.mp4', (await stat(kenBurns)).size);
  await makePhoneMedia(tree.albumsDir);
  await makeEdgeCases(tree.albumsDir);
  await makeContent(tree.contentDir);
  logTotal();
}

/** `--preview <scene> <out.jpg> [WxH] [seed]`: renders one scene, for tuning the look. */
async function preview(args: string[]): Promise<void> {
  const [scene, out, size = '1600x1067', seed = 'preview'] = args;
  if (!scene || !out || !(scene in scenes)) throw new Error(`usage: --preview <${Object.keys(scenes).join('|')}> <out.jpg> [WxH] [seed]`);
  const [w, h] = size.split('x').map(Number) as [number, number];
  const { jpeg } = await renderPhoto(seed, scene as SceneName, w, h, PHOTO_QUALITY, PHOTO_GRAIN);
  await writeFile(out, out.endsWith('.png') ? await sharp(jpeg).png().toBuffer() : jpeg);
  process.stdout.write(`${out}: ${(jpeg.length / 1024).toFixed(0)} KB\n`);
}

/** The root given by `--out <dir>`, else the repository. */
function outputRoot(args: string[]): string {
  const at = args.indexOf('--out');
  if (at < 0) return REPO_ROOT;
  const dir = args[at + 1];
  if (!dir) throw new Error('usage: --out <dir>');
  return path.resolve(dir);
}

const args = process.argv.slice(2);
if (args[0] === '--preview') await preview(args.slice(1));
else await main(sampleTree(outputRoot(args)));
