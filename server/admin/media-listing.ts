import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { naturalCompare } from '../core/albums/natural-order.js';
import { type MediaKind, mediaKind } from '../core/media-catalogue.js';
import { isMissing } from '../core/paths.js';

export interface MediaFile {
  readonly name: string;
  readonly kind: MediaKind;
  readonly size: number;
  /** Last modification, ISO 8601; also busts the browser cache of the admin's previews. */
  readonly modified: string;
}

/**
 * The media files directly in `dir`, in the gallery's natural order, read from disk (not the
 * index) so a list asked for right after an upload already holds the new files.
 */
export async function listMediaFiles(dir: string, kind?: MediaKind): Promise<MediaFile[]> {
  let entries: Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (isMissing(err)) return [];
    throw err;
  }
  const files = await Promise.all(
    entries
      .filter((e) => !e.name.startsWith('.') && (e.isFile() || e.isSymbolicLink()))
      .map(async (e): Promise<MediaFile | undefined> => {
        const k = mediaKind(e.name);
        if (k === undefined || (kind !== undefined && k !== kind)) return undefined;
        try {
          const st = await fs.stat(path.join(dir, e.name));
          if (!st.isFile()) return undefined;
          return { name: e.name, kind: k, size: st.size, modified: st.mtime.toISOString() };
        } catch (err) {
          // Removed between readdir and stat, or a dangling symlink: not a file to show.
          if (isMissing(err)) return undefined;
          throw err;
        }
      }),
  );
  return files.filter((f): f is MediaFile => f !== undefined).sort((a, b) => naturalCompare(a.name, b.name));
}

/** URL under which the admin serves an album file for its previews (each segment encoded). */
export function mediaUrl(albumPath: string, name: string): string {
  return `/media/${[...albumPath.split('/'), name].map(encodeURIComponent).join('/')}`;
}

/**
 * URL of the admin's preview of an album file: its thumbnail (a video's poster), never the
 * original (routes/thumbnail-previews.ts); `v` is its modification time and the owner's turn
 * in album.json (docs/api.md#rotations), so a rotated or replaced photo gets a new URL.
 */
export function previewUrl(albumPath: string, name: string, modified: string, rotation = 0): string {
  const v = rotation === 0 ? modified : `${modified}-r${rotation}`;
  return `/previews/albums/${[...albumPath.split('/'), name].map(encodeURIComponent).join('/')}?size=small&v=${encodeURIComponent(v)}`;
}
