/**
 * Opening a photo for the media worker's tasks, by what the file is rather than what it is
 * called: a HEIC named `.jpg`, a JPEG named `.heic` and a photo without an extension are all
 * told apart by their first bytes. HEIF files are read by our own bounded reader
 * (heif-items.ts) for their size, turn and EXIF, and their HEVC pixels are decoded by libheif
 * (heif-decode.ts), which only the pool's heif lane may run: a main-lane worker that finds
 * one says so (needsHeifLaneError) and the pool hands the task to that lane.
 *
 * Damaged photos: libvips is asked to go on past errors in the pixels (`failOn: 'none'`), so a
 * phone photo cut short or a truncated GIF shows the part that is there, as every browser
 * does; a file whose header nothing can read still fails, and its tile shows the designed
 * "cannot show" state. libvips stops at the end of the data it has: a truncated file costs
 * no more time or memory than a whole one of its size.
 */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { workerData } from 'node:worker_threads';
import sharp, { type Sharp, type SharpOptions } from 'sharp';
import { collectWhenQuiet } from '../server/core/idle-gc.js';
import { fileSource } from '../server/core/media/byte-source.js';
import { isHevcHeader } from '../server/core/media-catalogue.js';
import { decodeHeif, heifTooLarge } from './heif-decode.js';
import { type HeifLayout, HeifLayoutError, isHeifHead, readHeifLayout } from './heif-items.js';
import { needsHeifLaneError } from './tasks.js';

/**
 * How libvips reads pixels: past errors in the data (a file cut short, a corrupt scan) with
 * what decodes, as browsers show such files. Headers that cannot be read still fail.
 */
export const SHARP_INPUT: SharpOptions = Object.freeze({ failOn: 'none' });

/** The formats told apart by their first bytes; 'other' is whatever libvips makes of it. */
export type ImageFormat = 'jpeg' | 'png' | 'gif' | 'webp' | 'tiff' | 'heif' | 'other';

/** A photo file, identified. */
export interface ImageFile {
  readonly path: string;
  readonly format: ImageFormat;
  /** For a HEIF: its layout, or why it could not be read (libvips may still read an AVIF). */
  readonly heif?: HeifLayout | HeifLayoutError;
}

/** The bytes that tell the formats apart, and hold a HEIF's `ftyp` box. */
const SNIFF_BYTES = 64;
/** Read once with the head: a phone HEIC's `meta` box (a few KB) usually lies within it. */
const HEIF_HEAD_BYTES = 64 * 1024;

/** Whether this thread may run libheif: the pool starts the heif lane's threads with `{ heifDecoder: true }`. */
const HEIF_DECODER_HERE = (workerData as { heifDecoder?: unknown } | null)?.heifDecoder === true;

/** What `file` is, from its first bytes (and a HEIF's `meta` box). */
export async function identify(file: string): Promise<ImageFile> {
  const handle = await fs.open(regularFile(file), 'r');
  try {
    const { size } = await handle.stat();
    const source = fileSource(handle, size, HEIF_HEAD_BYTES);
    const head = await source.read(0, SNIFF_BYTES);
    const format = formatOf(head);
    if (format !== 'heif') return { path: file, format };
    const heif = await readHeifLayout(source).catch((err: unknown) => {
      if (err instanceof HeifLayoutError) return err;
      throw err;
    });
    return { path: file, format, heif };
  } finally {
    await handle.close();
  }
}

export function formatOf(head: Buffer): ImageFormat {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= 8 && head.readUInt32BE(0) === 0x89504e47 && head.readUInt32BE(4) === 0x0d0a1a0a) return 'png';
  if (head.length >= 6 && /^GIF8[79]a$/.test(head.toString('latin1', 0, 6))) return 'gif';
  if (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  if (head.length >= 4 && /^(II\x2a\0|MM\0\x2a|II\x2b\0|MM\0\x2b)$/.test(head.toString('latin1', 0, 4))) return 'tiff';
  if (isHeifHead(head)) return 'heif';
  return 'other';
}

/**
 * Whether libheif must decode the photo: a HEIF of HEVC pixels (HEIC), which libvips here
 * cannot decode. A HEIF our reader could not read is asked of libvips' header instead.
 */
export async function needsLibheif(image: ImageFile): Promise<boolean> {
  if (image.format !== 'heif' || image.heif === undefined) return false;
  if (!(image.heif instanceof HeifLayoutError)) return image.heif.coding === 'hevc';
  try {
    return isHevcHeader(await sharp(image.path, SHARP_INPUT).metadata());
  } catch {
    // Neither reader makes sense of it: libvips will say why when it is opened.
    return false;
  }
}

/**
 * The photo ready for a sharp pipeline: the file itself, or for a HEIC the raw pixels libheif
 * made of it, already upright. A HEIF libvips fails to open (its header, or its pixels when
 * libvips has no decoder for them) falls back to libheif too.
 */
export async function openImage(image: ImageFile, input: SharpOptions = SHARP_INPUT): Promise<Sharp> {
  if (await needsLibheif(image)) return libheifImage(image);
  const opened = sharp(image.path, input);
  if (image.format !== 'heif') return opened;
  try {
    await opened.metadata();
    return opened;
  } catch (err) {
    // libvips refuses some HEIFs libheif reads (more items than its limit): try that.
    if (image.heif instanceof HeifLayoutError || image.heif === undefined) throw err;
    return libheifImage(image);
  }
}

async function libheifImage(image: ImageFile): Promise<Sharp> {
  const layout = image.heif;
  if (layout instanceof HeifLayoutError) throw new Error(`${path.basename(image.path)} is a HEIF that cannot be read safely: ${layout.message}`);
  if (layout === undefined) throw new TypeError(`${image.path} is not a HEIF`);
  // Refused before anything is decoded, wherever it is asked: a bomb costs no thread its heap.
  const refusal = heifTooLarge(image.path, layout);
  if (refusal) throw refusal;
  if (!HEIF_DECODER_HERE) throw needsHeifLaneError(`${path.basename(image.path)} is a HEIC`);
  const { data, info } = await decodeHeif(image.path, layout);
  const decoded = sharp(data, { raw: info });
  fromLibheif.add(decoded);
  return decoded;
}

/** Pipelines over pixels libheif decoded: 100 MB of RGBA for a 24 MP photo, outside V8's heap. */
const fromLibheif = new WeakSet<Sharp>();
const collectSoon = collectWhenQuiet(1);

/**
 * Called as an image task ends: after one that held a libheif decode's pixels, a full
 * collection as soon as the task is over. V8 would collect the array only later, and the
 * next photo's decode would come on top of it (measured: 650 MB peak over 24 MP HEICs looked
 * at one after the other, against 600 allowed).
 */
export function imageTaskDone(image: Sharp | undefined): void {
  if (image !== undefined && fromLibheif.has(image)) collectSoon.touch();
}

/** What the headers of a photo say. */
export interface ImageHeader {
  /** Size as the photo shows before the owner's turn (EXIF orientation, or a HEIF's own turn, applied). */
  readonly width: number;
  readonly height: number;
  /** Size as stored, and the EXIF orientation to apply to it. */
  readonly stored: { readonly width: number; readonly height: number; readonly orientation?: number };
  /** The EXIF block (a TIFF block), when there is one. */
  readonly exif?: Buffer;
  /** The XMP packet and the IPTC-IIM block (Photoshop resources) libvips found; none for a HEIF read by our reader. */
  readonly xmp?: Buffer;
  readonly iptc?: Buffer;
  /** A HEIF of HEVC pixels: libheif decodes it. */
  readonly hevc: boolean;
}

/** What the headers of `image` say, without decoding a pixel. */
export async function imageHeader(image: ImageFile): Promise<ImageHeader> {
  const layout = image.heif;
  if (layout !== undefined && !(layout instanceof HeifLayoutError)) {
    // libheif shows a HEIF turned by its `irot`, whatever its EXIF orientation says.
    const turned = layout.turn.quarters % 2 === 1;
    const exif = layout.exif ? await heifExif(image.path, layout.exif) : undefined;
    const [width, height] = turned ? [layout.height, layout.width] : [layout.width, layout.height];
    return { width, height, stored: { width, height }, ...(exif ? { exif } : {}), hevc: layout.coding === 'hevc' };
  }
  const meta = await sharp(image.path, SHARP_INPUT).metadata();
  const stored = { width: meta.width, height: meta.height, ...(meta.orientation === undefined ? {} : { orientation: meta.orientation }) };
  const blocks = { ...(meta.exif ? { exif: meta.exif } : {}), ...(meta.xmp ? { xmp: meta.xmp } : {}), ...(meta.iptc ? { iptc: meta.iptc } : {}) };
  return { ...meta.autoOrient, stored, ...blocks, hevc: isHevcHeader(meta) };
}

/** A HEIF's Exif item: a 4-byte offset to the TIFF header, then the TIFF block (at most 1 MB read). */
async function heifExif(file: string, extents: readonly { at: number; length: number }[]): Promise<Buffer | undefined> {
  const total = extents.reduce((sum, e) => sum + e.length, 0);
  if (total > 1024 * 1024) return undefined;
  const handle = await fs.open(file, 'r');
  try {
    const parts = await Promise.all(
      extents.map(async (e) => {
        const buffer = Buffer.alloc(e.length);
        const { bytesRead } = await handle.read(buffer, 0, e.length, e.at);
        return buffer.subarray(0, bytesRead);
      }),
    );
    const item = Buffer.concat(parts);
    if (item.length < 4) return undefined;
    const tiffAt = 4 + item.readUInt32BE(0);
    return tiffAt < item.length ? item.subarray(tiffAt) : undefined;
  } finally {
    await handle.close();
  }
}

/**
 * Images are opened by libvips threads (and by libuv's, for the head), which no deadline can
 * free: an open() of a FIFO or device would hang there for good and keep the process from
 * exiting. The routes vet their files already; this keeps every image task safe on its own.
 * Synchronous: a worker thread runs one task at a time.
 */
export function regularFile(file: string): string {
  if (!fsSync.statSync(file).isFile()) throw new Error(`${path.basename(file)} is not a regular file`);
  return file;
}
