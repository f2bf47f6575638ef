// Words the admin page makes of names (its sentences are the catalogue's `admin` part, views/assets/strings.js).

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
