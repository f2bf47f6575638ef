// The ZIP of the photos chosen with select.js (README "Choosing photos"): the album's ZIP of
// those files (docs/api.md#get-apidownload-albumpath, `only`), one per album, or, on pages of
// files from many albums (search, timeline), one ZIP of them all
// (docs/api.md#get-apidownload-selectionfile).

/** Past this, the ZIP's address is posted as a form: proxies and servers refuse long URLs. */
const MAX_URL_CHARS = 8000;
const ALBUM_ZIP = '/api/download-album';
/** Files from many albums, each named by its path. */
const SELECTION_ZIP = '/api/download-selection';

/**
 * Asks for the ZIP of the chosen files.
 * @param {string[]} paths each file's path ('2024/trip/IMG_1.jpg'), in the order chosen
 * @param {boolean} across one ZIP of files from many albums, rather than one per album
 */
export function downloadChosen(paths, across) {
  if (across) {
    requestZip(
      SELECTION_ZIP,
      paths.map((path) => ['file', path]),
    );
    return;
  }
  for (const [album, names] of byAlbum(paths)) requestZip(ALBUM_ZIP, [['path', album], ...names.map((n) => ['only', n])]);
}

/**
 * Each album's chosen names, in the order chosen.
 * @param {string[]} paths
 */
function byAlbum(paths) {
  /** @type {Map<string, string[]>} */
  const albums = new Map();
  for (const path of paths) {
    const slash = path.lastIndexOf('/');
    const album = slash < 0 ? '' : path.slice(0, slash);
    albums.set(album, [...(albums.get(album) ?? []), path.slice(slash + 1)]);
  }
  return albums;
}

/**
 * A plain navigation to the ZIP's address, which arrives as an attachment (the page stays),
 * or the same fields posted as a form when the address would be too long. No `download`
 * attribute: a refused download shows the page that says why.
 * @param {string} api
 * @param {string[][]} fields
 */
function requestZip(api, fields) {
  const url = `${api}?${fields.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&')}`;
  if (url.length <= MAX_URL_CHARS) {
    const a = document.createElement('a');
    a.href = url;
    a.hidden = true;
    document.body.append(a);
    a.click();
    a.remove();
    return;
  }
  const form = document.createElement('form');
  form.method = 'post';
  form.action = api;
  form.hidden = true;
  for (const [name, value] of fields) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
  form.remove();
}
