/**
 * Adopting folders (README "Your own photos"): a folder of photos becomes an album only when
 * it holds an `album.json`, so nothing of a library is published until the owner says so.
 * Adopting says so for many folders at once: every folder under the albums directory (or
 * under the given paths) that holds media directly and no `album.json` gets one, titled and
 * dated from its name (folder-name.ts). Folders that hold only folders (years, categories)
 * stay folders; photos are never touched, moved or renamed.
 *
 * Per folder, the new `album.json` is written exclusively (fs-atomic.ts `writeFileExclusive`):
 * an `album.json` written by the owner or the admin in between is never overwritten.
 * Adopting twice adopts nothing more.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileExclusive } from '../fs-atomic.js';
import { ALBUM_FILE, adoptableMedia, unreadableAlbumsDir } from './scan.js';
import { parseAlbumRecord } from './album-record.js';
import { albumFromFolderName } from './folder-name.js';

export interface AdoptableFolder {
  /** Relative to the albums directory, `/`-separated. */
  readonly path: string;
  readonly title: string;
  readonly date: string | undefined;
  /** Photos and videos directly in it. */
  readonly media: number;
}

export interface AdoptOptions {
  readonly albumsDir: string;
  /** Folders (relative to albumsDir) to look under; the whole tree when empty. */
  readonly under?: readonly string[];
  /** A password for every album made (plain text in album.json, as every password). */
  readonly password?: string | undefined;
  /** Made hidden: left out of listings, reachable by their address. */
  readonly hidden?: boolean;
}

export type AdoptOutcome =
  | { readonly folder: AdoptableFolder; readonly adopted: true }
  | { readonly folder: AdoptableFolder; readonly adopted: false; readonly reason: string };

/**
 * The adoptable folders under `under` (or the whole tree), in path order. Dot-folders (the
 * admin's `.trash`) are skipped, symlinked folders are not followed, and nothing below an
 * album.json that does not parse is offered (the gallery hides that whole branch until it is
 * mended, and a child adopted meanwhile would wait there unprotected by its parent's password).
 */
export async function findAdoptable(albumsDir: string, under: readonly string[] = []): Promise<AdoptableFolder[]> {
  const found: AdoptableFolder[] = [];
  const starts = under.length === 0 ? [''] : [...new Set(under)];
  const seen = new Set<string>();
  for (const start of starts) await walk(albumsDir, start, found, seen);
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

async function walk(albumsDir: string, rel: string, found: AdoptableFolder[], seen: Set<string>): Promise<void> {
  if (seen.has(rel)) return;
  seen.add(rel);
  const abs = path.join(albumsDir, rel);
  const entries = await fs.readdir(abs, { withFileTypes: true }).catch((err: unknown) => {
    throw rel === '' ? unreadableAlbumsDir(abs, err) : err;
  });
  if (entries.some((e) => e.name === ALBUM_FILE) && !(await parses(path.join(abs, ALBUM_FILE)))) return;
  const media = rel === '' ? 0 : adoptableMedia(entries);
  if (media > 0) found.push({ path: rel, ...albumFromFolderName(path.basename(abs), path.basename(path.dirname(abs))), media });
  for (const e of entries) {
    if (e.isDirectory() && !e.name.startsWith('.')) await walk(albumsDir, rel === '' ? e.name : `${rel}/${e.name}`, found, seen);
  }
}

async function parses(file: string): Promise<boolean> {
  try {
    parseAlbumRecord(await fs.readFile(file, 'utf8'));
    return true;
  } catch {
    return false;
  }
}

/** The album.json an adopted folder gets. */
export function adoptedRecord(folder: AdoptableFolder, opts: Pick<AdoptOptions, 'password' | 'hidden'>): Record<string, unknown> {
  return {
    title: folder.title,
    ...(folder.date === undefined ? {} : { date: folder.date }),
    ...(opts.password ? { password: opts.password } : {}),
    ...(opts.hidden ? { hidden: true } : {}),
  };
}

/** Makes albums of `folders` (from findAdoptable), one at a time; a folder that fails does not stop the others. */
export async function adoptFolders(
  albumsDir: string,
  folders: readonly AdoptableFolder[],
  opts: Pick<AdoptOptions, 'password' | 'hidden'> = {},
): Promise<AdoptOutcome[]> {
  const outcomes: AdoptOutcome[] = [];
  for (const folder of folders) {
    const file = path.join(albumsDir, folder.path, ALBUM_FILE);
    try {
      const made = await writeFileExclusive(file, `${JSON.stringify(adoptedRecord(folder, opts), null, 2)}\n`);
      outcomes.push(made ? { folder, adopted: true } : { folder, adopted: false, reason: 'it became an album meanwhile (its album.json was kept)' });
    } catch (err) {
      outcomes.push({ folder, adopted: false, reason: describe(err) });
    }
  }
  return outcomes;
}

function describe(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EROFS') return 'the folder is on a read-only file system';
  if (code === 'EACCES' || code === 'EPERM') return 'no permission to write in the folder';
  return (err as Error).message;
}
