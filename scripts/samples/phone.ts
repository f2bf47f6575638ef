/**
 * What a phone adds to an album, beside the generated JPEGs of albums.ts: a real iPhone HEIC
 * (one of the test fixtures, CC BY-SA 4.0, with its attribution beside it), the HEVC movie of
 * a Live Photo for one of the JPEG stills, and an HEVC clip: what the gallery shows through
 * libheif, Live Photo pairing and H.264 web copies (README, "Phone photos and videos").
 */
import { copyFile, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PHONE_ALBUM } from './albums.js';
import { log } from './output.js';
import { makeKenBurns, makeLiveMotion } from './videos.js';

const HEIC_FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'fixtures', 'heic');

export async function makePhoneMedia(albumsDir: string): Promise<void> {
  const dir = path.join(albumsDir, PHONE_ALBUM);
  for (const name of ['IMG_5195.HEIC', 'ATTRIBUTION.md']) await copyFile(path.join(HEIC_FIXTURES, name), path.join(dir, name));
  log(path.join(PHONE_ALBUM, 'IMG_5195.HEIC'), (await stat(path.join(dir, 'IMG_5195.HEIC'))).size);
  const motion = path.join(dir, 'IMG_6012.MOV');
  await makeLiveMotion(await readFile(path.join(dir, 'IMG_6012.JPG')), motion);
  log(path.join(PHONE_ALBUM, 'IMG_6012.MOV'), (await stat(motion)).size);
  const clip = path.join(dir, 'IMG_6015.MOV');
  await makeKenBurns(clip, `${PHONE_ALBUM}/IMG_6015.MOV`, 'gardenDay', true, '2025-05-17T10:31:00+0200');
  log(path.join(PHONE_ALBUM, 'IMG_6015.MOV'), (await stat(clip)).size);
}
