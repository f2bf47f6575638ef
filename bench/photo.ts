import sharp from 'sharp';

/**
 * Something a camera could have taken, as far as the codec cares: soft shapes (noise blown
 * up) plus fine grain, so the JPEG weighs what a real photo of that size does (a 24 MP one
 * several megabytes) instead of compressing like a flat colour. Carries camera EXIF, so
 * /api/exif has something to read. `texture` sets how busy it is: the default is a
 * worst case for the codec; { shapeScale: 80, grain: 9 } weighs, at thumbnail sizes, what the
 * sample albums' photos do (a 1200 px thumbnail ~140 KB).
 */
export async function writePhotoLikeJpeg(
  file: string,
  width: number,
  height: number,
  texture: { readonly shapeScale?: number; readonly grain?: number } = {},
): Promise<void> {
  const { shapeScale = 40, grain: grainSigma = 12 } = texture;
  const shapes = await sharp({
    create: {
      width: Math.ceil(width / shapeScale),
      height: Math.ceil(height / shapeScale),
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 60 },
    },
  })
    .png()
    .toBuffer();
  const grain = await sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: grainSigma } } })
    .raw()
    .toBuffer();
  await sharp(shapes)
    .resize(width, height, { kernel: 'cubic' })
    .composite([{ input: grain, raw: { width, height, channels: 3 }, blend: 'overlay' }])
    .withExif({
      IFD0: { Make: 'Canon', Model: 'EOS R6' },
      IFD2: { ExposureTime: '1/250', FNumber: '4/1', ISOSpeedRatings: '200', DateTimeOriginal: '2024:05:01 12:34:56', FocalLength: '35/1' },
    })
    .jpeg({ quality: 90 })
    .toFile(file);
}
