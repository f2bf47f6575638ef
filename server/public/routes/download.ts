import { type Response, Router } from 'express';
import { badRequest } from '../../core/errors.js';
import type { AlbumResolver, ResolvedAlbum } from '../resolvers.js';
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

/** `videos=1` adds the album's videos; absent (or `0`), the photos-only ZIP of the CONTRACT. */
function withVideos(raw: unknown): boolean {
  if (raw === undefined || raw === '0') return false;
  if (raw === '1') return true;
  throw badRequest('Invalid parameter: videos must be 0 or 1');
}

/** `GET /api/download-album?path=&videos=`: the album's photos (with their Live Photo movies, and its videos when asked) as a stored ZIP, streamed as it is built. */
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

  router.get('/api/download-album', async function downloadAlbum(req, res) {
    const videos = withVideos(req.query.videos);
    const album = await resolveAlbum(req, req.query.path, 'original');
    // After the access check (a visitor without access learns nothing of the load), before
    // the planning, which stats every file.
    const slot = slots.take(clientAddressKey(req), res);
    try {
      await sendZip(album, videos, req.method, res);
    } finally {
      slot.release();
      if (slot.evicted) log.warn(`download-album: ${album.path}: a stalled download ended to make room for another visitor`);
    }
  });

  async function sendZip(album: ResolvedAlbum, videos: boolean, method: string, res: Response): Promise<void> {
    // Only files the resolver vetted for this visitor, from where they really are: a symlink
    // into a locked album or to an album.json never reaches the archive. A Live Photo is its
    // still and its movie: both go in, the movie right after the still; in the album's order (`sort`).
    const readable = await album.readable();
    const files = zipFiles(opts.order ? await opts.order(album.path, readable) : readable, videos);
    const { knownCrc } = opts;
    const plan = await planZip(
      files.map((f) => ({ name: f.item.name, path: f.absPath, hideLocation: f.hideLocation })),
      {
        onSkip: (file, reason) => log.warn(`download-album: ${album.path}/${file} left out: ${reason}`),
        knownCrc: knownCrc && ((file, version) => knownCrc(album.path, file.name, version, file.hideLocation === true)),
      },
    );

    res.set({
      'Content-Type': 'application/zip',
      'Content-Disposition': attachmentDisposition(`${album.name || 'album'}.zip`),
      // Exact: planZip computed the archive's layout from the stat'ed sizes and names (and whether every CRC is known).
      'Content-Length': String(plan.size),
      'Cache-Control': album.protected || files.some((f) => f.protected) ? 'private, no-store' : 'no-cache',
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
      if (!(err instanceof ClientClosedError)) log.error({ err }, `download-album: ${album.path} failed mid-stream`);
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
