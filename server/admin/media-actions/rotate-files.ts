/**
 * The rotation of one photo or video (MediaActions.rotate, docs/api.md#rotations), never
 * re-encoding it: a JPEG through its EXIF orientation (rotate-jpeg.ts), a video through its
 * display matrix (rotate-video.ts), any other photo through album.json's `rotations`. A Live
 * Photo's movie turns with its still. Kept apart from the other actions for its all-or-nothing
 * order: every new file is staged beside its original before anything is replaced, so a
 * refusal leaves the disk as it was.
 */
import path from 'node:path';
import { addTurns, isRotation, type Rotation } from '../../core/albums/rotations.js';
import { badRequest } from '../../core/errors.js';
import { DisplayMatrixError } from '../../core/media/display-matrix.js';
import type { TurnMethod } from '../../core/media-catalogue.js';
import { type AlbumInQueue, conflict } from '../album-files.js';
import { fileEntryOf, withFileEntry } from './album-file-entries.js';
import { OrientationError } from './jpeg-orientation.js';
import { mediaPathOf } from './media-target.js';
import { stageJpegTurn } from './rotate-jpeg.js';
import { stageVideoTurn } from './rotate-video.js';
import { ChangedMeanwhileError, type StagedFile } from './staged-file.js';

/** Quarter turns of a rotation the owner may ask for, by its degrees clockwise. */
export const QUARTER_TURNS: ReadonlyMap<unknown, number> = new Map([
  [90, 1],
  [180, 2],
  [270, 3],
  [-90, 3],
]);

/** How a still or video was turned (turnMethodOf), and how it is turned now. */
export type StillTurn =
  /** A JPEG: its EXIF orientation tag (1–8), rewritten. */
  | { readonly turnedBy: 'exif-orientation'; readonly orientation: number }
  /** A video: its display matrix, rewritten; the turn it shows now, degrees clockwise. */
  | { readonly turnedBy: 'display-matrix'; readonly rotation: number }
  /** Any other photo: album.json's `rotations` (docs/api.md#rotations), degrees clockwise (0: upright, the entry removed). */
  | { readonly turnedBy: 'album-rotation'; readonly rotation: Rotation };

/** What a rotation did: the file's new turn and, for a Live Photo, its movie's. */
export type RotationChange = StillTurn & {
  readonly path: string;
  readonly motion?: { readonly path: string; readonly rotation: number };
};

/**
 * Turns `files` of `album` (a still or video, then its Live Photo movie if it has one) by
 * `turns` clockwise quarter turns, the still by `method`. The caller holds the album's queue
 * and has checked that none of the files is a link. A file that cannot be turned so is a 400,
 * one replaced by hand meanwhile a 409; either way nothing is left changed.
 */
export async function rotateFiles(album: AlbumInQueue, files: readonly string[], turns: number, method: TurnMethod): Promise<RotationChange> {
  const [name, motion] = files as [string, string | undefined];
  const staged: StagedFile[] = [];
  /** The entry album.json had before this turn wrote it (undefined: none), to put back if a file cannot be replaced. */
  let entryBefore: { readonly rotation: Rotation | undefined } | undefined;
  try {
    // Every new version is staged before anything is replaced: were the still refused, its movie is discarded with it.
    const movie = motion === undefined ? undefined : await stageVideoTurn(path.join(album.dir, motion), turns);
    if (movie) staged.push(movie.staged);
    let still: StillTurn;
    if (method === 'exif-orientation') {
      const jpeg = await stageJpegTurn(path.join(album.dir, name), turns);
      staged.push(jpeg.staged);
      still = { turnedBy: 'exif-orientation', orientation: jpeg.orientation };
    } else if (method === 'display-matrix') {
      const video = await stageVideoTurn(path.join(album.dir, name), turns);
      staged.push(video.staged);
      still = { turnedBy: 'display-matrix', rotation: video.rotation };
    } else {
      // An album.json that cannot be changed (not a JSON object, or invalid) stops the action here, before any file is replaced.
      const now = fileEntryOf(await album.record(), 'rotations', name);
      const rotation = addTurns(isRotation(now) ? now : 0, turns);
      // Back to upright: the entry goes (and the field with its last entry).
      await album.edit((record) => withFileEntry(record, 'rotations', name, rotation === 0 ? undefined : rotation));
      entryBefore = { rotation: isRotation(now) && now !== 0 ? now : undefined };
      still = { turnedBy: 'album-rotation', rotation };
    }
    const change: RotationChange = {
      path: mediaPathOf(album.path, name),
      ...still,
      ...(movie && motion ? { motion: { path: mediaPathOf(album.path, motion), rotation: movie.rotation } } : {}),
    };
    // Renames only from here: a file replaced by hand between the movie's and the still's is the one case left half turned.
    for (const file of staged) await file.commit();
    return change;
  } catch (err) {
    await Promise.all(staged.map((file) => file.discard()));
    if (entryBefore) await album.edit((record) => withFileEntry(record, 'rotations', name, entryBefore!.rotation));
    if (err instanceof OrientationError || err instanceof DisplayMatrixError) {
      throw badRequest(`Cannot rotate ${err instanceof DisplayMatrixError && motion !== undefined ? motion : name}: ${err.message}`);
    }
    if (err instanceof ChangedMeanwhileError) throw conflict(`${name} was not rotated: ${err.message}`);
    throw err;
  }
}
