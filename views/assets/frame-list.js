// The photo frame's list (docs/api.md#photo-frame): every page of a JSON source of this site
// shaped as /api/album-media answers, `{page, pages, items: [...]}` (or as /api/search answers,
// `results` for `items`, or /api/on-this-day, every year's `files`), read again and again for
// as long as the frame runs. Only what the frame shows of each item is kept, and each reading
// replaces the last: the list never grows beyond the source's size.

/** Pages read at most (200 items each): 20,000 photos are more than a frame shows in weeks. */
const MAX_PAGES = 100;

/**
 * @typedef {{ src: string, type?: string }} FrameSource
 * @typedef {{
 *   key: string, kind: 'image' | 'video', alt: string, caption: string | null, taken: string | null,
 *   src: string, srcset: string, width: number | null, height: number | null,
 *   sources: FrameSource[] | null, motion: FrameSource[] | null
 * }} FrameItem
 */

/** The source answered that this visitor may not (or no longer) see it: 401, 403, 404 or 410. */
export class SourceRefused extends Error {
  /** @param {number} status */
  constructor(status) {
    super(String(status));
    this.status = status;
  }
}

/**
 * The source as a URL of this page's own site, or null for anything else: the frame never
 * asks another site for anything (the page's policy would refuse it anyway).
 * @param {string} raw
 */
export function sourceUrl(raw) {
  try {
    const url = new URL(raw, window.location.href);
    return url.origin === window.location.origin ? url : null;
  } catch {
    return null;
  }
}

/**
 * What the frame keeps of one item of the source, or null for one it cannot show.
 * @param {any} raw
 * @returns {FrameItem | null}
 */
export function frameItem(raw) {
  if (!raw || (raw.kind !== 'image' && raw.kind !== 'video') || typeof raw.src !== 'string') return null;
  const sources = (list) => (Array.isArray(list) ? list.filter((s) => s && typeof s.src === 'string').map((s) => ({ src: s.src, type: s.type })) : null);
  return {
    key: typeof raw.path === 'string' ? raw.path : raw.src,
    kind: raw.kind,
    alt: typeof raw.alt === 'string' ? raw.alt : '',
    caption: typeof raw.caption === 'string' && raw.caption !== '' ? raw.caption : null,
    taken: typeof raw.taken === 'string' ? raw.taken : null,
    src: raw.src,
    srcset: typeof raw.srcset === 'string' ? raw.srcset : '',
    width: typeof raw.width === 'number' ? raw.width : null,
    height: typeof raw.height === 'number' ? raw.height : null,
    sources: raw.kind === 'video' ? sources(raw.sources) : null,
    motion: raw.motion ? sources(raw.motion.sources) : null,
  };
}

/**
 * Every item of the source, page after page. Throws SourceRefused when the source refuses
 * this visitor, anything else (a TypeError) when the server or the network is away.
 * @param {URL} source
 * @returns {Promise<{ items: FrameItem[], pages: number }>}
 */
export async function readList(source) {
  /** @type {FrameItem[]} */
  const items = [];
  let pages = 1;
  for (let page = 1; page <= pages && page <= MAX_PAGES; page++) {
    const url = new URL(source);
    if (page > 1) url.searchParams.set('page', String(page));
    const res = await fetch(url, { credentials: 'same-origin', cache: 'no-store', headers: { accept: 'application/json' } });
    // The list shrank while it was read: what was read is all there is.
    if (res.status === 404 && page > 1) break;
    if ([401, 403, 404, 410].includes(res.status)) throw new SourceRefused(res.status);
    if (!res.ok) throw new Error(String(res.status));
    const body = await res.json();
    for (const raw of itemsOf(body)) {
      const item = frameItem(raw);
      if (item) items.push(item);
    }
    pages = Number.isInteger(body.pages) && body.pages > 0 ? body.pages : 1;
  }
  return { items, pages };
}

/**
 * The items of one page of a list: `items` (album-media, frame-media), `results` (search) or
 * each year's `files` (on this day), each shaped as an album-media item.
 * @param {any} body
 * @returns {unknown[]}
 */
function itemsOf(body) {
  if (Array.isArray(body?.items)) return body.items;
  if (Array.isArray(body?.results)) return body.results;
  if (Array.isArray(body?.years)) return body.years.flatMap((year) => (Array.isArray(year?.files) ? year.files : []));
  return [];
}

/**
 * The order the frame walks a list in, as positions into it: 0, 1, 2, … or, shuffled, a new
 * permutation for every round (Fisher–Yates), written into one array reused round after round.
 */
export class Walk {
  /** @param {boolean} shuffle */
  constructor(shuffle) {
    this.shuffle = shuffle;
    /** @type {number[]} */
    this.order = [];
    this.at = 0;
  }

  /**
   * The next position in a list of `length` items (a new round begins when one ends, or
   * when the length changed).
   * @param {number} length
   */
  next(length) {
    if (this.order.length !== length) {
      // The list grew or shrank: in order, the walk goes on from where it was; shuffled, a new round.
      const at = this.at;
      this.order.length = length;
      this.newRound();
      if (!this.shuffle) this.at = Math.min(at, length);
    }
    if (this.at >= length) this.newRound();
    return this.order[this.at++];
  }

  newRound() {
    const order = this.order;
    for (let i = 0; i < order.length; i++) order[i] = i;
    if (this.shuffle) {
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [order[i], order[j]] = [order[j], order[i]];
      }
    }
    this.at = 0;
  }
}

/**
 * 'YYYY-MM-DDTHH:MM:SS', the camera's wall clock (docs/api.md#dates), as a day written by `format`; null without one.
 * @param {string | null | undefined} taken
 * @param {Intl.DateTimeFormat} format
 */
export function dayOf(taken, format) {
  const m = /^(\d{4})-(\d{2})-(\d{2})T/.exec(taken ?? '');
  if (!m) return null;
  const date = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isNaN(date.getTime()) ? null : format.format(date);
}
