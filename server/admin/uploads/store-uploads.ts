import fs from 'node:fs/promises';
import type { MediaKind } from '../../core/media-catalogue.js';
import type { KeyedQueue } from '../keyed-queue.js';
import { placeFiles } from './place-file.js';
import type { Received, ReceivedFile } from './receive-files.js';
import { safeFileName } from './safe-file-name.js';
import { type HeifDecodeCheck, RejectedUpload, verifierFor } from './verify-media.js';

export type UploadResult =
  | { readonly name: string; readonly ok: true; readonly file: string; readonly kind: MediaKind; readonly size: number }
  | { readonly name: string; readonly ok: false; readonly error: string };

/**
 * Verifies every received file, then moves the good ones into `destDir` under safe unique
 * names, all or none: a file that is not what it claims is reported and left out, but a
 * failure to store one (a server error) leaves none of the batch behind. Whatever happens,
 * no temp file outlives the request. Results come in the order the client sent the files,
 * skipped ones included.
 */
export async function storeUploads(
  received: Received,
  opts: { destDir: string; kind: MediaKind; queue: KeyedQueue; decodeHeif?: HeifDecodeCheck },
): Promise<UploadResult[]> {
  const results: Array<{ position: number; result: UploadResult }> = received.skipped.map((s) => ({
    position: s.position,
    result: { name: s.originalName, ok: false, error: s.error },
  }));
  const verify = verifierFor(opts.kind, opts.decodeHeif);
  try {
    const verified: ReceivedFile[] = [];
    // One file at a time: decoding and probing are heavy, and the admin has one user.
    for (const file of received.files) {
      try {
        if (file.size === 0) throw new RejectedUpload('Empty file');
        await verify(file.tempPath);
        verified.push(file);
      } catch (err) {
        if (!(err instanceof RejectedUpload)) throw err;
        results.push({ position: file.position, result: { name: file.originalName, ok: false, error: err.message } });
      }
    }
    const fallback = opts.kind === 'image' ? 'photo' : 'video';
    const names = await placeFiles({
      files: verified.map((f) => ({ tempPath: f.tempPath, ...safeFileName(f.originalName, fallback) })),
      destDir: opts.destDir,
      queue: opts.queue,
    });
    verified.forEach((file, i) => {
      results.push({ position: file.position, result: { name: file.originalName, ok: true, file: names[i]!, kind: opts.kind, size: file.size } });
    });
  } finally {
    await Promise.all(received.files.map((f) => fs.rm(f.tempPath, { force: true })));
  }
  return results.sort((a, b) => a.position - b.position).map((r) => r.result);
}
