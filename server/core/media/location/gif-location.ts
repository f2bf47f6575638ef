/**
 * A GIF served without a place (docs/api.md#location-privacy). Its blocks are walked to the
 * trailer: the screen descriptor, colour tables, images and their data, graphic control
 * extensions and the looping application extensions of animations (NETSCAPE2.0,
 * ANIMEXTS1.0) and ICC profiles (ICCRGBG1) are kept. Comments, plain text, every other
 * application extension (XMP's `XMP DataXMP`, ImageMagick's IPTC `MGK8BIM0`…) and unknown
 * extensions are blanked: their data rewritten as sub-blocks of zeros of the same total
 * length (an application's identifier zeroed too), so every decoder still walks past them.
 *
 * Bytes after the trailer are zeroed; where the walk loses its way, everything from there.
 * Image data is skipped sub-block by sub-block within 64 KB reads.
 */
import type { ByteSource } from '../byte-source.js';
import { type BytePatch, bytesPatch, zeroPatch } from './byte-patches.js';
import type { Budget } from './walk.js';

const TRAILER = 0x3b;
const IMAGE = 0x2c;
const EXTENSION = 0x21;
const GRAPHIC_CONTROL = 0xf9;
const APPLICATION = 0xff;
const KEPT_APPLICATIONS = new Set(['NETSCAPE2.0', 'ANIMEXTS1.0', 'ICCRGBG1012']);
const READ_BYTES = 64 * 1024;

export const isGif = (head: Buffer): boolean => /^GIF8[79]a$/.test(head.toString('latin1', 0, 6));

/** Raised inside this module where the walk cannot go on. */
class Lost extends Error {}

export async function gifPatches(file: ByteSource, budget: Budget): Promise<BytePatch[]> {
  const patches: BytePatch[] = [];
  const byte = async (at: number) => {
    const b = await file.read(at, 1);
    if (b.length === 0) throw new Lost();
    return b[0]!;
  };
  /** Where the sub-blocks starting at `at` end (after their zero terminator). */
  const pastSubBlocks = async (start: number): Promise<number> => {
    let at = start;
    for (;;) {
      const chunk = await file.read(at, READ_BYTES);
      if (chunk.length === 0) throw new Lost();
      let i = 0;
      while (i < chunk.length) {
        budget.step();
        const length = chunk[i]!;
        if (length === 0) return at + i + 1;
        i += 1 + length;
      }
      at += i;
    }
  };
  let at = 6;
  try {
    const screen = await file.read(at, 7);
    if (screen.length < 7) throw new Lost();
    at += 7 + colourTableBytes(screen[4]!);
    for (;;) {
      budget.step();
      budget.hold(patches);
      const introducer = await byte(at);
      if (introducer === TRAILER) {
        if (at + 1 < file.size) patches.push(zeroPatch(at + 1, file.size - at - 1));
        break;
      }
      if (introducer === IMAGE) {
        const descriptor = await file.read(at, 10);
        if (descriptor.length < 10) throw new Lost();
        // Descriptor, local colour table, LZW code size, then the data's sub-blocks.
        const dataAt = at + 10 + colourTableBytes(descriptor[9]!) + 1;
        try {
          at = await pastSubBlocks(dataAt);
        } catch (err) {
          // Image data cut short (a GIF cut short): pixels, and nothing after them.
          if (err instanceof Lost) return patches;
          throw err;
        }
        continue;
      }
      if (introducer !== EXTENSION) throw new Lost();
      const label = await byte(at + 1);
      const blocksAt = at + 2;
      const end = await pastSubBlocks(blocksAt);
      if (label === APPLICATION) {
        const id = await file.read(blocksAt, 12);
        if (!(id[0] === 11 && KEPT_APPLICATIONS.has(id.toString('latin1', 1, 12)))) patches.push(zeroSubBlocks(blocksAt, end));
      } else if (label !== GRAPHIC_CONTROL) patches.push(zeroSubBlocks(blocksAt, end));
      at = end;
    }
  } catch (err) {
    if (!(err instanceof Lost)) throw err;
    if (at < file.size) patches.push(zeroPatch(at, file.size - at));
  }
  return patches;
}

/** Bytes of the colour table a descriptor's packed field announces. */
const colourTableBytes = (packed: number): number => (packed & 0x80 ? 3 * 2 ** ((packed & 7) + 1) : 0);

/**
 * Sub-blocks of zeros filling `[start, end)` exactly (the last byte, the terminator), so the
 * walk of any decoder lands where it did: blocks of at most 255 bytes, none of 0.
 */
function zeroSubBlocks(start: number, end: number): BytePatch {
  const bytes = Buffer.alloc(end - start);
  let left = bytes.length - 1; // before the terminator
  let at = 0;
  while (left > 0) {
    // A block takes 1 + its length; never leave a single byte, which no block can fill.
    let length = Math.min(255, left - 1);
    if (left - (length + 1) === 1) length--;
    bytes[at] = length;
    at += 1 + length;
    left -= 1 + length;
  }
  return bytesPatch(start, bytes);
}
