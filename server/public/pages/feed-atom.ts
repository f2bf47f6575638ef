import crypto from 'node:crypto';

/**
 * An Atom 1.0 document (RFC 4287), as the feeds write it (docs/api.md#feeds). Every URL is
 * absolute: a reader resolves nothing against the feed's address.
 */
export interface AtomFeed {
  /** `urn:uuid:…` (atomId): the same for the same feed on every request and after a restart. */
  readonly id: string;
  readonly title: string;
  readonly subtitle: string;
  /** The language of its words (`xml:lang`). */
  readonly lang: string;
  /** Who writes it: the site's name. */
  readonly author: string;
  /** The feed's own address (`rel="self"`) and the page it follows (`rel="alternate"`). */
  readonly self: string;
  readonly page: string;
  readonly icon: string | undefined;
  /** Newest first. */
  readonly entries: readonly AtomEntry[];
}

export interface AtomEntry {
  readonly id: string;
  readonly title: string;
  readonly page: string;
  /** ms since the epoch. */
  readonly published: number;
  readonly updated: number;
  /** The entry's HTML (its text and thumbnails), written escaped as `type="html"` content. */
  readonly html: string;
}

/**
 * A UUID (RFC 9562 version 5 shape) made from `name`: an id that stays the same for the same
 * thing, and says nothing of it (a share link's id goes in, only a hash comes out).
 */
export function atomId(name: string): string {
  const h = crypto.createHash('sha1').update(`photo-gallery feed\n${name}`, 'utf8').digest();
  h[6] = ((h[6] as number) & 0x0f) | 0x50;
  h[8] = ((h[8] as number) & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Characters XML 1.0 cannot hold at all (control characters a file name may carry): left out. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text or an attribute value, escaped for XML (and for the HTML of an entry's content alike). */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

/** RFC 3339 in UTC, to the second: `2024-05-01T12:00:00Z`. */
const rfc3339 = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19)}Z`;

/**
 * A feed with no entries still needs an `updated`: the epoch, the same on every request, so a
 * reader does not take an empty feed for a changed one.
 */
const EMPTY_FEED_UPDATED = 0;

function entryXml(e: AtomEntry): string {
  return [
    '<entry>',
    `<id>${escapeXml(e.id)}</id>`,
    `<title type="text">${escapeXml(e.title)}</title>`,
    `<link rel="alternate" type="text/html" href="${escapeXml(e.page)}"/>`,
    `<published>${rfc3339(e.published)}</published>`,
    `<updated>${rfc3339(e.updated)}</updated>`,
    `<content type="html">${escapeXml(e.html)}</content>`,
    '</entry>',
  ].join('\n');
}

/** The document, `<?xml …?>` first. Entries inherit the feed's author (RFC 4287 4.1.2). */
export function atomXml(feed: AtomFeed): string {
  const updated = feed.entries.reduce((newest, e) => Math.max(newest, e.updated), EMPTY_FEED_UPDATED);
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${escapeXml(feed.lang)}">`,
    `<id>${escapeXml(feed.id)}</id>`,
    `<title type="text">${escapeXml(feed.title)}</title>`,
    `<subtitle type="text">${escapeXml(feed.subtitle)}</subtitle>`,
    `<updated>${rfc3339(updated)}</updated>`,
    `<author><name>${escapeXml(feed.author)}</name></author>`,
    `<link rel="self" type="application/atom+xml" href="${escapeXml(feed.self)}"/>`,
    `<link rel="alternate" type="text/html" href="${escapeXml(feed.page)}"/>`,
    ...(feed.icon ? [`<icon>${escapeXml(feed.icon)}</icon>`] : []),
    ...feed.entries.map(entryXml),
    '</feed>',
    '',
  ].join('\n');
}
