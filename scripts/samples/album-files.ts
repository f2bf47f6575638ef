/** One album of the table as files: its album.json and its photos, each with its camera's EXIF. */
import path from 'node:path';
import { cameraExif } from '../image-fixtures/camera-exif.js';
import type { AlbumMeta, AlbumSpec } from './albums.js';
import { shotFor } from './cameras.js';
import { log, writeFileIn } from './output.js';
import { PHOTO_GRAIN, PHOTO_QUALITY, renderPhoto } from './painter/render.js';
import { Rng } from './painter/rng.js';

export function albumJson(meta: AlbumMeta): string {
  // fixed key order, for stable diffs
  const keys: Array<keyof AlbumMeta> = ['title', 'password', 'style', 'order', 'thumbnail', 'hidden', 'isCollection', 'allowAnonymous', 'token'];
  const out: Record<string, unknown> = {};
  for (const k of keys) if (meta[k] !== undefined) out[k] = meta[k];
  return `${JSON.stringify(out, null, 2)}\n`;
}

export async function makeAlbum(spec: AlbumSpec, albumsDir: string): Promise<void> {
  const dir = path.join(albumsDir, spec.path);
  await writeFileIn(dir, 'album.json', albumJson(spec.meta));
  const rng = new Rng(`${spec.path}#exif`);
  let t = Date.parse(spec.start);
  for (const photo of spec.photos) {
    const shot = shotFor(rng, photo.light, spec.focals, new Date(t));
    t += rng.int(20, 900) * 1000;
    const { jpeg } = await renderPhoto(`${spec.path}/${photo.name}`, photo.scene, photo.w, photo.h, PHOTO_QUALITY, PHOTO_GRAIN, cameraExif(spec.camera, shot));
    await writeFileIn(dir, photo.name, jpeg);
    log(path.join(spec.path, photo.name), jpeg.length);
  }
}
