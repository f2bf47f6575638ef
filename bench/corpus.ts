/**
 * The benchmark's own album trees, generated once and kept under the OS temp dir between
 * runs (`--clean` removes them): the 1 GB album and the 100,000-file tree take a while to
 * write, and nothing in them changes from run to run. A corpus is built under a temporary
 * name and renamed into place when complete, so an interrupted or concurrent run never
 * sees half of one.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writePhotoLikeJpeg } from './photo.js';

export interface CorpusSpec {
  readonly photo: { readonly width: number; readonly height: number };
  /** Originals thumbnailed cold, per side (server and sharp directly). */
  readonly coldImages: number;
  /** Originals whose EXIF is read uncached. */
  readonly exifImages: number;
  /** Photos in the big album (one page of it is measured). */
  readonly bigAlbum: number;
  /** The ZIP album: files × bytes (random, so incompressible like JPEGs). */
  readonly zip: { readonly files: number; readonly bytes: number };
  /** The start-up tree: years × categories × albums × photos (empty files). */
  readonly tree: { readonly years: number; readonly categories: number; readonly albums: number; readonly photos: number };
}

export const FULL_SPEC: CorpusSpec = {
  photo: { width: 6000, height: 4000 },
  coldImages: 10,
  exifImages: 30,
  bigAlbum: 5000,
  zip: { files: 128, bytes: 8 * 1024 * 1024 },
  tree: { years: 20, categories: 10, albums: 10, photos: 50 },
};

/** Every figure on a few items: the harness checked in seconds. */
export const SMOKE_SPEC: CorpusSpec = {
  photo: { width: 1200, height: 800 },
  coldImages: 4,
  exifImages: 3,
  bigAlbum: 250,
  zip: { files: 4, bytes: 1024 * 1024 },
  tree: { years: 2, categories: 2, albums: 5, photos: 20 },
};

/** Warm-up files: the first requests pay for worker start-up and lazy imports. */
export const WARM_IMAGES = 2;
export const EXIF_WARM = 5;

export interface Corpus {
  readonly spec: CorpusSpec;
  readonly dir: string;
  /** The photo every image of the gallery tree is a hard link of. */
  readonly master: string;
  /** ALBUMS_DIR of the main server. */
  readonly galleryDir: string;
  /** ALBUMS_DIR of the start-up figure. */
  readonly treeDir: string;
  readonly photosAlbum: string;
  readonly bigAlbum: string;
  readonly zipAlbum: string;
  /** Album-relative paths. */
  readonly warm: readonly string[];
  readonly cold: readonly string[];
  readonly exifWarm: readonly string[];
  readonly exif: readonly string[];
  readonly zipFiles: readonly string[];
  readonly treePhotos: number;
  readonly treeAlbums: number;
}

export function corpusDir(smoke: boolean): string {
  return path.join(os.tmpdir(), smoke ? 'gallery-bench-corpus-smoke' : 'gallery-bench-corpus');
}

export function cleanCorpora(): void {
  for (const smoke of [false, true]) fs.rmSync(corpusDir(smoke), { recursive: true, force: true });
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${pad(i, 3)}.jpg`);

function layout(spec: CorpusSpec, dir: string): Corpus {
  const galleryDir = path.join(dir, 'gallery');
  const t = spec.tree;
  return {
    spec,
    dir,
    master: path.join(dir, 'master.jpg'),
    galleryDir,
    treeDir: path.join(dir, 'tree'),
    photosAlbum: 'bench/photos',
    bigAlbum: 'bench/big',
    zipAlbum: 'bench/zip',
    warm: names('warm', WARM_IMAGES).map((n) => `bench/photos/${n}`),
    cold: names('cold', spec.coldImages).map((n) => `bench/photos/${n}`),
    exifWarm: names('exif-warm', EXIF_WARM).map((n) => `bench/photos/${n}`),
    exif: names('exif', spec.exifImages).map((n) => `bench/photos/${n}`),
    zipFiles: Array.from({ length: spec.zip.files }, (_, i) => `IMG_${pad(i + 1, 4)}.jpg`),
    treePhotos: t.years * t.categories * t.albums * t.photos,
    treeAlbums: t.years * t.categories * t.albums,
  };
}

/** The corpus for this spec, generated first when it is missing or was made for another spec. */
export async function ensureCorpus(smoke: boolean, log: (line: string) => void): Promise<Corpus> {
  const spec = smoke ? SMOKE_SPEC : FULL_SPEC;
  const dir = corpusDir(smoke);
  const stamp = JSON.stringify(spec);
  const stampFile = path.join(dir, 'corpus.json');
  if (fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === stamp) return layout(spec, dir);

  const building = `${dir}.building-${process.pid}`;
  fs.rmSync(building, { recursive: true, force: true });
  try {
    log(`corpus: generating under ${dir} (kept for later runs; --clean removes it)`);
    await generate(layout(spec, building), log);
    fs.writeFileSync(path.join(building, 'corpus.json'), stamp);
    fs.rmSync(dir, { recursive: true, force: true });
    try {
      fs.renameSync(building, dir);
    } catch (err) {
      // Another run finished the same corpus first: use that one.
      if (!fs.existsSync(stampFile)) throw err;
    }
  } finally {
    fs.rmSync(building, { recursive: true, force: true });
  }
  return layout(spec, dir);
}

function writeAlbumJson(dir: string, meta: Record<string, unknown>): void {
  fs.mkdirSync(dir, { recursive: true });
  // An explicit token: without one the server writes one back into album.json at start.
  fs.writeFileSync(path.join(dir, 'album.json'), JSON.stringify({ token: crypto.randomUUID(), ...meta }));
}

async function generate(c: Corpus, log: (line: string) => void): Promise<void> {
  const { spec } = c;
  fs.mkdirSync(c.dir, { recursive: true });
  log(`corpus: a ${(spec.photo.width * spec.photo.height) / 1e6} MP JPEG`);
  await writePhotoLikeJpeg(c.master, spec.photo.width, spec.photo.height);

  // Hard links: distinct paths (so distinct thumbnail and EXIF cache entries) of one file,
  // without encoding thousands of photos.
  const albumDir = (albumPath: string) => path.join(c.galleryDir, ...albumPath.split('/'));
  writeAlbumJson(albumDir(c.photosAlbum), { title: 'Bench photos' });
  for (const rel of [...c.warm, ...c.cold, ...c.exifWarm, ...c.exif]) fs.linkSync(c.master, path.join(c.galleryDir, ...rel.split('/')));

  log(`corpus: a ${spec.bigAlbum}-photo album`);
  writeAlbumJson(albumDir(c.bigAlbum), { title: `Big album (${spec.bigAlbum} photos)` });
  for (let i = 1; i <= spec.bigAlbum; i++) fs.linkSync(c.master, path.join(albumDir(c.bigAlbum), `IMG_${pad(i, 5)}.jpg`));

  const zipMb = (spec.zip.files * spec.zip.bytes) / 1e6;
  log(`corpus: a ${zipMb.toFixed(0)} MB album for the ZIP`);
  writeAlbumJson(albumDir(c.zipAlbum), { title: 'ZIP album' });
  for (const name of c.zipFiles) {
    const data = crypto.randomBytes(spec.zip.bytes);
    data.writeUInt32BE(0xffd8ffe0, 0); // a JPEG's first bytes, for the look of it
    fs.writeFileSync(path.join(albumDir(c.zipAlbum), name), data);
  }

  log(`corpus: a tree of ${c.treePhotos} photos in ${c.treeAlbums} albums (empty files: start-up must not open them)`);
  const t = spec.tree;
  for (let y = 0; y < t.years; y++) {
    for (let k = 0; k < t.categories; k++) {
      for (let a = 0; a < t.albums; a++) {
        const dir = path.join(c.treeDir, String(2024 - y), `category-${pad(k, 2)}`, `album-${pad(a, 2)}`);
        // One album in ten is protected, as in a real gallery: /photos shows a lock for it.
        writeAlbumJson(dir, { title: `Album ${y}-${k}-${a}`, ...(a === 0 ? { password: 'bench' } : {}) });
        for (let p = 1; p <= t.photos; p++) fs.closeSync(fs.openSync(path.join(dir, `IMG_${pad(p, 4)}.jpg`), 'w'));
      }
    }
  }
}
