/**
 * What every format's walk shares (docs/api.md#location-privacy): the signal that a structure
 * cannot be followed, and the bound on the work of one file.
 *
 * Files are untrusted, and a walk that stops early must not let what it did not see go out.
 * So a walk never "gives up and patches nothing": a structure that cannot be followed throws
 * Unreadable, and the code that started reading that structure blanks all of it (an EXIF
 * block, a metadata chunk, the rest of a file from where the walk lost its way), up to the
 * whole file for a structure that cannot be walked at all (location-patches.ts).
 *
 * The bound is the file's size, not a count real files exceed: a walk may take one step
 * (a segment, a chunk, a box, an IFD, a sub-block) per 64 bytes of the file plus a million,
 * several times what any real file needs (a 4 GB PNG of 8 KB IDATs has 500,000 chunks),
 * and a file past it is walked no further: it is zeroed whole.
 */

/** Raised when a structure cannot be walked as its format says, or a bound is hit: the caller blanks what it was reading. */
export class Unreadable extends Error {
  override readonly name = 'Unreadable';
}

/**
 * Patches one file may need, at most: a photo needs tens; a movie's metadata track zeroed
 * chunk by chunk, one per chunk (two hours of 60 fps per-frame metadata: 432,000).
 */
export const MAX_PATCHES = 1_000_000;

/**
 * Entries one list of a walk may hold (the patches of a chunk sequence, a container's boxes,
 * an IFD's values): real files have tens to thousands. Walks check their lists as they grow,
 * so a hostile file of millions of tiny chunks costs no memory (18 MB, 50 ms for 30 MB of
 * empty PNG chunks, where building their patches took 633 MB) before it is zeroed whole.
 */
export const MAX_LIST = 100_000;

/** Steps a walk may take in a file of `size` bytes. */
export const maxSteps = (size: number): number => 1_000_000 + Math.floor(size / 64);

/** The work done on one file, counted as its walks go; past the bound the whole file is blanked. */
export class Budget {
  private steps = 0;
  private readonly max: number;

  /** @param max the bound; maxSteps(fileSize) unless told (tests reach it with small files) */
  constructor(fileSize: number, max = maxSteps(fileSize)) {
    this.max = max;
  }

  /** Counts `n` steps; Unreadable past the bound. */
  step(n = 1): void {
    this.steps += n;
    if (this.steps > this.max) throw new WalkBoundHit(`more than ${this.max} structures`);
  }

  /** Checks a list a walk is building (patches, spans, boxes): past `max`, the whole file is blanked instead. */
  hold(list: { readonly length: number } | { readonly size: number }, max = MAX_LIST): void {
    if (('length' in list ? list.length : list.size) > max) throw new WalkBoundHit(`a list of more than ${max}`);
  }
}

/** The file's own bound was hit: nothing of it can be trusted to have been seen, whoever catches it. */
export class WalkBoundHit extends Unreadable {}

/** Four bytes as printable ASCII, as box, chunk and marker types are; undefined for anything else. */
export function fourCC(bytes: Buffer, at: number): string | undefined {
  if (at + 4 > bytes.length) return undefined;
  for (let i = at; i < at + 4; i++) if (bytes[i]! < 0x20 || bytes[i]! > 0x7e) return undefined;
  return bytes.toString('latin1', at, at + 4);
}

/**
 * Whether `err` means "this structure cannot be walked" (so its reader blanks it and goes on):
 * Unreadable, or a read past the end of a buffer that a lying length led to. The file's own
 * bound (WalkBoundHit) is not: it goes up to blank the whole file; nor are I/O errors.
 */
export const cannotWalk = (err: unknown): boolean => (err instanceof Unreadable && !(err instanceof WalkBoundHit)) || err instanceof RangeError;
