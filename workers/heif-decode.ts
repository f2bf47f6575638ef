/**
 * HEIC/HEIF photos, decoded for sharp. The prebuilt sharp has no HEVC decoder, so the pixels
 * come from libheif compiled to WebAssembly (heic-decode): about 0.5 s for 8 megapixels on
 * one core here, with the decoder's memory (its WebAssembly heap) growing with the largest
 * photo decoded and never shrinking while its thread lives. That is why HEIF work runs in a
 * lane of its own, one photo at a time, whose thread is ended after a large photo and when
 * idle (server/media/pool-lanes.ts). libheif applies the container's rotation and mirroring, so
 * the pixels come out upright and carry no EXIF orientation to apply again.
 *
 * What a decode costs is known before it starts, from the file's boxes (heif-items.ts):
 * every coded image libheif would decode, not only the size the file declares.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { HeifLayout } from './heif-items.js';

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
/**
 * Every pixel decoding one photo makes: its canvas and the tiles pasted on it (a phone's
 * 512 px tiles overhang the canvas by up to a tile on each side: an iPhone's 8.5 MP photo
 * decodes 11 MP of tiles onto its canvas, 19.5 MP in all), and its alpha plane.
 */
export const MAX_HEIF_DECODED_PIXELS = 2.5 * MAX_HEIF_PIXELS;
/** Phones write 1 to 15 MB; the file is read whole (libheif-js takes a buffer), so it is capped. */
export const MAX_HEIF_BYTES = 256 * 1024 * 1024;

/** Why decoding the photo of `layout` is refused (too large, or lying about its size); undefined when it may be decoded. */
export function heifTooLarge(file: string, layout: HeifLayout): Error | undefined {
  const name = path.basename(file);
  const { width, height, decodedPixels } = layout;
  if (width * height > MAX_HEIF_PIXELS) {
    return new Error(`${name} is ${width}x${height}, larger than the ${MAX_HEIF_PIXELS / 1e6} megapixels a HEIF photo may have`);
  }
  if (decodedPixels > MAX_HEIF_DECODED_PIXELS) {
    return new Error(
      `${name} declares ${width}x${height} but decoding it makes ${Math.round(decodedPixels / 1e6)} megapixels, more than the ${MAX_HEIF_DECODED_PIXELS / 1e6} allowed`,
    );
  }
  return undefined;
}

/** The primary image of a HEIC file as raw RGBA, upright; `layout` must have passed heifTooLarge. */
export async function decodeHeif(file: string, layout: HeifLayout): Promise<RawImage> {
  const refusal = heifTooLarge(file, layout);
  if (refusal) throw refusal;
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
