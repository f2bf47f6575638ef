/**
 * The eight EXIF orientations (after sharp's test/fixtures/Landscape_1..8): an upright picture
 * is stored as the inverse of the transform a viewer applies, plus the tag, so a correct
 * auto-orient gives the upright picture back. The samples store their test card this way;
 * the tests store a red-and-blue picture whose corners they can check.
 */
import sharp, { type OutputInfo, type Sharp } from 'sharp';
import { ensureDir } from './stills.js';

export const ORIENTATIONS = [1, 2, 3, 4, 5, 6, 7, 8] as const;

/** Steps from the upright picture to the stored one, each its own sharp pipeline (within one, sharp orders flip/flop and rotate its own way). */
const STORE_AS: Record<number, ReadonlyArray<(img: Sharp) => Sharp>> = {
  1: [],
  2: [(img) => img.flop()],
  3: [(img) => img.rotate(180)],
  4: [(img) => img.flip()],
  5: [(img) => img.rotate(90), (img) => img.flop()], // transpose
  6: [(img) => img.rotate(270)],
  7: [(img) => img.rotate(90), (img) => img.flip()], // transverse
  8: [(img) => img.rotate(90)],
};

/** Stored pixels (raw RGB) for EXIF orientation N of an upright raw RGB picture of w × h. */
export async function storedForOrientation(upright: Buffer, w: number, h: number, orientation: number): Promise<{ data: Buffer; info: OutputInfo }> {
  const steps = STORE_AS[orientation];
  if (!steps) throw new RangeError(`orientation must be 1 to 8, got ${orientation}`);
  let stored = { data: upright, info: { width: w, height: h, channels: 3 } as OutputInfo };
  for (const step of steps) {
    const { width, height } = stored.info;
    stored = await step(sharp(stored.data, { raw: { width, height, channels: 3 } }))
      .raw()
      .toBuffer({ resolveWithObject: true });
  }
  return stored;
}

/**
 * The test picture as it must be displayed: DISPLAY_WIDTH × DISPLAY_HEIGHT, red in the top-left
 * quarter, blue elsewhere.
 */
export const DISPLAY_WIDTH = 240;
export const DISPLAY_HEIGHT = 160;

/** The test picture stored for orientation N, as a JPEG carrying the tag N. */
export async function writeOrientedJpeg(file: string, orientation: number): Promise<void> {
  const upright = await sharp({ create: { width: DISPLAY_WIDTH, height: DISPLAY_HEIGHT, channels: 3, background: '#0000ff' } })
    .composite([{ input: { create: { width: DISPLAY_WIDTH / 2, height: DISPLAY_HEIGHT / 2, channels: 3, background: '#ff0000' } }, left: 0, top: 0 }])
    .removeAlpha()
    .raw()
    .toBuffer();
  const stored = await storedForOrientation(upright, DISPLAY_WIDTH, DISPLAY_HEIGHT, orientation);
  ensureDir(file);
  await sharp(stored.data, { raw: { width: stored.info.width, height: stored.info.height, channels: 3 } })
    .withMetadata({ orientation })
    .jpeg({ quality: 95 })
    .toFile(file);
}

/** Red at the top-left corner and blue at the bottom-right, with JPEG's slack. */
export async function cornerColours(file: string): Promise<{ topLeft: 'red' | 'blue' | 'other'; bottomRight: 'red' | 'blue' | 'other' }> {
  const { data, info } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => {
    const i = (y * info.width + x) * info.channels;
    const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
    if (r > 200 && g < 60 && b < 60) return 'red' as const;
    if (b > 200 && r < 60 && g < 60) return 'blue' as const;
    return 'other' as const;
  };
  const dx = Math.floor(info.width / 8);
  const dy = Math.floor(info.height / 8);
  return { topLeft: at(dx, dy), bottomRight: at(info.width - 1 - dx, info.height - 1 - dy) };
}
