/**
 * The media worker's photo facts (media-worker.ts): whether an upload decodes (`decodeCheck`),
 * the EXIF record of docs/api.md (`exif`), and the photo half of `dimensions` (size as
 * displayed, date taken, ThumbHash placeholder). Headers are read within fixed bounds, as
 * they come from untrusted files; only `decodeCheck` and the placeholder touch pixels.
 */
import fs from 'node:fs/promises';
import sharp, { type SharpOptions } from 'sharp';
import { turnedSize } from '../server/core/albums/rotations.js';
import { takenFromExif } from '../server/core/media/taken-date.js';
import { type ExifFields, exifPreview, readExifFields, readExifPosition, readJpegHead } from './exif-reader.js';
import { identify, type ImageHeader, imageHeader, imageTaskDone, openImage, regularFile, SHARP_INPUT } from './open-image.js';
import { cameraName, iptcPlaces, MAX_OWN_PLACES, uniqueNames, xmpPlaceFacts } from './place-tags.js';
import { type Budget, startTask } from './task-budget.js';
import type { DecodedImage, Dimensions, DimensionsTask, ExifRecord, PathTask, TaskClock, TileDimensions } from './tasks.js';
import { thumbHashOf, thumbHashOfPreview } from './thumb-hash.js';

/**
 * Proves a file is a photo the gallery can show by decoding it whole (an upload, before it
 * reaches an album): header, format and size as sharp reads them.
 */
export async function decodeCheck(task: PathTask & TaskClock): Promise<DecodedImage> {
  const budget = startTask(task);
  // An upload's temp file has no telling name: its bytes say what it is.
  const file = await identify(task.src);
  const { width, height } = await imageHeader(file);
  // Strict, unlike what the gallery shows: an upload cut short is a transfer that failed, and the owner is told.
  const image = await openImage(file, UPLOAD_INPUT);
  try {
    // A small resize still decodes every pixel (cheaply for a JPEG, with shrink-on-load).
    await image.timeout({ seconds: budget.seconds() }).resize(32, 32, { fit: 'inside' }).raw().toBuffer();
  } finally {
    imageTaskDone(image);
  }
  const format =
    file.format === 'heif' || file.format === 'other'
      ? ((
          await sharp(file.path, UPLOAD_INPUT)
            .metadata()
            .catch(() => undefined)
        )?.format ?? file.format)
      : file.format;
  return { format, width, height };
}

/**
 * The EXIF record of docs/api.md, reading only the head of the file. The EXIF block comes from
 * untrusted files, so it is read by a parser whose work is bounded by the block's size.
 */
export async function exif(task: PathTask & TaskClock): Promise<ExifRecord> {
  startTask(task);
  const src = regularFile(task.src);
  const head = await readHead(src, EXIF_HEAD_BYTES);
  let fields: ExifFields | undefined;
  let size: Dimensions | undefined;

  if (isJpeg(head)) {
    const jpeg = readJpegHead(head);
    if (jpeg.exif) fields = readExifFields(jpeg.exif);
    size = jpeg.size;
  }
  if (!isJpeg(head) || size === undefined) {
    // Headers only: libvips finds EXIF in PNG, WebP and TIFF containers, our reader in a
    // HEIF's. A JPEG whose frame header lies past the head lands here too: its pixels may be fine.
    const header = await imageHeader(await identify(src));
    if (header.exif && fields === undefined) fields = readExifFields(header.exif);
    size = { width: header.width, height: header.height };
  }

  return {
    Make: fields?.Make ?? null,
    Model: fields?.Model ?? null,
    LensModel: fields?.LensModel ?? null,
    FocalLength: fields?.FocalLength ?? null,
    FNumber: fields?.FNumber ?? null,
    ExposureTime: fields?.ExposureTime ?? null,
    ISO: fields?.ISO ?? null,
    DateTimeOriginal: exifDate(fields?.DateTimeOriginal ?? null),
    ImageWidth: size?.width ?? null,
    ImageHeight: size?.height ?? null,
  };
}

/**
 * A photo's tile: its size as displayed (EXIF orientation, then the owner's turn), from
 * headers only, its date taken and its ThumbHash placeholder (workers/thumb-hash.ts).
 */
export async function photoDimensions(task: DimensionsTask, budget: Budget): Promise<TileDimensions> {
  const file = await identify(task.src);
  const src = file.path;
  const header = await imageHeader(file);
  // The date, the camera and the place come with the header just read (its EXIF, XMP and IPTC blocks).
  const fields = header.exif ? readExifFields(header.exif) : undefined;
  const taken = takenFromExif(fields?.DateTimeOriginal ?? null);
  const rotate = task.rotate ?? 0;
  const size = { ...turnedSize({ width: header.width, height: header.height }, rotate), ...(taken ? { taken } : {}), ...placeFacts(header, fields) };
  // A HEIC takes libheif 0.5–1 s to decode: its tile goes without a placeholder.
  if (header.hevc || task.withoutPlaceholder) return size;
  // The size stands on the header alone; a photo whose pixels fail to decode (cut short) still
  // has one, and its tile shows the designed "cannot show" state once its thumbnail fails. A
  // placeholder is not worth holding a worker for long (a huge PNG or TIFF, which libvips
  // cannot shrink while decoding): past PLACEHOLDER_SECONDS the tile goes without.
  const seconds = Math.min(PLACEHOLDER_SECONDS, budget.seconds());
  const preview = file.format === 'jpeg' ? await cameraPreview(src) : undefined;
  const fromPreview = preview && (await thumbHashOfPreview(preview, header.stored, rotate).catch(() => undefined));
  const thumbHash = fromPreview ?? (await thumbHashOf(sharp(src, SHARP_INPUT).timeout({ seconds }), rotate).catch(() => undefined));
  return thumbHash === undefined ? size : { ...size, thumbHash };
}

/** The camera, the position and the place names of a photo's header blocks; only those it has. */
function placeFacts(header: ImageHeader, fields: ExifFields | undefined): Pick<TileDimensions, 'camera' | 'position' | 'places'> {
  const camera = cameraName(fields?.Make, fields?.Model);
  const xmp = xmpPlaceFacts(header.xmp);
  // XMP's GPS is a fallback: a tool that writes both copies EXIF's, and EXIF's is what the camera wrote.
  const position = (header.exif ? readExifPosition(header.exif) : null) ?? xmp.position;
  const places = uniqueNames([...xmp.places, ...iptcPlaces(header.iptc)], MAX_OWN_PLACES);
  return { ...(camera ? { camera } : {}), ...(position ? { position } : {}), ...(places.length > 0 ? { places } : {}) };
}

/**
 * Uploads are held to 'error' rather than the 'none' of what the gallery shows: real cameras
 * write files with harmless warnings (extraneous bytes before a marker), while a file cut
 * short in transfer fails, and the owner is told.
 */
const UPLOAD_INPUT: SharpOptions = { failOn: 'error' };
/** The most a photo's ThumbHash may take (a 24 MP JPEG takes some 65 ms). */
const PLACEHOLDER_SECONDS = 2;
/** EXIF lives in APP1, at most 64 KB, near the start; 256 KB leaves room for other segments. */
const EXIF_HEAD_BYTES = 256 * 1024;

/** The preview JPEG a camera wrote into the EXIF block, when the head of the file holds it. */
async function cameraPreview(src: string): Promise<Buffer | undefined> {
  const { exif } = readJpegHead(await readHead(src, EXIF_HEAD_BYTES));
  return exif ? exifPreview(exif) : undefined;
}

async function readHead(file: string, bytes: number): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    // Unsafe is fine: only the bytes read are kept.
    const buffer = Buffer.allocUnsafe(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function isJpeg(head: Buffer): boolean {
  return head.length > 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
}

/** 'YYYY:MM:DD HH:MM:SS'; also accepts the ISO-like variant some tools write; null when unset. */
function exifDate(value: string | null): string | null {
  if (typeof value !== 'string') return null;
  const m = /^(\d{4})[:-](\d{2})[:-](\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(value.trim());
  if (!m || m[1] === '0000') return null;
  return `${m[1]}:${m[2]}:${m[3]} ${m[4]}:${m[5]}:${m[6]}`;
}
