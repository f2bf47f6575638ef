/** The hidden edge-case album: the eight EXIF orientations, a truncated JPEG, a non-ASCII name, a tiny PNG, a rotated video. */
import path from 'node:path';
import sharp from 'sharp';
import { cameraExif } from '../image-fixtures/camera-exif.js';
import { ORIENTATIONS, storedForOrientation } from '../image-fixtures/orientation.js';
import { cutInHalf } from '../image-fixtures/stills.js';
import { albumJson } from './album-files.js';
import { EDGE_CASES } from './albums.js';
import { CAMERAS, shotFor } from './cameras.js';
import { log, writeFileIn } from './output.js';
import { encodeJpeg, PHOTO_GRAIN, PHOTO_QUALITY, renderPhoto } from './painter/render.js';
import { Rng } from './painter/rng.js';
import { orientationCard } from './painter/test-card.js';
import { makeRotatedVideo } from './videos.js';

async function assertSameImage(a: Buffer, b: Buffer, label: string): Promise<void> {
  const [ra, rb] = await Promise.all(
    [a, b].map((x) => sharp(x).autoOrient().resize(60, 40, { fit: 'fill' }).removeAlpha().raw().toBuffer({ resolveWithObject: true })),
  );
  let diff = 0;
  for (let i = 0; i < ra!.data.length; i += 1) diff += Math.abs(ra!.data[i]! - rb!.data[i]!);
  const mean = diff / ra!.data.length;
  if (mean > 12) throw new Error(`${label}: auto-oriented image differs from the upright card (mean diff ${mean.toFixed(1)})`);
}

export async function makeEdgeCases(albumsDir: string): Promise<void> {
  const dir = path.join(albumsDir, EDGE_CASES);
  await writeFileIn(dir, 'album.json', albumJson({ title: 'Edge cases (test fixtures)', style: 'grid', hidden: true, token: 'edge-cases-fixtures-2022' }));
  const cam = CAMERAS.olympus;
  const rng = new Rng(`${EDGE_CASES}#exif`);
  let t = Date.parse('2022-05-02T10:00:00Z');
  const nextShot = () => {
    const s = shotFor(rng, 'day', [12, 25, 40], new Date(t));
    t += 60_000;
    return s;
  };

  // EXIF orientations 1..8
  const w = 600;
  const h = 400;
  for (const o of ORIENTATIONS) {
    const card = orientationCard(w, h, o);
    const upright = await sharp(Buffer.from(card.toString())).removeAlpha().raw().toBuffer();
    const stored = await storedForOrientation(upright, w, h, o);
    const jpeg = await encodeJpeg(stored, { quality: 85, exif: cameraExif(cam, nextShot()), orientation: o });
    const uprightJpeg = await sharp(upright, { raw: { width: w, height: h, channels: 3 } })
      .jpeg()
      .toBuffer();
    await assertSameImage(jpeg, uprightJpeg, `orientation-${o}.jpg`);
    const meta = await sharp(jpeg).metadata();
    if (meta.orientation !== o) throw new Error(`orientation-${o}.jpg: EXIF orientation is ${meta.orientation}`);
    await writeFileIn(dir, `orientation-${o}.jpg`, jpeg);
    log(`${EDGE_CASES}/orientation-${o}.jpg`, jpeg.length);
  }

  // a valid JPEG cut in half
  const whole = await renderPhoto(`${EDGE_CASES}/truncated.jpg`, 'alpsDay', 1200, 800, PHOTO_QUALITY, PHOTO_GRAIN, cameraExif(cam, nextShot()));
  const truncated = cutInHalf(whole.jpeg);
  await writeFileIn(dir, 'truncated.jpg', truncated);
  log(`${EDGE_CASES}/truncated.jpg`, truncated.length);

  // non-ASCII file name (NFC, as typed on most systems)
  const unicodeName = 'Café São Paulo – 日本.jpg'.normalize('NFC');
  const cafe = await renderPhoto(`${EDGE_CASES}/cafe`, 'cityNight', 1200, 800, PHOTO_QUALITY, PHOTO_GRAIN, cameraExif(cam, nextShot()));
  await writeFileIn(dir, unicodeName, cafe.jpeg);
  log(`${EDGE_CASES}/${unicodeName}`, cafe.jpeg.length);

  // a tiny PNG without any metadata
  const tiny = await sharp(Buffer.from(orientationCard(48, 32, 0).toString()))
    .png({ compressionLevel: 9, palette: true, colours: 16 })
    .toBuffer();
  await writeFileIn(dir, 'tiny.png', tiny);
  log(`${EDGE_CASES}/tiny.png`, tiny.length);

  // an MP4 whose frames are stored sideways, with a 90° display rotation
  await makeRotatedVideo(path.join(dir, 'rotated.mp4'), albumsDir);
}
