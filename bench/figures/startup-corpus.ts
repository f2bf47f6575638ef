/**
 * The album trees of the start-up figure: year / category / album, each album a hundred real
 * JPEGs (so covers are cropped and thumbnailed as a real library's would be), made cheaply as
 * hard links of a few pictures. Built once under the OS temp dir and kept between runs, as
 * the other corpora (bench/corpus.ts; `--clean` removes them), under a temporary name renamed
 * into place when complete.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writePhotoLikeJpeg } from '../photo.js';

export interface StartupTreeSpec {
  readonly years: number;
  readonly categories: number;
  /** Albums per category. */
  readonly albums: number;
  /** Photos per album. */
  readonly photos: number;
}

export interface StartupTree {
  readonly spec: StartupTreeSpec;
  /** ALBUMS_DIR of the figure. */
  readonly dir: string;
  readonly photos: number;
  readonly albums: number;
}

/** 100,000 photos in 1,000 albums, and 1,000,000 in 10,000: a family's library, and far past one. */
export const FULL_TREES: readonly StartupTreeSpec[] = [
  { years: 10, categories: 10, albums: 10, photos: 100 },
  { years: 10, categories: 10, albums: 100, photos: 100 },
];

/** Tiny, but the second past /photos' 150 cards, so the smoke run goes through both ways of showing it. */
export const SMOKE_TREES: readonly StartupTreeSpec[] = [
  { years: 2, categories: 2, albums: 3, photos: 4 },
  { years: 2, categories: 3, albums: 30, photos: 2 },
];

/** Distinct pictures the photos are links of; a 12 MP phone photo's size, its weight at thumbnail sizes (bench/photo.ts). */
const PICTURES = 4;
const PICTURE = { full: { width: 4000, height: 3000 }, smoke: { width: 600, height: 400 } };
/** ext4 allows 65,000 links to a file: a picture is copied once for each this many photos. */
const LINKS_PER_FILE = 50_000;

const ROOT = path.join(os.tmpdir(), 'gallery-bench-startup');

export function cleanStartupTrees(): void {
  fs.rmSync(ROOT, { recursive: true, force: true });
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** The tree for `spec`, built first when it is missing or was built otherwise. */
export async function ensureStartupTree(spec: StartupTreeSpec, smoke: boolean, log: (line: string) => void): Promise<StartupTree> {
  const picture = smoke ? PICTURE.smoke : PICTURE.full;
  const name = `${spec.years}x${spec.categories}x${spec.albums}x${spec.photos}-${picture.width}`;
  const dir = path.join(ROOT, name);
  const albums = spec.years * spec.categories * spec.albums;
  const tree = { spec, dir: path.join(dir, 'albums'), photos: albums * spec.photos, albums };
  const stamp = JSON.stringify({ spec, picture, PICTURES });
  const stampFile = path.join(dir, 'tree.json');
  if (fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === stamp) return tree;

  const building = `${dir}.building-${process.pid}`;
  fs.rmSync(building, { recursive: true, force: true });
  try {
    log(
      `startup: building a tree of ${tree.photos.toLocaleString('en-US')} photos in ${albums.toLocaleString('en-US')} albums under ${dir} (kept for later runs)`,
    );
    await build(spec, picture, building);
    fs.writeFileSync(path.join(building, 'tree.json'), stamp);
    fs.rmSync(dir, { recursive: true, force: true });
    try {
      fs.renameSync(building, dir);
    } catch (err) {
      // Another run finished the same tree first: use that one.
      if (!fs.existsSync(stampFile)) throw err;
    }
  } finally {
    fs.rmSync(building, { recursive: true, force: true });
  }
  return tree;
}

async function build(spec: StartupTreeSpec, picture: { width: number; height: number }, root: string): Promise<void> {
  const sources = path.join(root, 'pictures');
  fs.mkdirSync(sources, { recursive: true });
  const originals: string[] = [];
  for (let p = 0; p < PICTURES; p++) {
    const file = path.join(sources, `picture-${p}-0.jpg`);
    await writePhotoLikeJpeg(file, picture.width, picture.height, { shapeScale: 80, grain: 9 });
    originals.push(file);
  }
  /** Photo number `i` of the tree: a link of one picture, a copy of it past every LINKS_PER_FILE links. */
  const sourceOf = (i: number): string => {
    const p = i % PICTURES;
    const copy = Math.floor(i / (PICTURES * LINKS_PER_FILE));
    const file = path.join(sources, `picture-${p}-${copy}.jpg`);
    if (!fs.existsSync(file)) fs.copyFileSync(originals[p]!, file);
    return file;
  };

  let photo = 0;
  for (let y = 0; y < spec.years; y++) {
    const year = 2024 - y;
    for (let c = 0; c < spec.categories; c++) {
      for (let a = 0; a < spec.albums; a++) {
        const dir = path.join(root, 'albums', String(year), `category-${pad(c, 2)}`, `album-${pad(a, 3)}`);
        fs.mkdirSync(dir, { recursive: true });
        const meta = {
          title: `Album ${year}-${c}-${a}`,
          // An explicit token: without one the server writes one back into album.json at start.
          token: crypto.randomUUID(),
          // Dated as an adopted folder is (`2019-07 Lisbon`): /photos shows each year's newest.
          date: `${year}-${pad((a % 12) + 1, 2)}`,
          // One album in ten is protected, as in a real gallery: /photos shows a lock for it.
          ...(a % 10 === 0 ? { password: 'bench' } : {}),
        };
        fs.writeFileSync(path.join(dir, 'album.json'), JSON.stringify(meta));
        for (let p = 1; p <= spec.photos; p++) fs.linkSync(sourceOf(photo++), path.join(dir, `IMG_${pad(p, 4)}.jpg`));
      }
    }
  }
}
