import type { BrowserContextOptions } from 'playwright-core';
import type { GalleryFixture } from '../support/gallery-fixture.js';
import { datedGallery, exifDate, todayYearsAgo } from '../timeline/dated-gallery.js';

/**
 * Two open albums that both match the word "trip" and hold a file of the same name
 * (IMG_0001.jpg), and a locked one that matches too, for the browser tests of pages of files
 * from many albums (search, timeline, on this day): what they show, choose and download.
 */
export const LISBON = 'trips/lisbon';
export const PORTO = 'trips/porto';
export const SECRET = 'trips/secret';
/** 125 older photos that "trip" does not find: the timeline's second page (120 a page) holds some. */
export const ARCHIVE = 'scans/archive';
export const ARCHIVE_FILES = Array.from({ length: 125 }, (_, i) => `old-${String(i + 1).padStart(3, '0')}.jpg`);

/** What a visitor without a password may find with "trip", by path. */
export const OPEN_FILES = [
  `${LISBON}/IMG_0001.jpg`,
  `${LISBON}/IMG_0002.jpg`,
  `${LISBON}/tram.jpg`,
  `${LISBON}/today.jpg`,
  `${PORTO}/IMG_0001.jpg`,
  `${PORTO}/bridge.jpg`,
  `${PORTO}/river.jpg`,
];

export function tripGallery(): Promise<GalleryFixture> {
  return datedGallery({
    [LISBON]: {
      meta: { title: 'Lisbon trip' },
      files: {
        'IMG_0001.jpg': exifDate(2023, 6, 10),
        'IMG_0002.jpg': exifDate(2023, 6, 11),
        'tram.jpg': exifDate(2023, 5, 2),
        // Taken on today's date two years ago: "On this day" shows it.
        'today.jpg': todayYearsAgo(2),
      },
    },
    [PORTO]: {
      meta: { title: 'Porto trip' },
      files: { 'IMG_0001.jpg': exifDate(2023, 6, 12), 'bridge.jpg': exifDate(2023, 5, 20), 'river.jpg': exifDate(2023, 4, 1) },
    },
    [SECRET]: { meta: { title: 'Secret trip', password: 'pw' }, files: { 's1.jpg': exifDate(2023, 6, 15), 'IMG_0001.jpg': todayYearsAgo(3) } },
    [ARCHIVE]: { meta: { title: 'Old scans' }, files: Object.fromEntries(ARCHIVE_FILES.map((name, i) => [name, exifDate(2022, 1 + (i % 12), 1 + (i % 28))])) },
  });
}

export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
  acceptDownloads: true,
};
export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 }, acceptDownloads: true };
export const DEVICES = { phone: PHONE, desktop: DESKTOP } as const;
