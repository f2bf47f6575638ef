/**
 * The camera, the position and the place names a file carries, read from what its headers
 * hold (docs/api.md#what-is-known-of-a-file): XMP (photoshop City/State/Country, IPTC Core's
 * Location, IPTC Extension's location structures, exif:GPS as a fallback), IPTC-IIM (Photoshop
 * image resources), QuickTime's ISO 6709 text, and a camera's make and model. Everything here
 * comes from untrusted files: each reader's work is bounded by its input's size (capped), and
 * every value is cut to a few dozen characters; what cannot be read is absent, never an error.
 */

/** A position in degrees (WGS 84). */
export interface GpsPosition {
  readonly lat: number;
  readonly lon: number;
}

/** A position on Earth, other than the 0°, 0° of a camera that had no fix. */
export function isPosition(lat: number, lon: number): boolean {
  if (!Number.isFinite(lat) || !Number.isFinite(lon)) return false;
  return Math.abs(lat) <= 90 && Math.abs(lon) <= 180 && !(lat === 0 && lon === 0);
}

/** A place name or a camera is a few words: longer text is not one (a caption in the wrong field). */
const MAX_NAME_CHARS = 80;
/** Names a file may give: real ones give three to six. */
export const MAX_OWN_PLACES = 12;

/** A name as kept: one line, trimmed, without control characters; undefined when empty or too long to be a name. */
function nameOf(raw: string | null | undefined): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const value = raw
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return value === '' || value.length > MAX_NAME_CHARS ? undefined : value;
}

/** Names without repeats (case and accents aside, "Lisboa" and "LISBOA" are one), the first spelling kept, at most `max`. */
export function uniqueNames(names: Iterable<string | undefined>, max = Number.POSITIVE_INFINITY): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const raw of names) {
    const name = nameOf(raw);
    if (name === undefined) continue;
    const key = name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(name);
    if (kept.length >= max) break;
  }
  return kept;
}

/** What a company calls itself in EXIF Make beyond its brand ("NIKON CORPORATION", "OLYMPUS IMAGING CORP."). */
const COMPANY_SUFFIX = /[\s,]+(corporation|corp\.?|company|co\.?,?\s?ltd\.?|ltd\.?|inc\.?|gmbh|imaging|optical|electronics)$/i;

/**
 * The camera as people name it: the make before the model, unless the model names it already
 * ("Apple" + "iPhone 15 Pro": "Apple iPhone 15 Pro"; "Canon" + "Canon EOS R5": "Canon EOS R5";
 * "NIKON CORPORATION" + "NIKON D750": "NIKON D750"). Undefined when the file names neither.
 */
export function cameraName(make: string | null | undefined, model: string | null | undefined): string | undefined {
  let brand = nameOf(make);
  const named = nameOf(model);
  for (let cut = brand; cut !== undefined && COMPANY_SUFFIX.test(cut); ) {
    cut = cut.replace(COMPANY_SUFFIX, '');
    if (cut !== '') brand = cut;
    else break;
  }
  if (named === undefined) return brand;
  if (brand === undefined) return named;
  const lowerModel = named.toLowerCase();
  const modelNamesBrand = brand
    .toLowerCase()
    .split(' ')
    .some((word) => lowerModel.startsWith(word));
  return nameOf(modelNamesBrand ? named : `${brand} ${named}`) ?? named;
}

/**
 * An ISO 6709 point as phones and ffmpeg write it: "+38.7223-009.1393/", with an altitude or
 * not; degrees, degrees and minutes (±DDMM.mm) or with seconds (±DDMMSS.ss). Null otherwise.
 */
export function positionFromIso6709(text: string | null | undefined): GpsPosition | null {
  if (typeof text !== 'string') return null;
  const m =
    /^\s*([+-])(\d{2}|\d{4}|\d{6})(\.\d{1,12})?([+-])(\d{3}|\d{5}|\d{7})(\.\d{1,12})?(?:[+-]\d{1,8}(?:\.\d{1,12})?)?(?:CRS[A-Z0-9_]{1,16})?\/?\s*$/.exec(text);
  if (!m) return null;
  const lat = sexagesimal(m[2]!, m[3] ?? '', 2) * (m[1] === '-' ? -1 : 1);
  const lon = sexagesimal(m[5]!, m[6] ?? '', 3) * (m[4] === '-' ? -1 : 1);
  return isPosition(lat, lon) ? { lat, lon } : null;
}

/** ISO 6709's integer part holds degrees, then minutes, then seconds, two digits each after the degrees; the fraction belongs to the last. */
function sexagesimal(integer: string, fraction: string, degreeDigits: number): number {
  const degrees = Number(integer.slice(0, degreeDigits));
  const rest = integer.slice(degreeDigits);
  if (rest.length === 0) return degrees + Number(`0${fraction}`);
  if (rest.length === 2) return degrees + Number(`${rest}${fraction}`) / 60;
  return degrees + Number(rest.slice(0, 2)) / 60 + Number(`${rest.slice(2)}${fraction}`) / 3600;
}

/** The camera and the position a video's container tags give (ffprobe's `format.tags`, then the video stream's). */
export function videoPlaceFacts(...tagSets: (Readonly<Record<string, string>> | undefined)[]): { camera: string | null; position: GpsPosition | null } {
  const tag = (...names: string[]): string | undefined => {
    for (const tags of tagSets) for (const name of names) if (typeof tags?.[name] === 'string') return tags[name];
    return undefined;
  };
  const camera = cameraName(
    tag('com.apple.quicktime.make', 'make', 'com.android.manufacturer'),
    tag('com.apple.quicktime.model', 'model', 'com.android.model'),
  );
  const position = positionFromIso6709(tag('com.apple.quicktime.location.ISO6709', 'location', 'location-eng'));
  return { camera: camera ?? null, position };
}

// ---------------------------------------------------------------------------------------
// XMP

/** An XMP packet in a JPEG is at most 64 KB; past this a packet is read no further. */
const MAX_XMP_CHARS = 256 * 1024;

const PHOTOSHOP = 'http://ns.adobe.com/photoshop/1.0/';
const IPTC_CORE = 'http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/';
const IPTC_EXT = 'http://iptc.org/std/Iptc4xmpExt/2008-02-29/';
const EXIF_NS = 'http://ns.adobe.com/exif/1.0/';

/** The properties that name a place, by namespace (the prefix a file binds to it may be any). */
const PLACE_PROPERTIES: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  [PHOTOSHOP, new Set(['City', 'State', 'Country'])],
  [IPTC_CORE, new Set(['Location'])],
  // Inside LocationShown and LocationCreated, the only structures that hold them.
  [IPTC_EXT, new Set(['Sublocation', 'City', 'ProvinceState', 'CountryName'])],
]);
const GPS_PROPERTIES: ReadonlySet<string> = new Set(['GPSLatitude', 'GPSLongitude']);

/** What an XMP packet says of a place: its names, in the order met, and exif:GPS as a position. */
export function xmpPlaceFacts(packet: Buffer | undefined): { places: string[]; position: GpsPosition | null } {
  if (!packet || packet.length === 0) return { places: [], position: null };
  const xml = packet.toString('utf8', 0, Math.min(packet.length, MAX_XMP_CHARS));
  const prefixes = new Map<string, string>();
  for (const m of xml.matchAll(/xmlns:([\w.-]{1,64})\s*=\s*["']([^"'<>]{1,256})["']/g)) prefixes.set(m[1]!, m[2]!);

  const places: string[] = [];
  const gps = new Map<string, string>();
  const take = (uri: string | undefined, local: string, value: string | undefined) => {
    if (uri === undefined || value === undefined) return;
    if (PLACE_PROPERTIES.get(uri)?.has(local)) places.push(xmlText(value));
    else if (uri === EXIF_NS && GPS_PROPERTIES.has(local) && !gps.has(local)) gps.set(local, xmlText(value).trim());
  };
  // Properties as elements: `<photoshop:City>Lisbon</…>`, CDATA, `rdf:value`, a one-item list, a default namespace.
  for (const m of xml.matchAll(/<(?:([\w.-]{1,64}):)?([A-Za-z]{1,32})(\s[^<>]{0,1024})?>/g)) {
    const [, prefix, local, attributes = ''] = m;
    if (attributes.endsWith('/')) continue;
    const uri = prefix === undefined ? /\sxmlns\s*=\s*["']([^"'<>]{1,256})["']/.exec(attributes)?.[1] : prefixes.get(prefix);
    if (uri === undefined || !(PLACE_PROPERTIES.get(uri)?.has(local!) || (uri === EXIF_NS && GPS_PROPERTIES.has(local!)))) continue;
    const after = xml.slice(m.index + m[0].length, m.index + m[0].length + 1024);
    const value =
      /^\s*(?:<!\[CDATA\[([^\]]{1,256})\]\]>|<rdf:value>([^<]{1,256})<|<rdf:(?:Alt|Bag|Seq)>\s*<rdf:li[^<>]{0,256}>([^<]{1,256})<|([^<]{1,256})<)/.exec(after);
    take(uri, local!, value?.[1] ?? value?.[2] ?? value?.[3] ?? value?.[4]);
  }
  // Properties as attributes of a description or a structure: `photoshop:City="Lisbon"`.
  for (const m of xml.matchAll(/\s([\w.-]{1,64}):([A-Za-z]{1,32})\s*=\s*(?:"([^"<]{0,256})"|'([^'<]{0,256})')/g)) {
    take(prefixes.get(m[1]!), m[2]!, m[3] ?? m[4]);
  }
  const lat = xmpCoordinate(gps.get('GPSLatitude'), 'N', 'S');
  const lon = xmpCoordinate(gps.get('GPSLongitude'), 'E', 'W');
  const position = lat !== null && lon !== null && isPosition(lat, lon) ? { lat, lon } : null;
  return { places: uniqueNames(places, MAX_OWN_PLACES), position };
}

/** XMP's GPSCoordinate: "DDD,MM,SSk" or "DDD,MM.mmk", k the hemisphere. */
function xmpCoordinate(value: string | undefined, positive: string, negative: string): number | null {
  const m = value && /^(\d{1,3}),(\d{1,2}(?:\.\d{1,12})?)(?:,(\d{1,2}(?:\.\d{1,12})?))?([NSEW])$/i.exec(value);
  if (!m) return null;
  const hemisphere = m[4]!.toUpperCase();
  if (hemisphere !== positive && hemisphere !== negative) return null;
  const degrees = Number(m[1]) + Number(m[2]) / 60 + Number(m[3] ?? 0) / 3600;
  return hemisphere === negative ? -degrees : degrees;
}

/** XML's character references and the five named entities, decoded; anything else left as written. */
function xmlText(value: string): string {
  return value.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|amp|lt|gt|quot|apos);/gi, (whole, ref: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (ref[0] !== '#') return named[ref.toLowerCase()] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

// ---------------------------------------------------------------------------------------
// IPTC-IIM

const PHOTOSHOP_HEADER = Buffer.from('Photoshop 3.0\0', 'latin1');
const IPTC_RESOURCE = 0x0404;
/** Photoshop resources one block holds: tens in real files. */
const MAX_RESOURCES = 1024;
/** IIM datasets of record 2 that name a place: Sub-location, City, Province-State, Country name. */
const IIM_PLACES: ReadonlySet<number> = new Set([92, 90, 95, 101]);

/**
 * The place names of an IPTC-IIM block (record 2: City 2:90, Province-State 2:95, Country
 * 2:101, Sub-location 2:92), as libvips hands it out: the Photoshop image resources of a JPEG's
 * APP13 (with or without their "Photoshop 3.0" header), or the IIM datasets themselves.
 */
export function iptcPlaces(block: Buffer | undefined): string[] {
  if (!block || block.length === 0) return [];
  const resources = block.subarray(0, PHOTOSHOP_HEADER.length).equals(PHOTOSHOP_HEADER) ? block.subarray(PHOTOSHOP_HEADER.length) : block;
  const iim = resources[0] === 0x1c ? resources : iimResource(resources);
  return iim ? iimPlaces(iim) : [];
}

/** The IPTC resource (0x0404) among Photoshop's: '8BIM', id, a padded Pascal name, a length, the data padded to even. */
function iimResource(buf: Buffer): Buffer | undefined {
  let at = 0;
  for (let n = 0; n < MAX_RESOURCES && at + 12 <= buf.length; n++) {
    if (buf.toString('latin1', at, at + 4) !== '8BIM') return undefined;
    const id = buf.readUInt16BE(at + 4);
    const nameLength = buf[at + 6]!;
    const sizeAt = at + 6 + (nameLength + 1 + ((nameLength + 1) % 2));
    if (sizeAt + 4 > buf.length) return undefined;
    const size = buf.readUInt32BE(sizeAt);
    const dataAt = sizeAt + 4;
    if (dataAt + size > buf.length) return undefined;
    if (id === IPTC_RESOURCE) return buf.subarray(dataAt, dataAt + size);
    at = dataAt + size + (size % 2);
  }
  return undefined;
}

/** Walks IIM datasets (0x1C, record, dataset, a 2-byte length): each step moves past one, so the walk ends within the block. */
function iimPlaces(iim: Buffer): string[] {
  const found: { dataset: number; value: string }[] = [];
  let utf8 = false;
  for (let at = 0; at + 5 <= iim.length && iim[at] === 0x1c; ) {
    const record = iim[at + 1]!;
    const dataset = iim[at + 2]!;
    const length = iim.readUInt16BE(at + 3);
    // An extended length (top bit set) only holds large binary data, never a place: stop there.
    if (length & 0x8000) break;
    const value = iim.subarray(at + 5, Math.min(iim.length, at + 5 + length));
    // 1:90, the coded character set: ESC % G is UTF-8.
    if (record === 1 && dataset === 90 && value.equals(Buffer.from([0x1b, 0x25, 0x47]))) utf8 = true;
    if (record === 2 && IIM_PLACES.has(dataset)) found.push({ dataset, value: iimText(value, utf8) });
    at += 5 + length;
  }
  return uniqueNames(
    found.map((f) => f.value),
    MAX_OWN_PLACES,
  );
}

/** IIM text: UTF-8 when the block says so or when it decodes as such (what ExifTool writes), else Latin-1. */
function iimText(bytes: Buffer, utf8: boolean): string {
  if (utf8) return bytes.toString('utf8');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}
