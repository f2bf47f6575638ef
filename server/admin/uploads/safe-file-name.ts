import path from 'node:path';

const MAX_BASE_LENGTH = 120;

/**
 * A client's file name made safe to store and to put in a URL: the base name only (no
 * folders), letters of any script, digits, ' ', '-', '_' and '.', nothing hidden, and a
 * lower-case extension: "../../My Trip (1).JPG" is stored as "My Trip -1.jpg".
 */
export function safeFileName(originalName: string, fallback = 'file'): { base: string; ext: string } {
  const leaf = originalName.normalize('NFC').split(/[/\\]/).pop() ?? '';
  const ext = path.extname(leaf).toLowerCase().replace(/[^a-z0-9.]/g, '');
  let base = leaf.slice(0, leaf.length - path.extname(leaf).length);
  base = base
    .replace(/\s+/g, ' ')
    .replace(/[^\p{L}\p{M}\p{N}_. -]+/gu, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[\s.-]+|[\s.-]+$/g, '');
  base = Array.from(base).slice(0, MAX_BASE_LENGTH).join('').replace(/[\s.-]+$/, '');
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
