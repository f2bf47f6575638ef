import fs from 'node:fs/promises';

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
    const { size: fileSize } = await handle.stat();
    const header = Buffer.alloc(16);
    const atoms: TopLevelAtom[] = [];
    let offset = 0;
    while (offset < fileSize && atoms.length < maxAtoms) {
      const { bytesRead } = await handle.read(header, 0, 16, offset);
      if (bytesRead < 8) break;
      const type = header.toString('latin1', 4, 8);
      if (!/^[\x20-\x7e]{4}$/.test(type)) break;
      let size = header.readUInt32BE(0);
      let headerSize = 8;
      if (size === 1) {
        // A 64-bit size follows the type (files past 4 GB).
        if (bytesRead < 16) break;
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
  } finally {
    await handle.close();
  }
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
