// Words the admin page writes about numbers and names.

/** "1 photo", "8 photos", "0 videos". */
export function countOf(n, singular, plural = `${singular}s`) {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** "8 photos, 1 video"; the parts that are zero left out ("" when all are). */
export function countsOf(parts) {
  return parts
    .filter(([n]) => n > 0)
    .map(([n, singular, plural]) => countOf(n, singular, plural))
    .join(', ');
}

/**
 * A folder name suggested from an album title, for its path: "Beach Day" → "beach-day",
 * "Été à Paris" → "ete-a-paris". Accents come off Latin letters only; other scripts keep their
 * letters and marks ("東京の夜" stays), which the server's path rule allows
 * (server/admin/album-paths.ts).
 */
export function slugOf(title) {
  return title
    .normalize('NFKD')
    .replace(/([A-Za-z])\p{M}+/gu, '$1')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^[-\p{M}]+|-+$/gu, '')
    .slice(0, 80)
    .replace(/-+$/, '');
}
