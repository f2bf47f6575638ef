import fs from 'node:fs/promises';
import { type ByteSource, fileSource } from './byte-source.js';

/**
 * The top-level atoms (ISO BMFF "boxes") of an MP4/MOV file, read header by header: 8 bytes
 * at each offset (16 for a 64-bit size), never the file's body. Browsers need the `moov` atom
 * (the index: where every frame is) before they can show the first frame, and many cameras
 * write it after the media data (`mdat`), so a browser would fetch the whole file first
 * (docs/api.md#get-apiweb-videopath). Files are untrusted: the walk stops at a bounded number
 * of atoms, at a header that cannot be one, and at the end of the file, whatever the sizes claim.
 */

export interface TopLevelAtom {
  /** Four characters: 'ftyp', 'moov', 'mdat', 'free'… */
  readonly type: string;
  readonly offset: number;
  /** The whole atom, header included. */
  readonly size: number;
}

export interface AtomWalk {
  readonly atoms: readonly TopLevelAtom[];
  /** True when the atoms cover the file exactly; false when the walk stopped early (truncated, hostile or not an MP4). */
  readonly complete: boolean;
}

/** Real files have a handful (ftyp, wide, mdat, moov, free, uuid…); past this the file is not one we want to walk. */
export const MAX_TOP_LEVEL_ATOMS = 64;

/** Where a file's index is: before its media data, after it, or not found (not an MP4, or truncated). */
export type IndexPosition = 'front' | 'end' | 'unknown';

/** Walks the top-level atoms of `file`, reading at most `maxAtoms` headers. */
export async function readTopLevelAtoms(file: string, maxAtoms = MAX_TOP_LEVEL_ATOMS): Promise<AtomWalk> {
  const handle = await fs.open(file, 'r');
  try {
    const { size } = await handle.stat();
    return await walkTopLevelAtoms(fileSource(handle, size, 0), maxAtoms);
  } finally {
    await handle.close();
  }
}

/** The top-level atoms of the bytes of `source`, reading at most `maxAtoms` headers. */
export async function walkTopLevelAtoms(source: ByteSource, maxAtoms = MAX_TOP_LEVEL_ATOMS): Promise<AtomWalk> {
  const fileSize = source.size;
  const atoms: TopLevelAtom[] = [];
  let offset = 0;
  while (offset < fileSize && atoms.length < maxAtoms) {
    const header = await source.read(offset, 16);
    if (header.length < 8) break;
    const type = header.toString('latin1', 4, 8);
    if (!/^[\x20-\x7e]{4}$/.test(type)) break;
    let size = header.readUInt32BE(0);
    let headerSize = 8;
    if (size === 1) {
      // A 64-bit size follows the type (files past 4 GB).
      if (header.length < 16) break;
      const large = header.readBigUInt64BE(8);
      if (large > BigInt(Number.MAX_SAFE_INTEGER)) break;
      size = Number(large);
      headerSize = 16;
    } else if (size === 0) {
      // "Extends to the end of the file": legal for the last atom only.
      size = fileSize - offset;
    }
    if (size < headerSize || offset + size > fileSize) {
      // A size smaller than its own header would loop; one past the end is a cut-off file.
      atoms.push({ type, offset, size });
      return { atoms, complete: false };
    }
    atoms.push({ type, offset, size });
    offset += size;
  }
  return { atoms, complete: offset === fileSize };
}

/** An atom inside another: where its body starts (after the 8- or 16-byte header) and where it ends. */
export interface ChildAtom {
  readonly type: string;
  /** Where the header starts. */
  readonly at: number;
  readonly bodyAt: number;
  readonly end: number;
}

/** Children of one container read, at most: real files have a few (moov: mvhd, a few trak, udta, meta). */
export const MAX_CHILD_ATOMS = 256;

/**
 * The child atoms of a container whose body lies between `start` and `end` in `source`,
 * header by header, without reading their bodies; stops at a size that cannot be and after
 * `max` children.
 */
export async function readChildAtoms(source: ByteSource, start: number, end: number, max = MAX_CHILD_ATOMS): Promise<ChildAtom[]> {
  const found: ChildAtom[] = [];
  let at = start;
  while (at + 8 <= end && found.length < max) {
    const header = await source.read(at, 16);
    const atom = childAtomAt(header, at, end);
    if (!atom) break;
    found.push(atom);
    at = atom.end;
  }
  return found;
}

/** The same as readChildAtoms over bytes in memory: the body of a metadata atom read whole. Offsets are into `buf`. */
export function childAtomsIn(buf: Buffer, start: number, end: number, max = MAX_CHILD_ATOMS): ChildAtom[] {
  const found: ChildAtom[] = [];
  const limit = Math.min(end, buf.length);
  let at = start;
  while (at + 8 <= limit && found.length < max) {
    const atom = childAtomAt(buf.subarray(at, at + 16), at, limit);
    if (!atom) break;
    found.push(atom);
    at = atom.end;
  }
  return found;
}

/** The atom whose header starts `header`, lying at `at` in a container ending at `end`; undefined when it cannot be one. */
function childAtomAt(header: Buffer, at: number, end: number): ChildAtom | undefined {
  if (header.length < 8) return undefined;
  let size = header.readUInt32BE(0);
  let headerSize = 8;
  if (size === 1) {
    if (header.length < 16) return undefined;
    const large = header.readBigUInt64BE(8);
    if (large > BigInt(end - at)) return undefined;
    size = Number(large);
    headerSize = 16;
  } else if (size === 0) size = end - at;
  if (size < headerSize || at + size > end) return undefined;
  return { type: header.toString('latin1', 4, 8), at, bodyAt: at + headerSize, end: at + size };
}

/** Whether the index (`moov`) of an MP4/MOV file comes before its first media data (`mdat`). */
export function indexPosition(walk: AtomWalk): IndexPosition {
  const moov = walk.atoms.findIndex((a) => a.type === 'moov');
  const mdat = walk.atoms.findIndex((a) => a.type === 'mdat');
  if (moov < 0) return mdat >= 0 ? 'end' : 'unknown';
  if (mdat < 0 || moov < mdat) return 'front';
  return 'end';
}

/** `indexPosition` of a file, reading its atom headers only. */
export async function indexPositionOf(file: string): Promise<IndexPosition> {
  return indexPosition(await readTopLevelAtoms(file));
}
