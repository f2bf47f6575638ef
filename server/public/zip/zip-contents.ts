import type { ReadableFile } from '../resolvers.js';

/**
 * What goes into an album's ZIP, in album order: its photos, each Live Photo's movie right
 * after its still, and with `videos` its videos too (docs/api.md#get-apidownload-albumpath).
 * The album page's download button counts and sizes the same files (server/public/pages/download-offer.ts).
 */
export function zipFiles(readable: readonly ReadableFile[], videos: boolean): ReadableFile[] {
  return readable.filter((f) => f.item.kind === 'image' || (videos && f.item.kind === 'video')).flatMap((f) => (f.motion ? [f, f.motion] : [f]));
}
