/**
 * The owner's turn of a photo that cannot be turned in its own bytes (docs/api.md#rotations):
 * album.json's `rotations`, `{"IMG_0001.heic": 90}`, degrees clockwise applied on top of the
 * file's own orientation (its EXIF tag) by everything the gallery derives from the photo:
 * thumbnails, full-size JPEGs, page sizes, placeholders, cover crops. The original is never
 * touched. A JPEG is turned through its EXIF tag instead (server/admin/media-actions), a video
 * through its display matrix, so an entry here is read for photos only.
 */
import type { MediaKind } from '../media-catalogue.js';

export const ROTATIONS = [0, 90, 180, 270] as const;
/** Degrees clockwise. */
export type Rotation = (typeof ROTATIONS)[number];

export const ROTATIONS_RULE = 'an object of file names to 90, 180 or 270 (degrees clockwise)';

export const isRotation = (v: unknown): v is Rotation => (ROTATIONS as readonly unknown[]).includes(v);

/** `{"IMG_1.heic": 90}`: file names (no folder) to a quarter turn; 0 is allowed and means none. */
export function isRotationMap(v: unknown): boolean {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Object.entries(v).every(([name, degrees]) => name !== '' && !/[/\\]/.test(name) && isRotation(degrees))
  );
}

/** The turns of a checked map, without the zeros; a Map, so no name reaches Object.prototype. */
export function rotationsOf(checked: Record<string, Rotation> | undefined): ReadonlyMap<string, Rotation> {
  return new Map(Object.entries(checked ?? {}).filter(([, degrees]) => degrees !== 0));
}

/** `rotation` turned by `quarterTurns` more (clockwise; negative: counter-clockwise). */
export function addTurns(rotation: Rotation, quarterTurns: number): Rotation {
  return (((((rotation / 90 + quarterTurns) % 4) + 4) % 4) * 90) as Rotation;
}

/** How a photo of an album is turned by its album's record; always 0 for videos (their own bytes are turned). */
export function rotationIn(meta: { readonly rotations: ReadonlyMap<string, Rotation> } | undefined, name: string, kind: MediaKind): Rotation {
  return kind === 'image' ? (meta?.rotations.get(name) ?? 0) : 0;
}

/** A size as shown once turned: width and height swapped for a quarter turn either way. */
export function turnedSize<T extends { readonly width: number; readonly height: number }>(size: T, rotation: number): T {
  return rotation % 180 === 0 ? size : { ...size, width: size.height, height: size.width };
}
