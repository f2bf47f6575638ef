import express, { type Request, type RequestHandler, type Response, Router } from 'express';
import { badRequest, forbidden } from '../../core/errors.js';
import { isCrossSite } from '../access/cross-site.js';
import { chosenFiles, onlyNames, onlyNamesInQuery } from '../zip/selection.js';
import { type AlbumFile, chosenOfAlbum, chosenPaths, chosenPathsInQuery, entryNames, namesByAlbum } from '../zip/cross-album.js';
import { BODY_LIMIT } from './password-routes.js';
import type { AlbumResolver, ReadableFile, ResolvedAlbum } from '../resolvers.js';
import { zipFiles } from '../zip/zip-contents.js';
import { ClientClosedError, planZip, type StatedVersion, writeZip } from '../zip/album-zip.js';
import { DownloadSlots, MAX_CONCURRENT_ZIPS, MAX_ZIPS_PER_CLIENT, ZIP_IDLE_TIMEOUT_MS, ZIP_STALLED_MS } from '../zip/download-limits.js';
import { clientAddressKey } from '../access/client-address.js';
import type { Logger } from '../../core/logger.js';
import type { MediaOrder } from '../pages/album-dates.js';
import { createLocationPatcher, type LocationPatcher } from '../../media/location-patcher.js';

export interface DownloadRouterOptions {
  /**
   * Validates the path (400), finds the album (404), enforces access (401), and says which
   * of its files this visitor may read and where they really are.
   */
  readonly resolveAlbum: AlbumResolver;
  /** Failures after the response has started, and files left out of an archive. */
  readonly log: Logger;
  /** Archives written at once in all; past it 503 with Retry-After. Default MAX_CONCURRENT_ZIPS. */
  readonly maxConcurrent?: number;
  /** Archives written at once for one client; past it 429 with Retry-After. Default MAX_ZIPS_PER_CLIENT. */
  readonly maxPerClient?: number;
  /** A download stalled this long yields its place when the server is full. Default ZIP_STALLED_MS. */
  readonly stalledMs?: number;
  /** A client taking no bytes for this long is disconnected. Default ZIP_IDLE_TIMEOUT_MS. */
  readonly idleTimeoutMs?: number;
  /** The album's order (`sort`): the archive lists its photos as the album page does. */
  readonly order?: MediaOrder;
  /** Patches the location out of the files of albums that hide it (one of its own when absent). */
  readonly locationPatcher?: LocationPatcher;
  /**
   * The CRC of a file of the album as the ZIP sends it, when computed for exactly this version
   * of it (server/media/served-crc.ts): with every one known, the archive carries them in its
   * local headers and none is computed. Absent: always computed while streaming.
   */
  readonly knownCrc?: (albumPath: string, name: string, version: StatedVersion, withoutLocation: boolean) => Promise<number | undefined>;
}

/** The archive of files chosen across albums: they have no one album to be named after. */
export const SELECTION_ZIP_NAME = 'photos.zip';

/** A file of an archive: the album it is read from, its name in the archive, and the file. */
interface ArchiveFile {
  readonly albumPath: string;
  readonly entry: string;
  readonly file: ReadableFile;
}

/** `videos=1` adds the album's videos; absent (or `0`), the photos-only ZIP of the CONTRACT. */
function withVideos(raw: unknown): boolean {
  if (raw === undefined || raw === '0') return false;
  if (raw === '1') return true;
  throw badRequest('Invalid parameter: videos must be 0 or 1');
}

/**
 * Form fields a POST may carry: a chosen name is at least `only=x&`, so the 100 KB body
 * (BODY_LIMIT) never holds more; body-parser's default of 1,000 would refuse a long selection.
 */
const MAX_FORM_FIELDS = 20_000;

/** What a download asks for, from the query of a GET or the form of a POST: the same fields. */
interface DownloadRequest {
  readonly path: unknown;
  readonly videos: boolean;
  /** The chosen files' names; undefined: the whole album. */
  readonly only: readonly string[] | undefined;
}

function fromQuery(req: Request): DownloadRequest {
  return { path: req.query.path, videos: withVideos(req.query.videos), only: onlyNamesInQuery(req.originalUrl) };
}

function fromForm(req: Request): DownloadRequest {
  const body = (req.body ?? {}) as Record<string, unknown>;
  return { path: body.path, videos: withVideos(body.videos), only: onlyNames(body.only) };
}

/**
 * A page of another site could post the form with the visitor's share-link cookie and have
 * the server build archives for it (docs/api.md#post-apidownload-album): a POST is answered
 * only when it comes from this site. A GET stays a link anyone may follow, as before.
 */
const refuseCrossSite: RequestHandler = (req, _res, next) =>
  next(isCrossSite(req) ? forbidden('Downloads posted from another site are refused: choose the photos on the album page') : undefined);

const requireForm: RequestHandler = (req, _res, next) =>
  next(req.is('application/x-www-form-urlencoded') ? undefined : badRequest('Content-Type must be application/x-www-form-urlencoded'));

/**
 * `GET /api/download-album?path=&videos=&only=`, and the same fields as a form POST: the
 * album's photos (with their Live Photo movies, and its videos when asked), or only the files
 * named by `only`, as a stored ZIP, streamed as it is built.
 */
export function createDownloadRouter(opts: DownloadRouterOptions): Router {
  const { resolveAlbum, idleTimeoutMs = ZIP_IDLE_TIMEOUT_MS } = opts;
  const slots = new DownloadSlots({
    total: opts.maxConcurrent ?? MAX_CONCURRENT_ZIPS,
    perClient: opts.maxPerClient ?? MAX_ZIPS_PER_CLIENT,
    stalledMs: opts.stalledMs ?? ZIP_STALLED_MS,
  });
  if (!Number.isFinite(idleTimeoutMs) || idleTimeoutMs <= 0) throw new RangeError(`idleTimeoutMs must be a positive number, got ${idleTimeoutMs}`);
  const { log, locationPatcher = createLocationPatcher() } = opts;
  const router = Router();

  async function downloadAlbum(req: Request, res: Response, asked: DownloadRequest): Promise<void> {
    const album = await resolveAlbum(req, asked.path, 'original');
    // After the access check (a visitor without access learns nothing of the load), before
    // the planning, which stats every file.
    const slot = slots.take(clientAddressKey(req), res);
    try {
      // Only files the resolver vetted for this visitor, from where they really are: a symlink
      // into a locked album or to an album.json never reaches the archive. A Live Photo is its
      // still and its movie: both go in, the movie right after the still; in the album's order
      // (`sort`). Chosen names are checked only now, after the access check: a visitor
      // without access learns nothing of which names exist.
      const readable = await album.readable();
      const ordered = opts.order ? await opts.order(album.path, readable) : readable;
      const files = asked.only ? chosenFiles(ordered, asked.only) : zipFiles(ordered, asked.videos);
      const entries = files.map((file) => ({ albumPath: album.path, entry: file.item.name, file }));
      await sendZip(`download-album: ${album.path}`, `${album.name || 'album'}.zip`, entries, album.protected, req.method, res);
    } finally {
      slot.release();
      if (slot.evicted) log.warn(`download-album: ${album.path}: a stalled download ended to make room for another visitor`);
    }
  }

  /**
   * Files chosen across albums (search, timeline): every album's access is checked first, as
   * its own ZIP's (401 locked, 403 through a "no downloads" link, 404), before any name is
   * looked at or a place is taken; then the names, album by album; then one archive.
   */
  async function downloadSelection(req: Request, res: Response, paths: readonly string[]): Promise<void> {
    /** Albums by their real path: two spellings of one album are one. */
    const albums = new Map<string, { album: ResolvedAlbum; names: string[] }>();
    for (const [albumPath, names] of namesByAlbum(paths)) {
      const album = await resolveAlbum(req, albumPath, 'original');
      const known = albums.get(album.path);
      if (known) known.names.push(...names);
      else albums.set(album.path, { album, names });
    }
    const slot = slots.take(clientAddressKey(req), res);
    try {
      const chosen: AlbumFile[] = [];
      for (const { album, names } of albums.values()) {
        const readable = await album.readable();
        const ordered = opts.order ? await opts.order(album.path, readable) : readable;
        chosen.push(...chosenOfAlbum(album.path, album.name, ordered, names));
      }
      const names = entryNames(chosen);
      const entries = chosen.map((c, i) => ({ albumPath: c.albumPath, entry: names[i] as string, file: c.file }));
      const isPrivate = [...albums.values()].some(({ album }) => album.protected);
      await sendZip('download-selection', SELECTION_ZIP_NAME, entries, isPrivate, req.method, res);
    } finally {
      slot.release();
      if (slot.evicted) log.warn('download-selection: a stalled download ended to make room for another visitor');
    }
  }

  router.get('/api/download-album', (req, res) => downloadAlbum(req, res, fromQuery(req)));
  router.post(
    '/api/download-album',
    refuseCrossSite,
    requireForm,
    express.urlencoded({ limit: BODY_LIMIT, extended: false, parameterLimit: MAX_FORM_FIELDS }),
    (req, res) => downloadAlbum(req, res, fromForm(req)),
  );
  router.get('/api/download-selection', (req, res) => downloadSelection(req, res, chosenPathsInQuery(req.originalUrl)));
  router.post(
    '/api/download-selection',
    refuseCrossSite,
    requireForm,
    express.urlencoded({ limit: BODY_LIMIT, extended: false, parameterLimit: MAX_FORM_FIELDS }),
    (req, res) => downloadSelection(req, res, chosenPaths((req.body as Record<string, unknown> | undefined)?.file)),
  );

  async function sendZip(label: string, zipName: string, files: readonly ArchiveFile[], isPrivate: boolean, method: string, res: Response): Promise<void> {
    const { knownCrc } = opts;
    const sources = files.map((f) => ({ name: f.entry, path: f.file.absPath, hideLocation: f.file.hideLocation }));
    const fileOf = new Map(sources.map((source, i) => [source, files[i] as ArchiveFile]));
    const plan = await planZip(sources, {
      onSkip: (file, reason) => log.warn(`${label}: ${file} left out: ${reason}`),
      knownCrc:
        knownCrc &&
        ((source, version) => {
          const f = fileOf.get(source as (typeof sources)[number]);
          return f ? knownCrc(f.albumPath, f.file.item.name, version, f.file.hideLocation) : Promise.resolve(undefined);
        }),
    });

    res.set({
      'Content-Type': 'application/zip',
      'Content-Disposition': attachmentDisposition(zipName),
      // Exact: planZip computed the archive's layout from the stat'ed sizes and names (and whether every CRC is known).
      'Content-Length': String(plan.size),
      'Cache-Control': isPrivate || files.some((f) => f.file.protected) ? 'private, no-store' : 'no-cache',
    });
    // A HEAD must not read gigabytes only for Node to discard them.
    if (method === 'HEAD') {
      res.end();
      return;
    }

    try {
      await writeZip(plan, res, { idleTimeoutMs, locationPatcher });
    } catch (err) {
      // writeZip has already destroyed the response; a visitor closing the tab (or leaving
      // it stalled) is no failure.
      if (!(err instanceof ClientClosedError)) log.error({ err }, `${label} failed mid-stream`);
    }
  }

  return router;
}

/**
 * `attachment` with an ASCII `filename` every client understands and, when the name is not
 * plain ASCII, the exact UTF-8 name in RFC 6266 / RFC 8187 `filename*`.
 */
export function attachmentDisposition(fileName: string): string {
  const fallback = fileName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // accents dropped: "Été" → "Ete"
    .replace(/[^\x20-\x7e]|["\\]/g, '_');
  const header = `attachment; filename="${fallback}"`;
  // A `%XX` in the plain name could be decoded by some clients; the extended form is exact.
  if (fallback === fileName && !/%[0-9a-f]{2}/i.test(fileName)) return header;
  return `${header}; filename*=UTF-8''${encodeRfc8187(fileName)}`;
}

/** Percent-encodes all but RFC 8187 attr-chars (encodeURIComponent leaves `'()*` alone). */
function encodeRfc8187(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
