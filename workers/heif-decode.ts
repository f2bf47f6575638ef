/**
 * HEIC/HEIF photos, decoded for sharp. libvips reads their header (size, EXIF) but the
 * prebuilt sharp has no HEVC decoder, so the pixels come from libheif compiled to WebAssembly
 * (heic-decode): about 0.5 s for 8 megapixels on one core here, with the decoder's memory
 * growing to a few hundred MB and never shrinking while its thread lives. That is why HEIF
 * work runs in a lane of its own, one photo at a time, whose thread ends when idle
 * (server/media/pool.ts). libheif applies the container's rotation and mirroring, so the
 * pixels come out upright and carry no EXIF orientation to apply again.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp, { type SharpOptions } from 'sharp';
import { isHevcHeader } from '../server/core/media-catalogue.js';

/** Raw pixels and their layout, as sharp's `raw` input option wants them. */
export interface RawImage {
  readonly data: Buffer;
  readonly info: { readonly width: number; readonly height: number; readonly channels: 4 };
}

/**
 * The largest photo decoded: 120 megapixels (a 108 MP phone's HEIF fits) is ~480 MB of RGBA,
 * held twice during the hand-over from WebAssembly. A larger or lying header is refused
 * before any decoding.
 */
export const MAX_HEIF_PIXELS = 120_000_000;
/** Phones write 1 to 15 MB; the file is read whole (libheif-js takes a buffer), so it is capped. */
export const MAX_HEIF_BYTES = 256 * 1024 * 1024;

/**
 * True for a HEIF whose pixels are HEVC-coded (HEIC), which libvips cannot decode; an AVIF
 * (AV1 in the same container) is decoded by libvips itself. Reads the header only.
 */
export async function isHevcHeif(file: string, input: SharpOptions): Promise<boolean> {
  return isHevcHeader(await sharp(file, input).metadata());
}

/** The primary image of a HEIC file as raw RGBA, upright. */
export async function decodeHeif(file: string, input: SharpOptions): Promise<RawImage> {
  const { width, height } = await sharp(file, input).metadata();
  if (!(width > 0 && height > 0)) throw new Error(`${path.basename(file)} has no image size`);
  if (width * height > MAX_HEIF_PIXELS) {
    throw new Error(`${path.basename(file)} is ${width}x${height}, larger than the ${MAX_HEIF_PIXELS / 1e6} megapixels a HEIF photo may have`);
  }
  const { size } = await fs.stat(file);
  if (size > MAX_HEIF_BYTES) throw new Error(`${path.basename(file)} is ${size} bytes, more than a HEIF photo may have`);
  const buffer = await fs.readFile(file);
  // Loaded on first use: only the heif lane's threads pay for compiling the WebAssembly.
  const { default: decode } = await import('heic-decode');
  const image = await quietly(() => decode({ buffer }));
  // A view, not a copy: the RGBA array is handed to sharp as it is.
  const data = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  return { data, info: { width: image.width, height: image.height, channels: 4 } };
}

/**
 * libheif-js reports a failed decode with console.log before rejecting, which would put a
 * line that is not JSON into the server's log: its messages are kept for the error instead.
 * This worker runs one task at a time, so nothing else logs meanwhile.
 */
async function quietly<T>(work: () => Promise<T>): Promise<T> {
  const said: string[] = [];
  const { log, error, warn } = console;
  console.log =
    console.error =
    console.warn =
      (...args: unknown[]) => {
        if (said.length < 10) said.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
      };
  try {
    return await work();
  } catch (err) {
    throw new Error(`libheif could not decode the photo: ${said.join('; ') || String(err)}`, { cause: err });
  } finally {
    Object.assign(console, { log, error, warn });
  }
}
