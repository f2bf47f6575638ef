/**
 * The sample albums: what each one shows, its album.json, the camera it was "shot" with and its
 * photos (file name, scene preset from painter/presets.ts, size, light). This table is what to
 * edit to change the samples; main.ts turns it into files, the same bytes on every run.
 */
import path from 'node:path';
import type { Camera } from '../image-fixtures/camera-exif.js';
import { CAMERAS, type Light } from './cameras.js';
import type { SceneName } from './painter/presets.js';
import { hashSeed } from './painter/rng.js';

const L = { w: 1600, h: 1067 }; // 3:2 landscape
const P = { w: 1067, h: 1600 }; // 2:3 portrait
const SQ = { w: 1400, h: 1400 };
const PANO = { w: 1800, h: 600 };
const PHONE = { w: 1600, h: 1200 }; // 4:3

/** The album of phone media (phone.ts). */
export const PHONE_ALBUM = '2025/family/weekend';

export const ALBUMS: AlbumSpec[] = [
  {
    path: '2024/travel/lisbon',
    meta: { title: 'Lisbon in October', style: 'grid', order: 1, thumbnail: 'DSCF4127.jpg' },
    camera: CAMERAS.fuji,
    focals: [16, 23, 35, 55],
    start: '2024-10-12T17:42:10Z',
    photos: [
      { name: 'DSCF4102.jpg', scene: 'lisbonRooftops', ...L, light: 'golden' },
      { name: 'DSCF4108.jpg', scene: 'lisbonRooftops', ...P, light: 'golden' },
      { name: 'DSCF4115.jpg', scene: 'lisbonRooftops', ...L, light: 'golden' },
      { name: 'DSCF4127.jpg', scene: 'lisbonBridge', ...L, light: 'golden' },
      { name: 'DSCF4131.jpg', scene: 'lisbonBridge', ...L, light: 'golden' },
      { name: 'DSCF4140.jpg', scene: 'lisbonDusk', ...L, light: 'night' },
      { name: 'DSCF4146.jpg', scene: 'lisbonDusk', ...P, light: 'night' },
      { name: 'DSCF4152.jpg', scene: 'cityTrails', ...L, light: 'night' },
    ],
  },
  {
    path: '2024/nature/alps',
    meta: { title: 'Alps, Summer Hike', style: 'masonry', order: 2, thumbnail: 'DSC01851.jpg' },
    camera: CAMERAS.sony,
    focals: [24, 35, 50, 70],
    start: '2024-07-21T05:48:00Z',
    photos: photos('DSC0', 1842, [
      ['alpsDawn', L, 'golden'],
      ['alpsDawn', PANO, 'golden'],
      ['alpsDay', P, 'day'],
      ['alpsLake', SQ, 'day'],
      ['alpsDay', L, 'day'],
      ['alpsLake', PANO, 'day'],
      ['alpsBlueHour', P, 'night'],
      ['alpsBlueHour', L, 'night'],
    ]),
  },
  {
    path: '2023/people/portraits',
    meta: { title: 'Studio Portraits', style: 'single', order: 1 },
    camera: CAMERAS.canon,
    focals: [85],
    start: '2023-03-04T14:05:00Z',
    photos: photos('IMG_', 2207, [
      ['portraitWarm', P, 'indoor'],
      ['portraitTeal', P, 'indoor'],
      ['portraitBokeh', P, 'golden'],
      ['portraitMono', P, 'indoor'],
    ]),
  },
  {
    path: '2022/collections/best-of',
    meta: { title: 'Best of 2022', isCollection: true, order: 1, thumbnail: 'sunsets/DSC_0412.jpg' },
    camera: CAMERAS.nikon,
    focals: [24],
    start: '2022-12-30T12:00:00Z',
    photos: [],
  },
  {
    path: '2022/collections/best-of/sunsets',
    meta: { title: 'Sunsets', style: 'grid', order: 1 },
    camera: CAMERAS.nikon,
    focals: [24, 50, 85, 120],
    start: '2022-08-14T20:31:00Z',
    photos: [
      { name: 'DSC_0398.jpg', scene: 'sunsetSea', ...L, light: 'golden' },
      { name: 'DSC_0412.jpg', scene: 'sunsetSea', ...L, light: 'golden' },
      { name: 'DSC_0431.jpg', scene: 'sunsetSea', ...P, light: 'golden' },
    ],
  },
  {
    path: '2022/collections/best-of/city-lights',
    meta: { title: 'City Lights', style: 'masonry', order: 2 },
    camera: CAMERAS.iphone,
    focals: [6.765],
    start: '2022-11-26T22:14:00Z',
    photos: photos('IMG_', 4410, [
      ['cityNight', PHONE, 'night'],
      ['cityTrails', { w: 1200, h: 1600 }, 'night'],
      ['cityNight', PHONE, 'night'],
    ]),
  },
  {
    path: '2023/events/wedding',
    meta: { title: 'Anna & Tom: Wedding', password: 'open-sesame', style: 'grid', order: 1 },
    camera: CAMERAS.canon50,
    focals: [50],
    start: '2023-06-17T15:20:00Z',
    photos: photos('IMG_', 8120, [
      ['weddingGarden', L, 'golden'],
      ['weddingBokeh', P, 'indoor'],
      ['weddingGarden', L, 'golden'],
    ]),
  },
  {
    path: '2023/events/wedding/reception',
    meta: { title: 'Reception', style: 'grid', order: 1 },
    camera: CAMERAS.canon50,
    focals: [50],
    start: '2023-06-17T20:45:00Z',
    photos: photos('IMG_', 8233, [
      ['receptionTable', L, 'indoor'],
      ['weddingBokeh', L, 'indoor'],
      ['receptionTable', P, 'indoor'],
    ]),
  },
  {
    path: '2023/events/garden-party',
    meta: {
      title: 'Garden Party',
      password: 'garden',
      allowAnonymous: true,
      token: 'edcceb2d-acd3-4396-9547-743cb0690005',
      style: 'masonry',
      order: 2,
    },
    camera: CAMERAS.ricoh,
    focals: [18.3],
    start: '2023-08-05T16:10:00Z',
    photos: photos('R00', 10231, [
      ['gardenDay', L, 'day'],
      ['gardenDay', P, 'day'],
      ['gardenDusk', L, 'golden'],
    ]),
  },
  {
    // Phone media (phone.ts adds the rest): a real iPhone HEIC, a Live Photo whose movie is
    // HEVC as an iPhone writes it, and an HEVC clip; the JPEG still is generated here.
    path: PHONE_ALBUM,
    meta: { title: 'A Weekend, on the Phone', style: 'grid', order: 1, thumbnail: 'IMG_6012.JPG' },
    camera: CAMERAS.iphone,
    focals: [6.765],
    start: '2025-05-17T10:12:00Z',
    photos: [
      { name: 'IMG_6008.JPG', scene: 'gardenDay', w: 1200, h: 1600, light: 'day' },
      { name: 'IMG_6012.JPG', scene: 'gardenDusk', w: 1600, h: 1200, light: 'golden' },
    ],
  },
];

/** The hidden album of test fixtures, made by edge-cases.ts. */
export const EDGE_CASES = '2022/tests/edge-cases';

export interface AlbumMeta {
  title: string;
  password?: string;
  thumbnail?: string;
  order?: number;
  hidden?: boolean;
  isCollection?: boolean;
  allowAnonymous?: boolean;
  style?: 'grid' | 'masonry' | 'single';
  token?: string;
}

export interface PhotoSpec {
  name: string;
  scene: SceneName;
  w: number;
  h: number;
  light: Light;
}

export interface AlbumSpec {
  path: string;
  meta: AlbumMeta;
  camera: Camera;
  focals: number[];
  start: string; // ISO date-time of the first shot (UTC, written as local camera time)
  photos: PhotoSpec[];
}

/** Camera-style file names; the frame counter has gaps, like a card where some shots were deleted. */
function photos(prefix: string, first: number, list: Array<[SceneName, { w: number; h: number }, Light]>): PhotoSpec[] {
  let frame = first;
  return list.map(([scene, size, light], i) => {
    const name = `${prefix}${String(frame).padStart(4, '0')}.jpg`;
    frame += 1 + (hashSeed(`${prefix}${i}`) % 4);
    return { name, scene, ...size, light };
  });
}

/** Every `thumbnail` must name a photo of the album or of one of its descendants. */
export function checkThumbnails(): void {
  for (const album of ALBUMS) {
    const thumb = album.meta.thumbnail;
    if (!thumb) continue;
    const owner = path.posix.join(album.path, path.posix.dirname(thumb));
    const spec = ALBUMS.find((a) => a.path === owner);
    if (!spec?.photos.some((p) => p.name === path.posix.basename(thumb))) {
      throw new Error(`${album.path}: thumbnail ${thumb} is not one of the generated photos`);
    }
  }
}
