/**
 * Location in an XMP packet (docs/api.md#location-privacy): editors (Lightroom, darktable,
 * Photos' exports) copy the GPS position into XMP as `exif:GPSLatitude`… and may add place
 * names (`photoshop:City`, `Iptc4xmpCore:Location`…). Their values are overwritten with
 * spaces, byte for byte: the packet stays well-formed XML of the same length, and a reader
 * finds the properties empty.
 *
 * Both forms RDF allows for a simple value are covered: an attribute (`exif:GPSLatitude="…"`)
 * and an element with text content (`<exif:GPSLatitude>…</exif:GPSLatitude>`), whatever the
 * namespace prefix. The packet is at most the size of its block (an APP1 segment, a chunk, an
 * item): one pass of two regular expressions without backtracking across the text.
 */
import { type BytePatch, bytesPatch } from './byte-patches.js';

/** Local names of properties that tell where a photo was taken. */
const PLACE = 'GPS[A-Za-z]*|City|State|Country|CountryCode|CountryName|ProvinceState|Location|Sublocation|WorldRegion';

const ATTRIBUTE = new RegExp(`[A-Za-z_][\\w.-]*:(?:${PLACE})\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'g');
const ELEMENT = new RegExp(`<([A-Za-z_][\\w.-]*:(?:${PLACE}))(?:\\s[^<>]*)?>([^<]*)</\\1\\s*>`, 'g');

/** What to overwrite in `xmp` (offsets inside it) so no location property keeps its value. */
export function xmpLocationPatches(xmp: Buffer): BytePatch[] {
  // latin1: one character per byte, so string offsets are byte offsets (UTF-8 text included).
  const text = xmp.toString('latin1');
  const patches: BytePatch[] = [];
  const blank = (at: number, length: number) => {
    if (length > 0) patches.push(bytesPatch(at, Buffer.alloc(length, 0x20)));
  };
  for (const m of text.matchAll(ATTRIBUTE)) {
    const value = m[1] ?? m[2] ?? '';
    // The value ends one character (the closing quote) before the match does.
    blank(m.index + m[0].length - 1 - value.length, value.length);
  }
  for (const m of text.matchAll(ELEMENT)) {
    const value = m[2] ?? '';
    const closing = `</${m[1]}`;
    blank(m.index + m[0].lastIndexOf(closing) - value.length, value.length);
  }
  return patches;
}

/** The namespace that opens an XMP APP1 segment of a JPEG. */
export const JPEG_XMP_PREFIX = Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1');
