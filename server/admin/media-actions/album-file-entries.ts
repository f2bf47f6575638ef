/**
 * What album.json holds per file (captions, rotations) and the cover it names, following a
 * photo that is renamed, moved or deleted (docs/api.md#albumjson): pure functions from one
 * record to the next, undefined when nothing changes, so the media actions (media-actions.ts,
 * rotate-files.ts) write album.json only when it does.
 */
import type { AlbumRecord } from '../album-fields.js';

/**
 * The fields of album.json that hold something per file name (docs/api.md#albumjson): what
 * follows a photo when it is renamed or moved, and goes when it is deleted.
 */
const PER_FILE_FIELDS = ['captions', 'rotations'] as const;
export type PerFileField = (typeof PER_FILE_FIELDS)[number];

/** What album.json's `field` holds for `name` (unchecked: the record is validated as a whole when written). */
export function fileEntryOf(record: AlbumRecord, field: PerFileField, name: string): unknown {
  const entries = Object.hasOwn(record, field) ? record[field] : undefined;
  if (typeof entries !== 'object' || entries === null || !Object.hasOwn(entries, name)) return undefined;
  return (entries as Record<string, unknown>)[name];
}

/** Every per-file entry of `name`, by field. */
export function fileEntriesOf(record: AlbumRecord, name: string): [PerFileField, unknown][] {
  return PER_FILE_FIELDS.flatMap((field) => {
    const value = fileEntryOf(record, field, name);
    return value === undefined ? [] : [[field, value] as [PerFileField, unknown]];
  });
}

/** The record with `name`'s entry in `field` set, or removed (undefined); undefined when nothing changes. */
export function withFileEntry(record: AlbumRecord, field: PerFileField, name: string, value: unknown): AlbumRecord | undefined {
  if (fileEntryOf(record, field, name) === value) return undefined;
  const current = Object.hasOwn(record, field) && typeof record[field] === 'object' && record[field] !== null ? (record[field] as Record<string, unknown>) : {};
  // Object.entries/fromEntries define every key as a plain field, "__proto__" included.
  const entries = Object.entries(current).filter(([key]) => key !== name);
  if (value !== undefined) entries.push([name, value]);
  const next: AlbumRecord = { ...record, [field]: Object.fromEntries(entries) };
  if (entries.length === 0) delete next[field];
  return next;
}

/**
 * What album.json says about a file that moved from `below/oldName` (relative to the album;
 * `below` is '' for the file's own album) to `newRel` (relative to the album too; undefined:
 * gone from below it): its caption and rotation follow a rename within the album, a cover
 * naming it is rewritten or dropped (falling back to the first photo). Undefined when nothing
 * changes.
 */
export function followReferences(record: AlbumRecord, below: string, oldName: string, newRel: string | undefined): AlbumRecord | undefined {
  const oldRel = below === '' ? oldName : `${below}/${oldName}`;
  let next = record;
  let changed = false;
  if (record.thumbnail === oldRel) {
    next = { ...next };
    if (newRel === undefined) delete next.thumbnail;
    else next.thumbnail = newRel;
    changed = true;
  }
  for (const [field, value] of below === '' ? fileEntriesOf(record, oldName) : []) {
    next = withFileEntry(next, field, oldName, undefined) ?? next;
    // Renamed within the album: the entry goes with it (to another album, the move carries it).
    if (newRel !== undefined && !newRel.includes('/')) next = withFileEntry(next, field, newRel, value) ?? next;
    changed = true;
  }
  return changed ? next : undefined;
}
