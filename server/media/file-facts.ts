/**
 * One read of a file's facts for its album's record (server/media/dimensions.ts): the media
 * pool's header task (size, length, placeholder, playback, date taken, camera, position, the
 * place names the file carries), then the offline geocoder's names for its position
 * (server/media/places/geocoder.ts), once per file version, never per request.
 */
import type { Logger } from '../core/logger.js';
import type { MediaKind } from '../core/media-catalogue.js';
import { type PlaybackFacts, playbackPlan, sourceTypeOf } from '../core/media/playback-plan.js';
import { isTakenDate } from '../core/media/taken-date.js';
import { isStoredPosition, isThumbHash, type Stored, type StoredPosition, type VideoPlayback } from './dimensions-file.js';
import { cityGeocoder } from './places/geocoder.js';
import type { TaskPriority } from './priority-lane.js';

/** Where a file was taken, as the worker reads it. */
interface PlaceFacts {
  readonly camera?: string | null;
  readonly position?: StoredPosition | null;
  readonly places?: readonly string[];
}

/** The media pool's header-only tasks (server/media/pool.ts), all the facts need of it. */
export interface HeaderReader {
  dimensions(
    task: { src: string; kind: MediaKind; rotate?: number; withoutPlaceholder?: boolean },
    opts?: { priority?: TaskPriority },
  ): Promise<{ width: number; height: number; thumbHash?: string; taken?: string } & PlaceFacts>;
  videoInfo(
    task: {
      src: string;
    },
    opts?: { priority?: TaskPriority },
  ): Promise<{ width: number; height: number; duration: number } & Partial<PlaybackFacts & { codecTag: string | null; taken: string | null }> & PlaceFacts>;
}

/** The names of where a position is (the offline geocoder's); rejects when it cannot say. */
export type PlacesAt = (position: StoredPosition) => Promise<string[]>;

/** The version of a file a read is for: its identity, and the owner's turn it is read with. */
export interface FileVersion {
  readonly mtimeMs: number;
  readonly size: number;
  readonly rotation: number;
}

/**
 * Reads a file's facts; null when it has no size. `previous`: the entry kept of this very
 * version, read before the newer facts were (`unreadFacts`): its placeholder, preparation
 * and CRC are kept, and no placeholder is made again.
 */
export async function readFacts(
  reader: HeaderReader,
  placesAt: PlacesAt,
  file: { src: string; kind: MediaKind; stat: FileVersion; previous?: Stored | undefined },
  priority: TaskPriority,
): Promise<Stored | null> {
  const { src, kind, stat, previous } = file;
  const keep = previous?.unreadFacts ? previous : undefined;
  // A video's info holds its duration too, for the badge: one probe gives both.
  const read: { width: number; height: number; duration?: number; thumbHash?: string; playback?: VideoPlayback; taken?: string | null } & PlaceFacts =
    kind === 'video'
      ? videoRead(await reader.videoInfo({ src }, { priority }))
      : await reader.dimensions(
          { src, kind, ...(stat.rotation ? { rotate: stat.rotation } : {}), ...(keep?.thumbHash ? { withoutPlaceholder: true } : {}) },
          { priority },
        );
  if (!(read.width > 0 && read.height > 0)) return null;
  const { duration, playback, taken, camera, position } = read;
  const thumbHash = read.thumbHash ?? keep?.thumbHash;
  const located = position && isStoredPosition(position) ? { lat: position.lat, lon: position.lon } : undefined;
  const places = uniqueStrings([...(read.places ?? []), ...(located ? await placesAt(located) : [])]);
  return {
    mtimeMs: stat.mtimeMs,
    size: stat.size,
    ...(stat.rotation ? { rotation: stat.rotation } : {}),
    width: read.width,
    height: read.height,
    ...(duration !== undefined && Number.isFinite(duration) && duration > 0 ? { duration } : {}),
    ...(isThumbHash(thumbHash) ? { thumbHash } : {}),
    ...(playback ? { playback } : {}),
    ...(isTakenDate(taken) ? { taken } : {}),
    ...(keep?.prepared !== undefined ? { prepared: keep.prepared } : {}),
    ...(keep?.crc32 !== undefined ? { crc32: keep.crc32 } : {}),
    ...(typeof camera === 'string' && camera !== '' ? { camera } : {}),
    ...(located ? { position: located } : {}),
    ...(places.length > 0 ? { places } : {}),
  };
}

/** The file's own names and the geocoder's, each once (the file's "Lisboa" and the geocoder's "Lisbon" both stay: both find it). */
function uniqueStrings(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.filter((name) => {
    const key = name.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The process's geocoder (loaded on the first position), its failure to load told once: the
 * files' other facts do not wait for it, and their places are then the files' own.
 */
export function geocoderPlaces(log: Logger): PlacesAt {
  let told = false;
  return (position) =>
    cityGeocoder.placesAt(position).catch((err: unknown) => {
      if (!told) log.warn({ err }, 'the offline geocoder could not load its cities: places are the files’ own');
      told = true;
      return [];
    });
}

/** A video's size and length, and its plan when the probe told what it depends on. */
function videoRead(info: Awaited<ReturnType<HeaderReader['videoInfo']>>): {
  width: number;
  height: number;
  duration: number;
  playback?: VideoPlayback;
  taken?: string | null;
} & PlaceFacts {
  const { width, height, duration, container, codec, pixelFormat, audioCodec, indexAtEnd, codecTag, taken, camera, position } = info;
  const read = { width, height, duration, taken, camera, position };
  if (container === undefined || codec === undefined) return read;
  const facts: PlaybackFacts = { container, codec, pixelFormat: pixelFormat ?? null, audioCodec: audioCodec ?? null, indexAtEnd: indexAtEnd ?? null };
  const type = sourceTypeOf({ container, codec, codecTag: codecTag ?? null });
  return { ...read, playback: { plan: playbackPlan(facts), ...(type ? { type } : {}) } };
}
