import type { Album } from '../../core/albums/album-tree.js';
import type { MediaKind } from '../../core/media-catalogue.js';
import type { ReadableFile } from '../resolvers.js';
import { arrivedAt } from './feed-arrivals.js';
import type { MediaStat, MediaStats } from './media-stats.js';

/** Entries a feed holds at most, newest first: a reader polls often, and older news is on the site. */
export const FEED_ENTRIES = 50;

/** A file of an entry: where it is, what it is, and when it arrived (feed-arrivals.ts). */
export interface FeedFile {
  readonly mediaPath: string;
  readonly kind: MediaKind;
  readonly caption: string | undefined;
  readonly stat: MediaStat;
  readonly arrived: number;
}

/**
 * One piece of news (docs/api.md#feeds): the files an album received on one day (UTC). The
 * first day an album received anything is the album's arrival (`album`: "New album"), each
 * later one is news of that album (`photos`: "12 new photos in Lisbon").
 */
export interface FeedEntry {
  readonly kind: 'album' | 'photos';
  readonly album: Album;
  /** `YYYY-MM-DD`, UTC: with the album's path, what makes the entry's id. */
  readonly day: string;
  /** The day's files, in the album's order. */
  readonly files: readonly FeedFile[];
  /** The first and the last arrival of the day. */
  readonly published: number;
  readonly updated: number;
}

/** What of an album a feed's visitor may read (server/public/access/gallery-access.ts `readableFor`). */
export type ReadableOf = (album: Album) => Promise<readonly ReadableFile[]>;

const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The news of one album, oldest day first. */
async function albumEntries(album: Album, readable: readonly ReadableFile[], stats: Pick<MediaStats, 'all'>): Promise<FeedEntry[]> {
  const items = readable.map((f) => f.item);
  const itemStats = await stats.all(album, items);
  const byDay = new Map<string, FeedFile[]>();
  items.forEach((item, i) => {
    const stat = itemStats[i];
    if (!stat) return;
    const arrived = arrivedAt(stat);
    const file: FeedFile = { mediaPath: `${album.path}/${item.name}`, kind: item.kind, caption: album.meta.captions.get(item.name), stat, arrived };
    const day = dayOf(arrived);
    const files = byDay.get(day);
    if (files) files.push(file);
    else byDay.set(day, [file]);
  });
  const days = [...byDay.keys()].sort();
  return days.map((day, i) => {
    const files = byDay.get(day) as FeedFile[];
    const times = files.map((f) => f.arrived);
    return { kind: i === 0 ? 'album' : 'photos', album, day, files, published: Math.min(...times), updated: Math.max(...times) };
  });
}

/**
 * The newest FEED_ENTRIES entries of `albums` (already only those the feed's visitor may see:
 * server/core/access/visible-albums.ts), each holding only the files that visitor may read.
 * Ties are broken by album path, so the same tree gives the same feed byte for byte.
 */
export async function feedEntries(
  albums: readonly Album[],
  readableOf: ReadableOf,
  stats: Pick<MediaStats, 'all'>,
  limit = FEED_ENTRIES,
): Promise<FeedEntry[]> {
  const all: FeedEntry[] = [];
  for (const album of albums) {
    if (album.media.length === 0) continue;
    all.push(...(await albumEntries(album, await readableOf(album), stats)));
  }
  all.sort((a, b) => b.updated - a.updated || (a.album.path < b.album.path ? -1 : a.album.path > b.album.path ? 1 : 0));
  return all.slice(0, limit);
}
