/**
 * The location corpus of issue #25: photos and videos that record one place (corpus-place.ts)
 * the ways the tools families use write it, built at test time into a directory. Each item
 * says how its pixels are compared once served (sharp, libheif for the iPhone's HEIC, ffmpeg's
 * decoded frames for movies). Needs ExifTool and ImageMagick (missingTools()).
 */
import fs from 'node:fs';
import path from 'node:path';
import * as images from './corpus-images.js';
import * as movies from './corpus-movies.js';

export type Decoder = 'sharp' | 'sharp-pages' | 'heif' | 'ffmpeg';

export interface CorpusItem {
  /** File name in the album. */
  readonly name: string;
  /** What made it and where its place is. */
  readonly what: string;
  readonly decoder: Decoder;
  readonly build: (file: string) => Promise<void>;
}

const HEIC_FIXTURE = path.join(import.meta.dirname, '../fixtures/heic/IMG_5195.HEIC');

export const CORPUS: readonly CorpusItem[] = [
  { name: 'sharp.jpg', what: 'sharp withExif: GPS, caption, user comment', decoder: 'sharp', build: images.jpegSharp },
  { name: 'exiftool.jpg', what: 'ExifTool: GPS, IPTC-IIM (APP13), XMP photoshop and Iptc4xmpExt, XPComment', decoder: 'sharp', build: images.jpegExiftool },
  { name: 'xmp-forms.jpg', what: 'XMP as CDATA, rdf:value, default namespace, LocationCreated', decoder: 'sharp', build: images.jpegXmpForms },
  { name: 'extended-xmp.jpg', what: 'ExtendedXMP segments', decoder: 'sharp', build: images.jpegExtendedXmp },
  { name: 'many-segments.jpg', what: '600 segments before the Exif APP1', decoder: 'sharp', build: images.jpegManySegments },
  { name: 'multi-picture.jpg', what: 'MPF: a second JPEG with its own GPS', decoder: 'sharp', build: images.jpegMultiPicture },
  { name: 'motion-photo.jpg', what: 'a motion photo: an MP4 with its location after the JPEG', decoder: 'sharp', build: images.jpegMotionPhoto },
  { name: 'imagemagick.png', what: 'ImageMagick: tEXt exif:GPS*, zTXt raw profiles', decoder: 'sharp', build: images.pngImageMagick },
  { name: 'exiftool.png', what: 'ExifTool: eXIf, iTXt XMP', decoder: 'sharp', build: images.pngExiftool },
  { name: 'many-chunks.png', what: '5,000 IDAT chunks, then eXIf', decoder: 'sharp', build: images.pngManyChunks },
  { name: 'sharp.tif', what: 'sharp tiffsave XMP (700), ExifTool GPS, IPTC (33723), Photoshop (34377)', decoder: 'sharp', build: images.tiffSharp },
  { name: 'imagemagick.tif', what: 'ImageMagick: XMP (700), IPTC (33723)', decoder: 'sharp', build: images.tiffImageMagick },
  { name: 'imagemagick.webp', what: 'ImageMagick: EXIF, XMP\\0', decoder: 'sharp', build: images.webpImageMagick },
  { name: 'sharp.webp', what: 'sharp withExif', decoder: 'sharp', build: images.webpSharp },
  { name: 'animated.webp', what: '75 frames, then EXIF', decoder: 'sharp-pages', build: images.webpAnimated },
  { name: 'sharp.avif', what: 'sharp withExif', decoder: 'sharp', build: images.avifSharp },
  { name: 'iphone.heic', what: "an iPhone's HEIC (test/fixtures)", decoder: 'heif', build: async (file) => fs.copyFileSync(HEIC_FIXTURE, file) },
  { name: 'exiftool.gif', what: 'ImageMagick comment, ExifTool XMP', decoder: 'sharp-pages', build: images.gifExiftool },
  { name: 'ffmpeg.mov', what: 'ffmpeg -metadata location= and title (udta/©xyz)', decoder: 'ffmpeg', build: movies.movFfmpegLocation },
  { name: 'ffmpeg.mp4', what: 'ffmpeg -metadata location= and title (udta/loci, ilst)', decoder: 'ffmpeg', build: movies.mp4FfmpegLocation },
  { name: 'ffmpeg.webm', what: 'ffmpeg -metadata location= and title (Tags)', decoder: 'ffmpeg', build: movies.webmFfmpegLocation },
  { name: 'iphone-keys.mov', what: "Apple's keys in moov/meta", decoder: 'ffmpeg', build: movies.movIphoneKeys },
  { name: 'many-keys.mp4', what: '300 keys, then the location key', decoder: 'ffmpeg', build: movies.mp4ManyKeys },
  { name: 'exiftool-xmp.mp4', what: 'ExifTool: uuid XMP, udta and Keys GPSCoordinates', decoder: 'ffmpeg', build: movies.mp4ExiftoolXmp },
  { name: 'exiftool-xmp.mov', what: 'ExifTool: udta/XMP_ with Iptc4xmpExt', decoder: 'ffmpeg', build: movies.movExiftoolXmp },
  { name: 'track-udta.mov', what: '©xyz in trak/udta', decoder: 'ffmpeg', build: movies.mp4TrackUserData },
  { name: 'many-children.mov', what: '300 children of moov before udta', decoder: 'ffmpeg', build: movies.movManyMoovChildren },
  { name: 'subtitles.mp4', what: 'a tx3g subtitle track with the position (drones)', decoder: 'ffmpeg', build: movies.mp4SubtitleTrack },
  { name: 'gopro.mp4', what: 'a GoPro-style gpmd track (GPS5)', decoder: 'ffmpeg', build: movies.mp4GoproGps },
];

/** Builds every item of the corpus into `dir` (two at a time: the machine is shared). */
export async function buildCorpus(dir: string, items: readonly CorpusItem[] = CORPUS): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item; item = queue.shift()) {
      try {
        await item.build(path.join(dir, item.name));
      } catch (err) {
        throw new Error(`building ${item.name}: ${(err as Error).message}`, { cause: err });
      }
    }
  };
  await Promise.all([worker(), worker()]);
}
