/**
 * The boxes (atoms) of ISO base media files (MP4, MOV, HEIF, AVIF) as the location walk
 * reads them (docs/api.md#location-privacy): a header at a time, bounded by the container
 * the box lies in, and the one way of blanking a box every reader skips: renamed `free`,
 * its body zeroed.
 */
import type { ByteSource } from '../byte-source.js';
import { type BytePatch, bytesPatch, zeroPatch } from './byte-patches.js';
import { type Budget, Unreadable } from './walk.js';

export interface IsoBox {
  /** Four bytes as Latin-1 ('moov', '©xyz'…). */
  readonly type: string;
  /** Where its header starts. */
  readonly at: number;
  readonly bodyAt: number;
  /** Where it ends: its declared end, or the container's end when it is cut short. */
  readonly end: number;
  /** Declared longer than its container (a file cut short). */
  readonly cut: boolean;
}

const FREE = Buffer.from('free', 'latin1');

/** The box whose header is at `at`, inside a container ending at `end`; undefined when no box can start there. */
export async function boxAt(source: ByteSource, at: number, end: number): Promise<IsoBox | undefined> {
  const header = await source.read(at, 16);
  return boxIn(header, 0, at, end);
}

/** The same over bytes in memory: `header` holds the box's first bytes at `offset`, which lie at `at` in the file. */
function boxIn(header: Buffer, offset: number, at: number, end: number): IsoBox | undefined {
  if (offset + 8 > header.length || at + 8 > end) return undefined;
  let size = header.readUInt32BE(offset);
  let headerBytes = 8;
  if (size === 1) {
    if (offset + 16 > header.length) return undefined;
    const large = header.readBigUInt64BE(offset + 8);
    if (large > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
    size = Number(large);
    headerBytes = 16;
  } else if (size === 0) size = end - at; // "to the end of the file"
  if (size < headerBytes) return undefined;
  const declaredEnd = at + size;
  return { type: header.toString('latin1', offset + 4, offset + 8), at, bodyAt: at + headerBytes, end: Math.min(declaredEnd, end), cut: declaredEnd > end };
}

/**
 * The children of a container whose body lies from `start` to `end`; Unreadable when one
 * cannot be a box or runs past the container (a metadata container that cannot be walked is
 * blanked whole by the caller).
 */
export async function childrenOf(source: ByteSource, start: number, end: number, budget: Budget): Promise<IsoBox[]> {
  const found: IsoBox[] = [];
  for (let at = start; at < end; ) {
    budget.step();
    const box = await boxAt(source, at, end);
    if (!box || box.cut) throw new Unreadable(`no box at ${at}`);
    found.push(box);
    budget.hold(found);
    at = box.end;
  }
  return found;
}

/** The same over a body read whole into `buf` (offsets in `buf`). */
export function childrenIn(buf: Buffer, start: number, end: number, budget: Budget): IsoBox[] {
  const found: IsoBox[] = [];
  for (let at = start; at < end; ) {
    budget.step();
    const box = boxIn(buf, at, at, end);
    if (!box || box.cut) throw new Unreadable(`no box at ${at}`);
    found.push(box);
    budget.hold(found);
    at = box.end;
  }
  return found;
}

/** A box every reader skips: renamed `free`, its body zeroed (the header's size stays). */
export function asFree(box: IsoBox): BytePatch[] {
  return [bytesPatch(box.at + 4, FREE), zeroPatch(box.bodyAt, box.end - box.bodyAt)];
}

/** The body of a box zeroed (for `free` and `skip`, which may hold leftovers of an earlier edit). */
export const zeroBody = (box: IsoBox): BytePatch[] => [zeroPatch(box.bodyAt, box.end - box.bodyAt)];

/** The handler type of an `hdlr` box's body (`vide`, `soun`, `meta`, `mdta`, `pict`…), read from `body` at `bodyAt`. */
export function handlerType(body: Buffer, bodyAt: number): string {
  // Version and flags (4), then pre_defined (ISO) or component type (QuickTime) (4), then the type.
  return bodyAt + 12 <= body.length ? body.toString('latin1', bodyAt + 8, bodyAt + 12) : '';
}
