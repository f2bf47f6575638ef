/** Rendering: SVG -> film grain -> sharpen, EXIF -> mozjpeg. */
import sharp, { type Exif, type OutputInfo } from 'sharp';
import { scenes, type SceneName } from './presets.js';
import { Rng } from './rng.js';
import type { Svg } from './svg.js';

/** Monochrome film grain (with a hint of chroma) at half resolution, scaled up to w x h. */
async function grain(rng: Rng, w: number, h: number, strength: number): Promise<Buffer> {
  const gw = Math.ceil(w / 2);
  const gh = Math.ceil(h / 2);
  const raw = Buffer.alloc(gw * gh * 3);
  for (let i = 0; i < gw * gh; i += 1) {
    const g = rng.gauss() * strength;
    const c = rng.gauss() * strength * 0.25;
    raw[i * 3] = Math.max(0, Math.min(255, Math.round(128 + g + c)));
    raw[i * 3 + 1] = Math.max(0, Math.min(255, Math.round(128 + g)));
    raw[i * 3 + 2] = Math.max(0, Math.min(255, Math.round(128 + g - c)));
  }
  return sharp(raw, { raw: { width: gw, height: gh, channels: 3 } })
    .resize(w, h, { kernel: 'cubic' })
    .raw()
    .toBuffer();
}

export async function renderSvg(svg: Svg, seed: string, grainStrength: number): Promise<{ data: Buffer; info: OutputInfo }> {
  const rng = new Rng(`${seed}#grain`);
  const noise = await grain(rng, svg.w, svg.h, grainStrength);
  const flat = await sharp(Buffer.from(svg.toString()), { density: 72 }).resize(svg.w, svg.h).removeAlpha().raw().toBuffer();
  return sharp(flat, { raw: { width: svg.w, height: svg.h, channels: 3 } })
    .composite([{ input: noise, raw: { width: svg.w, height: svg.h, channels: 3 }, blend: 'soft-light' }])
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
}

export async function encodeJpeg(pixels: { data: Buffer; info: OutputInfo }, opts: { quality: number; exif?: Exif; orientation?: number }): Promise<Buffer> {
  let img = sharp(pixels.data, {
    raw: { width: pixels.info.width, height: pixels.info.height, channels: pixels.info.channels as 3 },
  }).sharpen({ sigma: 0.6, m1: 0.5, m2: 1.5 });
  if (opts.exif) img = img.withExif(opts.exif);
  if (opts.orientation) img = img.withMetadata({ orientation: opts.orientation, density: 300 });
  return img.jpeg({ quality: opts.quality, mozjpeg: true, chromaSubsampling: '4:2:0' }).toBuffer();
}

export interface RenderedPhoto {
  jpeg: Buffer;
  pixels: { data: Buffer; info: OutputInfo };
}

export async function renderPhoto(
  seed: string,
  scene: SceneName,
  w: number,
  h: number,
  quality: number,
  grainStrength: number,
  exif?: Exif,
): Promise<RenderedPhoto> {
  const rng = new Rng(seed);
  const svg = scenes[scene](rng, w, h);
  const pixels = await renderSvg(svg, seed, grainStrength);
  const jpeg = await encodeJpeg(pixels, { quality, exif });
  return { jpeg, pixels };
}

export const PHOTO_QUALITY = 78;
export const PHOTO_GRAIN = 9;
