import crypto from 'node:crypto';
import { type AlbumMeta, parseAlbumRecord } from './album-record.js';
import { type FileVersion, readVersioned, replaceIfUnchanged } from './versioned-file.js';

/** Saves by hand that keep landing in the window before we give up until the next rescan. */
const MAX_WRITE_TRIES = 3;

export type RecordWithToken =
  /** The token is in album.json (it was, or we just wrote it there). */
  | { readonly stored: true; readonly meta: AlbumMeta & { readonly token: string } }
  /**
   * album.json has no token and we could not write one (read-only tree, or a file that kept
   * changing). `token` is valid only for this exact version of the file (`versionKey`).
   */
  | { readonly stored: false; readonly meta: AlbumMeta; readonly token: string; readonly versionKey: string; readonly reason: string };

export interface RecordTokenOptions {
  /** A token handed out earlier for exactly this version of the file and not written then. */
  readonly remembered?: (versionKey: string) => string | undefined;
  /** Test seam: runs between reading album.json and replacing it. */
  readonly beforeWrite?: () => void | Promise<void>;
}

/**
 * Reads an album.json and makes sure it holds a token: a token belongs to the record on disk,
 * so a new one is written whenever the file has none (the owner deleted the line, or made the
 * album by hand). Both the public server and the admin call this, so they agree on the token.
 * Throws AlbumRecordError for an invalid record and the read's own errors (ENOENT...).
 */
export async function readRecordWithToken(file: string, opts: RecordTokenOptions = {}): Promise<RecordWithToken> {
  for (let attempt = 1; ; attempt++) {
    const version = await readVersioned(file);
    const meta = parseAlbumRecord(version.text);
    if (meta.token !== undefined) return { stored: true, meta: { ...meta, token: meta.token } };
    // Reusing a remembered token only for the same version keeps a read-only album's cookies
    // working across rescans, and lets that token be the one written once the tree is writable.
    const token = opts.remembered?.(version.key) ?? crypto.randomUUID();
    let written: boolean;
    try {
      written = await replaceIfUnchanged(file, version, withToken(version, token), opts.beforeWrite);
    } catch (err) {
      return { stored: false, meta, token, versionKey: version.key, reason: (err as Error).message };
    }
    if (written) return { stored: true, meta: { ...meta, token } };
    // Saved by someone since we read it: start again from their version, which may hold a token now.
    if (attempt === MAX_WRITE_TRIES) return { stored: false, meta, token, versionKey: version.key, reason: 'it kept changing while being written' };
  }
}

/** The record with `token` added; every other field, unknown ones included, stays as it was. */
function withToken(version: FileVersion, token: string): string {
  // A spread copies an own "__proto__" key of JSON.parse's output as a plain field (never as a
  // prototype), so even that key is written back unchanged.
  const record = JSON.parse(version.text) as Record<string, unknown>;
  return `${JSON.stringify({ ...record, token }, null, 2)}\n`;
}
