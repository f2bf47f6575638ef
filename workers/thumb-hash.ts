/**
 * The placeholder a tile shows before its thumbnail arrives (docs/api.md#placeholders): a
 * ThumbHash, some 20–30 bytes that decode in the browser to a blurred picture of the photo.
 *
 * It is made in the dimensions task, from the photo itself rather than from a thumbnail (the
 * page is rendered before any thumbnail exists). The resize is what keeps it cheap: libvips
 * shrinks a JPEG or WebP while decoding it (a 6000 px JPEG is decoded at 1/8 scale), so a
 * 24 MP JPEG costs some 65 ms here against 0.5 ms for reading its header alone.
 */
import type { Sharp } from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';

/** ThumbHash encodes images of at most 100×100 pixels. */
const MAX_SIDE = 100;

/** The ThumbHash of an image (an unstarted sharp pipeline), base64. */
export async function thumbHashOf(image: Sharp): Promise<string> {
  const { data, info } = await image
    .autoOrient()
    .resize(MAX_SIDE, MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
    // Greyscale and CMYK photos come out as sRGB too: the encoder reads 4 bytes a pixel.
    .toColourspace('srgb')
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 4) throw new Error(`Expected RGBA pixels for a ThumbHash but received ${info.channels} channels`);
  return Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString('base64');
}
