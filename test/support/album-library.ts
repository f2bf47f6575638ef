import fs from 'node:fs';
import path from 'node:path';
import { writeJpeg } from './gallery-fixture.js';

/** One album of a library: its path and what its album.json says besides its title. */
export interface LibraryAlbum {
  readonly path: string;
  readonly title: string;
  readonly meta?: Record<string, unknown>;
}

/**
 * Writes many albums fast: each album.json with a token (so nothing is written back at
 * scan time) and `photos` hard links of one real JPEG, so every album has a cover with its
 * own path and thumbnail URLs, as a real library's.
 */
export async function writeLibrary(albumsDir: string, albums: readonly LibraryAlbum[], photos = 1): Promise<void> {
  const master = path.join(albumsDir, '.master.jpg');
  fs.mkdirSync(albumsDir, { recursive: true });
  if (!fs.existsSync(master)) await writeJpeg(master, 64, 48);
  albums.forEach((album, i) => {
    const dir = path.join(albumsDir, ...album.path.split('/'));
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'album.json'), JSON.stringify({ title: album.title, token: `library-token-${i}`, ...album.meta }));
    for (let p = 1; p <= photos; p++) fs.linkSync(master, path.join(dir, `IMG_${String(p).padStart(4, '0')}.jpg`));
  });
}

/** `years` year folders (newest `firstYear`), each of `categories` categories of `albums` albums: the shape of a big library. */
export function yearsOfAlbums(firstYear: number, years: number, categories: number, albums: number): LibraryAlbum[] {
  const out: LibraryAlbum[] = [];
  for (let y = 0; y < years; y++) {
    for (let c = 0; c < categories; c++) {
      for (let a = 0; a < albums; a++)
        out.push({ path: `${firstYear - y}/category-${c}/album-${String(a).padStart(4, '0')}`, title: `Album ${firstYear - y}-${c}-${a}` });
    }
  }
  return out;
}
