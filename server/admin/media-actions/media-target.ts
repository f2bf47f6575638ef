/**
 * One photo or video of an album as the admin's media routes name it, `{album path}/{file
 * name}`, and the media paths (relative to ALBUMS_DIR) its actions answer with: shared by the
 * actions (media-actions.ts) and the rotation they stage (rotate-files.ts).
 */
import { badRequest, notFound } from '../../core/errors.js';
import { mediaKind } from '../../core/media-catalogue.js';

/** One photo or video of an album, as the admin's media routes name it: `{album path}/{file name}`. */
export interface MediaTarget {
  readonly albumPath: string;
  readonly name: string;
}

export const mediaPathOf = (albumPath: string, name: string) => `${albumPath}/${name}`;
export const mediaNotFound = (mediaPath: string) => notFound(`Photo or video not found: ${mediaPath}`);

/** `{album path}/{file}` split, checked to name a photo or video inside an album (the path itself is validated by the route). */
export function parseMediaTarget(mediaPath: string): MediaTarget {
  const slash = mediaPath.lastIndexOf('/');
  const name = mediaPath.slice(slash + 1);
  if (mediaKind(name) === undefined) throw badRequest('Invalid parameter: path must name a photo or video of an album');
  if (slash < 0) throw mediaNotFound(mediaPath);
  return { albumPath: mediaPath.slice(0, slash), name };
}
