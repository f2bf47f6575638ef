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
 */
export async function thumbHashOfPreview(
  preview: Buffer,
  stored: { width: number; height: number; orientation?: number | undefined },
  rotate = 0,
): Promise<string> {
  const { width, height } = await sharp(preview).metadata();
  const shape = stored.width / stored.height;
  const w = Math.min(width, Math.round(height * shape));
  const h = Math.min(height, Math.round(width / shape));
  if (w < 8 || h < 8) throw new Error('EXIF preview too small');
  const cut = await sharp(preview)
    .extract({ left: Math.floor((width - w) / 2), top: Math.floor((height - h) / 2), width: w, height: h })
    .withMetadata({ orientation: stored.orientation ?? 1 })
    .jpeg({ quality: 95 })
    .toBuffer();
  return thumbHashOf(sharp(cut), rotate);
}
