import { badRequest, HttpError, missingParameter } from '../../core/errors.js';
import type { ReadableFile } from '../resolvers.js';
import { chosenFiles } from './selection.js';

/**
 * The ZIP of files chosen across albums, on the search and timeline pages
 * (docs/api.md#get-apidownload-selectionfile): each `file` names one file by its path in the
 * tree (`2024/lisbon/IMG_1.jpg`); its album is the path up to the last `/`. Access is the
 * album ZIP's, album by album (the resolver, the one access rule); what is chosen of each is
 * what `only=` would choose of it (selection.ts).
 */

/** Longest path an error repeats back: the path is the visitor's own text, not ours to echo at any length. */
const PATH_IN_ERROR = 300;

/** The `file` values of a request (query or form): one or more non-empty strings, else a 400. */
export function chosenPaths(raw: unknown): readonly string[] {
  const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  if (values.length === 0) throw missingParameter('file');
  if (!values.every((v): v is string => typeof v === 'string' && v !== '' && !v.endsWith('/'))) {
    throw badRequest('Invalid parameter: file must be the path of a file of an album');
  }
  return values;
}

/** The `file` values of a GET, read from the raw query: Express's query parser keeps the first 1,000 parameters only. */
export function chosenPathsInQuery(originalUrl: string): readonly string[] {
  const q = originalUrl.indexOf('?');
  const values = q < 0 ? [] : new URLSearchParams(originalUrl.slice(q + 1)).getAll('file');
  return chosenPaths(values.length === 0 ? undefined : values);
}

/** The chosen names of each album, albums in the order their first file was named. */
export function namesByAlbum(paths: readonly string[]): Map<string, string[]> {
  const albums = new Map<string, string[]>();
  for (const p of paths) {
    const slash = p.lastIndexOf('/');
    const album = slash < 0 ? '' : p.slice(0, slash);
    const names = albums.get(album) ?? [];
    names.push(p.slice(slash + 1));
    albums.set(album, names);
  }
  return albums;
}

/** A file of the archive and the album it comes from. */
export interface AlbumFile {
  readonly albumPath: string;
  /** The album directory's own name (`lisbon`): the prefix of its files' names when another album holds the same name. */
  readonly albumName: string;
  readonly file: ReadableFile;
}

/**
 * The chosen files of one album, as its `only=` ZIP would hold them; a name that is not a file
 * of it this visitor may read is a 400 naming the whole path.
 */
export function chosenOfAlbum(albumPath: string, albumName: string, readable: readonly ReadableFile[], names: readonly string[]): AlbumFile[] {
  try {
    return chosenFiles(readable, names).map((file) => ({ albumPath, albumName, file }));
  } catch (err) {
    if (!(err instanceof HttpError) || err.status !== 400) throw err;
    const file = err.body?.file;
    const full = typeof file === 'string' ? (albumPath ? `${albumPath}/${file}` : file) : albumPath;
    const shown = full.length > PATH_IN_ERROR ? `${full.slice(0, PATH_IN_ERROR)}…` : full;
    throw new HttpError(400, `Not a file you may download: ${shown}`, { body: { file: shown } });
  }
}

/**
 * Each file's entry name: its own name, or, when a file of another album of the archive has
 * the same name (compared as a computer that ignores case would: extracting must not overwrite
 * one with the other), `<album folder> - <name>`. The ZIP planner numbers any name still
 * taken twice (two albums both called `summer`): `summer - IMG_1 (2).jpg`.
 */
export function entryNames(files: readonly AlbumFile[]): string[] {
  const albumsOf = new Map<string, Set<string>>();
  const key = (name: string) => name.normalize('NFC').toLowerCase();
  for (const f of files) {
    const albums = albumsOf.get(key(f.file.item.name)) ?? new Set<string>();
    albums.add(f.albumPath);
    albumsOf.set(key(f.file.item.name), albums);
  }
  return files.map((f) => {
    const name = f.file.item.name;
    const shared = (albumsOf.get(key(name))?.size ?? 0) > 1;
    return shared ? `${f.albumName || 'album'} - ${name}` : name;
  });
}
