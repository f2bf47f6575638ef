/**
 * A real gallery whose photos carry EXIF dates taken (DateTimeOriginal, written by sharp), for
 * the tests of the cards' dates, the timeline and "on this day": albums open, locked, hidden
 * and inside a collection, with photos taken on today's date in earlier years.
 */
import path from 'node:path';
import sharp from 'sharp';
import { newShareLinkId } from '../../server/core/albums/share-links.js';
import { GalleryFixture } from '../support/gallery-fixture.js';

/** A share link as album.json keeps it. */
export const shareLink = (extra: Record<string, unknown> = {}) => ({
  id: newShareLinkId(),
  name: 'Grandma',
  created: '2024-05-01T10:00:00Z',
  downloads: true,
  ...extra,
});

/** The `album-links` cookie as the server writes it. */
export const linksCookie = (ids: readonly string[]) => `album-links=${encodeURIComponent(JSON.stringify(ids))}`;

/** EXIF's way of writing a date: 'YYYY:MM:DD HH:MM:SS'. */
export const exifDate = (year: number, month: number, day: number, hour = 12) =>
  `${year}:${String(month).padStart(2, '0')}:${String(day).padStart(2, '0')} ${String(hour).padStart(2, '0')}:00:00`;

/** Today on the server's clock, `yearsAgo` years back (the date "on this day" looks for). */
export function todayYearsAgo(yearsAgo: number, hour = 12): string {
  const now = new Date();
  return exifDate(now.getFullYear() - yearsAgo, now.getMonth() + 1, now.getDate(), hour);
}

/** A small real JPEG taken at `taken` (EXIF DateTimeOriginal), a colour of its own. */
export async function writeDatedJpeg(file: string, taken: string, hue: number): Promise<void> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="48"><rect width="100%" height="100%" fill="hsl(${hue},60%,50%)"/></svg>`;
  await sharp(Buffer.from(svg))
    .withExif({ IFD0: { DateTime: taken }, IFD2: { DateTimeOriginal: taken } })
    .jpeg({ quality: 80 })
    .toFile(file);
}

export interface DatedAlbum {
  readonly meta: Record<string, unknown>;
  /** file name → EXIF date taken. */
  readonly files: Readonly<Record<string, string>>;
}

/** Builds the albums, writes their dated photos, starts the gallery and reads every album's facts (as its preparation would). */
export async function datedGallery(albums: Readonly<Record<string, DatedAlbum>>): Promise<GalleryFixture> {
  const fx = await new GalleryFixture().build(Object.fromEntries(Object.entries(albums).map(([p, a]) => [p, { meta: a.meta }])));
  let hue = 0;
  for (const [albumPath, album] of Object.entries(albums)) {
    for (const [name, taken] of Object.entries(album.files)) {
      hue = (hue + 37) % 360;
      await writeDatedJpeg(path.join(fx.path(albumPath), name), taken, hue);
    }
  }
  const gallery = await fx.start();
  await gallery.library.ready();
  for (const [albumPath, album] of Object.entries(albums)) if (Object.keys(album.files).length > 0) await fx.knownFacts(albumPath);
  return fx;
}
