/**
 * Location in a TIFF file (docs/api.md#location-privacy): the file is itself the TIFF
 * structure EXIF borrows, so its GPS IFD is found and blanked in place (tiff-gps.ts), reading
 * only its IFDs. When the structure cannot be walked safely, the pointer to the first IFD
 * is zeroed (bytes 4–15: a BigTIFF keeps it in 8–15): no reader can open the file any more, which only crafted files come
 * to, and none finds a location in it.
 */
import type { ByteSource } from '../byte-source.js';
import { type BytePatch, zeroPatch } from './byte-patches.js';
import { tiffGpsPatches } from './tiff-gps.js';

export function isTiff(head: Buffer): boolean {
  if (head.length < 4) return false;
  const order = head.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return false;
  const magic = order === 'II' ? head.readUInt16LE(2) : head.readUInt16BE(2);
  return magic === 42 || magic === 43;
}

export async function tiffFileLocationPatches(file: ByteSource): Promise<readonly BytePatch[]> {
  const found = await tiffGpsPatches(file);
  return found.unsafe ? [zeroPatch(4, 12)] : found.patches;
}
