/** The two sample videos: a Ken Burns pan over a landscape, and a phone-style rotated clip. */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { encodeVideo, probeVideo } from './ffmpeg.js';
import { type SceneName, scenes } from './painter/presets.js';
import { renderSvg } from './painter/render.js';
import { Rng } from './painter/rng.js';
import { n } from './painter/svg.js';
import { orientationCard } from './painter/test-card.js';
import { log } from './output.js';

/** Slow Ken Burns pan-and-zoom over one generated landscape (HEVC in a MOV, as a phone writes, when asked). */
export async function makeKenBurns(out: string, seed: string, scene: SceneName, phone = false, takenAt?: string): Promise<void> {
  const srcW = 1600;
  const srcH = 900;
  const rng = new Rng(seed);
  const pixels = await renderSvg(scenes[scene](rng, srcW, srcH), seed, 6);
  const src = await sharp(pixels.data, { raw: { width: srcW, height: srcH, channels: 3 } })
    .png()
    .toBuffer();
  const fps = 25;
  const seconds = 4;
  const outW = 640;
  const outH = 360;
  async function* frames(): AsyncIterable<Buffer> {
    const count = fps * seconds;
    for (let i = 0; i < count; i += 1) {
      const t = i / (count - 1);
      const ease = t * t * (3 - 2 * t);
      const zoom = 1.0 + 0.18 * ease; // 100% -> 118%
      const cw = srcW / zoom;
      const ch = srcH / zoom;
      const left = (srcW - cw) * (0.15 + 0.7 * ease);
      const top = (srcH - ch) * (0.6 - 0.3 * ease);
      // sub-pixel crop through an affine resample keeps the motion smooth
      const scale = outW / cw;
      // (two pipelines: within one, sharp would extract before the affine transform)
      const moved = await sharp(src)
        .affine([scale, 0, 0, scale], { idx: -left * scale, idy: -top * scale, interpolator: 'bicubic' })
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const frame = await sharp(moved.data, { raw: { width: moved.info.width, height: moved.info.height, channels: 3 } })
        .extract({ left: 0, top: 0, width: outW, height: outH })
        .raw()
        .toBuffer();
      if (frame.length !== outW * outH * 3) throw new Error(`Ken Burns frame ${i} has ${frame.length} bytes`);
      yield frame;
    }
  }
  await encodeVideo(out, frames(), { w: outW, h: outH }, fps, phone ? { crf: 28, hevc: true, container: 'mov', ...(takenAt ? { takenAt } : {}) } : { crf: 24 });
  await probeVideo(out, { w: outW, h: outH, seconds, ...(phone ? { codec: 'hevc' } : {}) });
}

/**
 * The upright picture is portrait 360x640; frames are stored rotated 90° counter-clockwise
 * (640x360) and tagged rotate=90, so a player that honours the display matrix shows it upright.
 */
export async function makeRotatedVideo(out: string, albumsDir: string): Promise<void> {
  const uw = 360;
  const uh = 640;
  const fps = 25;
  const count = fps * 3;
  const base = orientationCard(uw, uh, 9).toString();
  async function* frames(): AsyncIterable<Buffer> {
    for (let i = 0; i < count; i += 1) {
      // a ball that climbs from bottom to top, so "up" is also visible in motion
      const y = uh * (0.92 - 0.84 * (i / (count - 1)));
      const svg = base.replace('</svg>', `<circle cx="${uw * 0.88}" cy="${n(y)}" r="18" fill="#ffcc00" stroke="#1d2433" stroke-width="4"/></svg>`);
      yield await sharp(Buffer.from(svg)).rotate(270).removeAlpha().raw().toBuffer();
    }
  }
  await encodeVideo(out, frames(), { w: uh, h: uw }, fps, { crf: 30, rotate: 90 });
  // ffprobe's side data gives the counter-clockwise angle: -90 for a "rotate=90" phone video
  await probeVideo(out, { w: uh, h: uw, seconds: count / fps, rotation: -90 });
  log(path.relative(albumsDir, out), (await stat(out)).size);
}

/**
 * The movie of a Live Photo: 1.5 s in which the still's picture slowly comes closer, HEVC in a
 * MOV as an iPhone writes it, at a quarter of the still's size (a Live Photo's movie is smaller
 * than its still).
 */
export async function makeLiveMotion(still: Buffer, out: string): Promise<void> {
  const meta = await sharp(still).metadata();
  const w = Math.round(meta.width / 4 / 2) * 2;
  const h = Math.round(meta.height / 4 / 2) * 2;
  const fps = 30;
  const count = 45;
  async function* frames(): AsyncIterable<Buffer> {
    for (let i = 0; i < count; i += 1) {
      const zoom = 1 + 0.08 * (i / (count - 1));
      const cw = Math.round(meta.width / zoom);
      const ch = Math.round(meta.height / zoom);
      yield await sharp(still)
        .extract({ left: Math.round((meta.width - cw) / 2), top: Math.round((meta.height - ch) / 2), width: cw, height: ch })
        .resize(w, h, { fit: 'fill' })
        .removeAlpha()
        .raw()
        .toBuffer();
    }
  }
  await encodeVideo(out, frames(), { w, h }, fps, { crf: 28, hevc: true, container: 'mov' });
  await probeVideo(out, { w, h, seconds: count / fps, codec: 'hevc' });
}
