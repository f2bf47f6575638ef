/**
 * EXIF orientations 1–8 as what shows the stored pixels upright: mirrored (left to right)
 * first or not, then turned clockwise by quarter turns. One table for the admin's lossless
 * turn of a JPEG (server/admin/media-actions/jpeg-orientation.ts) and the placeholder made
 * from a camera's EXIF preview (workers/thumb-hash.ts).
 */
export const ORIENTATION_TRANSFORMS: Readonly<Record<number, { readonly mirrored: boolean; readonly turns: number }>> = {
  1: { mirrored: false, turns: 0 },
  2: { mirrored: true, turns: 0 },
  3: { mirrored: false, turns: 2 },
  4: { mirrored: true, turns: 2 },
  5: { mirrored: true, turns: 3 },
  6: { mirrored: false, turns: 1 },
  7: { mirrored: true, turns: 1 },
  8: { mirrored: false, turns: 3 },
};

/** The transform of `orientation`; an unknown one (0, 9…) as 1, as readers do. */
export const transformOf = (orientation: number) => ORIENTATION_TRANSFORMS[orientation] ?? ORIENTATION_TRANSFORMS[1]!;
