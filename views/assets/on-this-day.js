// "On this day" on the welcome page (README "Finding photos"): the page is the same for
// everyone and kept, so its section comes empty and hidden; this asks /api/on-this-day for
// what this visitor may open, and shows the section only when there is something.

const onThisDaySection = document.getElementById('on-this-day');
if (onThisDaySection) void fill(onThisDaySection).catch(() => undefined);

/** Thumbnails as wide as a phone's third, a screen's sixth. */
const SIZES = '(max-width: 600px) 33vw, 180px';

/** @param {HTMLElement} section */
async function fill(section) {
  const res = await fetch('/api/on-this-day', { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
  if (!res.ok) return;
  /** @type {{ years: { year: number, label: string, files: { url: string, alt: string, src: string, srcset: string, webpSrcset: string, width?: number, height?: number, kind: string }[] }[] }} */
  const body = await res.json();
  if (!body.years?.length) return;
  for (const group of body.years) {
    const block = document.createElement('div');
    block.className = 'on-this-day__year';
    const heading = document.createElement('h3');
    heading.textContent = group.label;
    const time = document.createElement('time');
    time.dateTime = String(group.year);
    time.textContent = ` · ${group.year}`;
    time.className = 'on-this-day__when';
    heading.append(time);
    const files = document.createElement('ul');
    files.className = 'on-this-day__files';
    for (const file of group.files) files.append(tile(file));
    block.append(heading, files);
    section.append(block);
  }
  section.hidden = false;
}

/** @param {{ url: string, alt: string, src: string, srcset: string, webpSrcset: string, width?: number, height?: number, kind: string }} file */
function tile(file) {
  const li = document.createElement('li');
  li.className = `on-this-day__file on-this-day__file--${file.kind}`;
  const link = document.createElement('a');
  link.href = file.url;
  const picture = document.createElement('picture');
  const webp = document.createElement('source');
  webp.type = 'image/webp';
  webp.srcset = file.webpSrcset;
  webp.sizes = SIZES;
  const img = document.createElement('img');
  img.src = file.src;
  img.srcset = file.srcset;
  img.sizes = SIZES;
  img.alt = file.alt;
  img.loading = 'lazy';
  img.decoding = 'async';
  picture.append(webp, img);
  link.append(picture);
  li.append(link);
  return li;
}
