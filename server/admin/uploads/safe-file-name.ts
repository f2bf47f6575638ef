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
 * Characters no stored name may hold: folder separators, the characters Windows, SMB and
 * exFAT refuse (an album tree is often copied to such a disk or share), and invisible ones:
 * control characters, and format characters such as the right-to-left override, which can
 * make "photo\u202Egpj.exe" read as "photoexe.jpg".
 */
const FORBIDDEN = /[/\\<>:"|?*\p{C}]+/gu;

/** Names Windows reserves for devices, whatever follows their first dot ("con.jpg", "LPT1.backup.png"). */
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;

/**
 * A client's file name made safe to store: the name as given where it is safe ("Summer photo
 * (1).JPG" stays as it is, its extension case included: the catalogue reads extensions in any
 * case), with only what could do harm changed: folders dropped ("../../x.jpg" is "x.jpg"),
 * forbidden characters (FORBIDDEN) replaced by "-", runs of white space made one space,
 * leading dots, spaces and dashes trimmed (hidden files, invisible names, names a shell reads
 * as an option), trailing ones too (Windows drops them), a reserved device name prefixed
 * with "_", and the whole cut short enough in bytes for any filesystem.
 */
export function safeFileName(originalName: string, fallback = 'file'): { base: string; ext: string } {
  const leaf = originalName.normalize('NFC').split(/[/\\]/).pop() ?? '';
  const ext = path
    .extname(leaf)
    .replace(/[^A-Za-z0-9.]/g, '')
    .slice(0, MAX_EXT_BYTES);
  let base = leaf.slice(0, leaf.length - path.extname(leaf).length);
  base = base
    .replace(/[\s\p{Z}]+/gu, ' ')
    .replace(FORBIDDEN, '-')
    .replace(/^[\s.-]+|[\s.-]+$/g, '');
  base = truncate(base, MAX_BASE_LENGTH, MAX_NAME_BYTES - ext.length).replace(/[\s.-]+$/, '');
  if (base === '') base = fallback;
  if (RESERVED.test(base.split('.')[0]!.trim())) base = `_${base}`;
  return { base, ext };
}

/**
 * Whether `name` may be stored as it is: safeFileName leaves it unchanged (a rename asks
 * this; an upload's name is made safe instead).
 */
export function isSafeFileName(name: string): boolean {
  const { base, ext } = safeFileName(name, '');
  return base !== '' && ext !== '' && `${base}${ext}` === name;
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
