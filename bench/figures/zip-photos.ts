/**
 * The ZIP figure's album of real photos: 300 distinct 24 MP JPEGs (2.16 GB), the album of
 * issue 27's targets, beside the 8 MiB random files of the main corpus. Distinct files, not
 * hard links of one: a 7 MB file read 300 times would sit in the CPU's cache. Each is the
 * same photo with its number in a JPEG comment, so it stays a photo any decoder takes (the
 * preparation makes its thumbnails) while its bytes, and its CRC-32, are its own. Generated
 * once inside the main corpus's folder (so `--clean`, or a new main corpus, removes it too),
 * with the CACHE_DIR its preparation filled: a later run finds it prepared, as a restarted
 * server would.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { corpusDir } from '../corpus.js';
import { writePhotoLikeJpeg } from '../photo.js';

export interface PhotoZipCorpus {
  /** ALBUMS_DIR of the gallery that serves it. */
  readonly albumsDir: string;
  readonly albumPath: string;
  /** The album's folder. */
  readonly dir: string;
  readonly names: readonly string[];
  /** Bytes of all its photos. */
  readonly bytes: number;
  /** The CACHE_DIR its preparation fills, kept between runs. */
  readonly cacheDir: string;
  readonly label: string;
}

interface PhotoZipSpec {
  readonly photos: number;
  readonly width: number;
  readonly height: number;
}

const FULL: PhotoZipSpec = { photos: 300, width: 6000, height: 4000 };
const SMOKE: PhotoZipSpec = { photos: 4, width: 1200, height: 800 };

/** The corpus, generated first when it is missing or was made for another spec. */
export async function ensurePhotoZipCorpus(smoke: boolean, log: (line: string) => void): Promise<PhotoZipCorpus> {
  const spec = smoke ? SMOKE : FULL;
  const root = path.join(corpusDir(smoke), 'zip-photos');
  const stamp = JSON.stringify(spec);
  const stampFile = path.join(root, 'corpus.json');
  if (!fs.existsSync(stampFile) || fs.readFileSync(stampFile, 'utf8') !== stamp) {
    // Built under a temporary name and renamed when complete, so a run never sees half of one.
    const building = `${root}.building-${process.pid}`;
    fs.rmSync(building, { recursive: true, force: true });
    try {
      await generate(spec, building, log);
      fs.writeFileSync(path.join(building, 'corpus.json'), stamp);
      fs.rmSync(root, { recursive: true, force: true });
      fs.renameSync(building, root);
    } finally {
      fs.rmSync(building, { recursive: true, force: true });
    }
  }
  const albumsDir = path.join(root, 'gallery');
  const albumPath = 'bench/photos-zip';
  const dir = path.join(albumsDir, ...albumPath.split('/'));
  const names = fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.jpg'))
    .sort();
  const bytes = names.reduce((sum, n) => sum + fs.statSync(path.join(dir, n)).size, 0);
  const mp = (spec.width * spec.height) / 1e6;
  return {
    albumsDir,
    albumPath,
    dir,
    names,
    bytes,
    cacheDir: path.join(root, 'cache'),
    label: `${names.length} × ${mp} MP JPEGs, ${size(bytes)}`,
  };
}

async function generate(spec: PhotoZipSpec, root: string, log: (line: string) => void): Promise<void> {
  const dir = path.join(root, 'gallery', 'bench', 'photos-zip');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'album.json'), JSON.stringify({ title: 'ZIP of photos', token: crypto.randomUUID() }));
  const master = path.join(root, 'master.jpg');
  log(`zip corpus: ${spec.photos} photos of ${(spec.width * spec.height) / 1e6} MP under ${root} (kept for later runs; --clean removes it)`);
  await writePhotoLikeJpeg(master, spec.width, spec.height);
  const jpeg = fs.readFileSync(master);
  fs.rmSync(master);
  for (let i = 1; i <= spec.photos; i++) {
    const name = `IMG_${String(i).padStart(4, '0')}.jpg`;
    fs.writeFileSync(path.join(dir, name), withComment(jpeg, `bench photo ${i}`));
  }
}

/** The JPEG with a COM segment right after its SOI marker: the same picture, other bytes. */
function withComment(jpeg: Buffer, text: string): Buffer {
  const body = Buffer.from(text, 'latin1');
  const segment = Buffer.alloc(4 + body.length);
  segment.writeUInt16BE(0xfffe, 0);
  segment.writeUInt16BE(2 + body.length, 2);
  body.copy(segment, 4);
  return Buffer.concat([jpeg.subarray(0, 2), segment, jpeg.subarray(2)]);
}

const size = (bytes: number) => (bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : `${(bytes / 1e6).toFixed(1)} MB`);
