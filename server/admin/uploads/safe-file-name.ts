import path from 'node:path';

const MAX_BASE_LENGTH = 120;
/**
 * Filesystems allow 255 *bytes* per name, and one CJK character takes 3 in UTF-8, an emoji 4.
 * A stored name stays well under that: the unique suffix ("-12") and the temp names made
 * beside it (".<name>.<pid>.<random>.tmp", about 26 bytes) must still fit.
 */
export const MAX_NAME_BYTES = 200;
const MAX_EXT_BYTES = 16;

const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });

/** The longest start of `text` of at most `maxChars` characters and `maxBytes` UTF-8 bytes, never splitting one. */
function truncate(text: string, maxChars: number, maxBytes: number): string {
  let out = '';
  let chars = 0;
  let bytes = 0;
  for (const { segment } of graphemes.segment(text)) {
    // A character is what a reader sees: a letter and its combining marks stay together.
    chars += 1;
    bytes += Buffer.byteLength(segment);
    if (chars > maxChars || bytes > maxBytes) break;
    out += segment;
  }
  return out;
}

/**
 * A client's file name made safe to store and to put in a URL: the base name only (no
 * folders), letters of any script, digits, ' ', '-', '_' and '.', nothing hidden, a
 * lower-case extension, and short enough in bytes for any filesystem: "../../My Trip (1).JPG"
 * is stored as "My Trip -1.jpg".
 */
export function safeFileName(originalName: string, fallback = 'file'): { base: string; ext: string } {
  const leaf = originalName.normalize('NFC').split(/[/\\]/).pop() ?? '';
  const ext = path
    .extname(leaf)
    .toLowerCase()
    .replace(/[^a-z0-9.]/g, '')
    .slice(0, MAX_EXT_BYTES);
  let base = leaf.slice(0, leaf.length - path.extname(leaf).length);
  base = base
    .replace(/\s+/g, ' ')
    .replace(/[^\p{L}\p{M}\p{N}_. -]+/gu, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[\s.-]+|[\s.-]+$/g, '');
  base = truncate(base, MAX_BASE_LENGTH, MAX_NAME_BYTES - ext.length).replace(/[\s.-]+$/, '');
  return { base: base === '' ? fallback : base, ext };
}

/**
 * `base + ext`, or `base-2 + ext`, `base-3 + ext`… whichever is not in `taken` (lower-cased
 * names): compared without case, so two uploads never differ only by case, which would
 * collide on a case-insensitive filesystem.
 */
export function uniqueFileName(base: string, ext: string, taken: ReadonlySet<string>): string {
  let name = `${base}${ext}`;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base}-${n}${ext}`;
  return name;
}
