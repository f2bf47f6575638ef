import { badRequest, HttpError } from '../../core/errors.js';
import type { ReadableFile } from '../resolvers.js';

/** Longest file name an error repeats back: the name is the visitor's own text, not ours to echo at any length. */
const NAME_IN_ERROR = 200;

/**
 * The `only` values of a request (query or form), as sent: absent is undefined (the whole
 * album), anything else must be one or more non-empty strings.
 */
export function onlyNames(raw: unknown): readonly string[] | undefined {
  if (raw === undefined) return undefined;
  const values = Array.isArray(raw) ? raw : [raw];
  if (values.length === 0 || !values.every((v): v is string => typeof v === 'string' && v !== '')) {
    throw badRequest('Invalid parameter: only must name a file of the album');
  }
  return values;
}

/** The `only` values of a GET, read from the raw query: Express's query parser keeps the first 1,000 parameters only. */
export function onlyNamesInQuery(originalUrl: string): readonly string[] | undefined {
  const q = originalUrl.indexOf('?');
  if (q < 0) return undefined;
  const values = new URLSearchParams(originalUrl.slice(q + 1)).getAll('only');
  return onlyNames(values.length === 0 ? undefined : values);
}

/**
 * The chosen files of an album's ZIP (docs/api.md#get-apidownload-albumpath), in `files`'
 * order (the album's): each named photo or video, a Live Photo's movie right after its still,
 * a movie named on its own alone, each file once however often it is named. `files` is what
 * this visitor may read of the album: a name outside it (another album's file, a symlink into
 * a locked album, album.json, a dotfile) is a 400 naming it, before anything is streamed.
 */
export function chosenFiles(files: readonly ReadableFile[], names: readonly string[]): ReadableFile[] {
  const byName = new Map<string, ReadableFile>();
  for (const f of files) {
    byName.set(f.item.name, f);
    if (f.motion) byName.set(f.motion.item.name, f.motion);
  }
  const wanted = new Set<ReadableFile>();
  for (const name of names) {
    const file = byName.get(name);
    if (!file) {
      const shown = name.length > NAME_IN_ERROR ? `${name.slice(0, NAME_IN_ERROR)}…` : name;
      throw new HttpError(400, `Not a file of this album: ${shown}`, { body: { file: shown } });
    }
    wanted.add(file);
  }
  return files.flatMap((f) => {
    const still = wanted.has(f) ? [f] : [];
    // A chosen still brings its movie, as the album's ZIP does; the movie goes once either way.
    return f.motion && (wanted.has(f.motion) || still.length > 0) ? [...still, f.motion] : still;
  });
}
