import fs from 'node:fs/promises';
import type { MediaKind } from '../../media-types.js';
import type { KeyedQueue } from '../keyed-queue.js';
import { placeFile } from './place-file.js';
import type { Received } from './receive-files.js';
import { safeFileName } from './safe-file-name.js';
import { RejectedUpload, verifierFor } from './verify-media.js';

export type UploadResult =
  | { readonly name: string; readonly ok: true; readonly file: string; readonly kind: MediaKind; readonly size: number }
  | { readonly name: string; readonly ok: false; readonly error: string };

/**
 * Verifies each received file and moves the good ones into `destDir` under safe unique names.
 * A rejected file is deleted; whatever happens, no temp file outlives the request.
 * Results come in the order the client sent the files, skipped ones included.
 */
export async function storeUploads(received: Received, opts: { destDir: string; kind: MediaKind; queue: KeyedQueue }): Promise<UploadResult[]> {
  const results: Array<{ position: number; result: UploadResult }> = received.skipped.map((s) => ({
    position: s.position,
    result: { name: s.originalName, ok: false, error: s.error },
  }));
  const verify = verifierFor(opts.kind);
  try {
    // One file at a time: decoding and probing are heavy, and the admin has one user.
    for (const file of received.files) {
      try {
        if (file.size === 0) throw new RejectedUpload('Empty file');
        await verify(file.tempPath);
        const { base, ext } = safeFileName(file.originalName, opts.kind === 'image' ? 'photo' : 'video');
        const stored = await placeFile({ tempPath: file.tempPath, destDir: opts.destDir, base, ext, queue: opts.queue });
        results.push({ position: file.position, result: { name: file.originalName, ok: true, file: stored, kind: opts.kind, size: file.size } });
      } catch (err) {
        if (!(err instanceof RejectedUpload)) throw err;
        results.push({ position: file.position, result: { name: file.originalName, ok: false, error: err.message } });
      }
    }
  } finally {
    await Promise.all(received.files.map((f) => fs.rm(f.tempPath, { force: true })));
  }
  return results.sort((a, b) => a.position - b.position).map((r) => r.result);
}
