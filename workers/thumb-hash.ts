/**
 * The placeholder a tile shows before its thumbnail arrives (docs/api.md#placeholders): a
 * ThumbHash, some 20–30 bytes that decode in the browser to a blurred picture of the photo.
 *
 * It is made in the dimensions task, from the photo itself rather than from a thumbnail (the
 * page is rendered before any thumbnail exists). A camera JPEG carries a small preview in its
 * EXIF block, which costs about a millisecond to use; without one, libvips shrinks a JPEG or
 * WebP while decoding it (a 6000 px JPEG at 1/8 scale), which still costs some 65 ms for a
 * 24 MP JPEG (the whole file is entropy-decoded) against 0.5 ms for reading its header.
 */
import sharp, { type Sharp } from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import { transformOf } from '../server/core/media/orientation.js';

/** ThumbHash encodes images of at most 100×100 pixels. */
const MAX_SIDE = 100;

/** The ThumbHash of an image (an unstarted sharp pipeline), base64; turned `rotate` degrees clockwise after its own orientation. */
export async function thumbHashOf(image: Sharp, rotate = 0): Promise<string> {
  const upright = image.autoOrient();
  const { data, info } = await (rotate === 0 ? upright : upright.rotate(rotate))
    .resize(MAX_SIDE, MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
    // Greyscale and CMYK photos come out as sRGB too: the encoder reads 4 bytes a pixel.
    .toColourspace('srgb')
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 4) throw new Error(`Expected RGBA pixels for a ThumbHash but received ${info.channels} channels`);
  return Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString('base64');
}

/**
 * The ThumbHash of a photo from its EXIF preview. The preview has the stored pixels' layout
 * (the photo's EXIF orientation is applied here), and many cameras pad a 3:2 photo into a
 * 4:3 preview with black bars: the preview is cut to the photo's own shape first.
 *
 * The preview is decoded once and everything after is done on its ~20,000 pixels in place:
 * three libvips pipelines (cut, orient, shrink) took 7.8 ms a photo where this takes about
 * 1.5, and a new album's facts (its layout and placeholders, read before its thumbnails are
 * made) are read that much sooner. A box average is as good as any filter for a placeholder
 * that is a blur of a few colours.
 */
export async function thumbHashOfPreview(
  preview: Buffer,
  stored: { width: number; height: number; orientation?: number | undefined },
  rotate = 0,
): Promise<string> {
  const { data, info } = await sharp(preview).toColourspace('srgb').ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 4) throw new Error(`Expected RGBA pixels for a ThumbHash but received ${info.channels} channels`);
  const { width, height } = info;
  const shape = stored.width / stored.height;
  const w = Math.min(width, Math.round(height * shape));
  const h = Math.min(height, Math.round(width / shape));
  if (w < 8 || h < 8) throw new Error('EXIF preview too small');
  const small = shrink({ data, width, left: Math.floor((width - w) / 2), top: Math.floor((height - h) / 2), w, h });
  const upright = orient(small, stored.orientation ?? 1, rotate);
  return Buffer.from(rgbaToThumbHash(upright.width, upright.height, upright.data)).toString('base64');
}

interface Rgba {
  readonly data: Uint8Array;
  readonly width: number;
  readonly height: number;
}

/** The box `w`×`h` at (`left`, `top`) of an RGBA image `width` wide, averaged down to fit MAX_SIDE×MAX_SIDE. */
function shrink(box: { data: Uint8Array; width: number; left: number; top: number; w: number; h: number }): Rgba {
  const { data, width, left, top, w, h } = box;
  const scale = Math.max(w / MAX_SIDE, h / MAX_SIDE, 1);
  const outW = Math.max(1, Math.round(w / scale));
  const outH = Math.max(1, Math.round(h / scale));
  const out = new Uint8Array(outW * outH * 4);
  for (let y = 0; y < outH; y++) {
    const y0 = top + Math.floor((y * h) / outH);
    const y1 = top + Math.max(Math.floor(((y + 1) * h) / outH), y0 - top + 1);
    for (let x = 0; x < outW; x++) {
      const x0 = left + Math.floor((x * w) / outW);
      const x1 = left + Math.max(Math.floor(((x + 1) * w) / outW), x0 - left + 1);
      const sum = [0, 0, 0, 0];
      for (let sy = y0; sy < y1; sy++) {
        for (let sx = x0; sx < x1; sx++) {
          const at = (sy * width + sx) * 4;
          for (let c = 0; c < 4; c++) sum[c]! += data[at + c]!;
        }
      }
      const count = (y1 - y0) * (x1 - x0);
      for (let c = 0; c < 4; c++) out[(y * outW + x) * 4 + c] = Math.round(sum[c]! / count);
    }
  }
  return { data: out, width: outW, height: outH };
}

/** `image` as displayed: its EXIF `orientation`, then the owner's turn of `rotate` degrees clockwise. */
function orient(image: Rgba, orientation: number, rotate: number): Rgba {
  const { mirrored: mirror, turns: own } = transformOf(orientation);
  const turns = (((own + Math.round(rotate / 90)) % 4) + 4) % 4;
  const { data, width: W, height: H } = image;
  const sideways = turns % 2 === 1;
  const outW = sideways ? H : W;
  const outH = sideways ? W : H;
  const out = new Uint8Array(data.length);
  for (let y = 0; y < outH; y++) {
    for (let x = 0; x < outW; x++) {
      // The pixel of the mirrored image that lands at (x, y) after the turns.
      let mx: number;
      let my: number;
      if (turns === 0) [mx, my] = [x, y];
      else if (turns === 1) [mx, my] = [y, H - 1 - x];
      else if (turns === 2) [mx, my] = [W - 1 - x, H - 1 - y];
      else [mx, my] = [W - 1 - y, x];
      const sx = mirror ? W - 1 - mx : mx;
      const from = (my * W + sx) * 4;
      const to = (y * outW + x) * 4;
      for (let c = 0; c < 4; c++) out[to + c] = data[from + c]!;
    }
  }
  return { data: out, width: outW, height: outH };
}
