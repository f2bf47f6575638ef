import fs from 'node:fs/promises';
import path from 'node:path';
import { hasControlCharacter } from './control-characters.js';
import { DEFAULT_LANGUAGE, isLanguageCode, LANGUAGE_CODES } from './languages.js';
import type { Logger } from './logger.js';

/**
 * The site's identity, `CONTENT_DIR/site.json` (docs/api.md#sitejson): the name in every
 * header and title, the landing page's subtitle, the accent colour, and the address the
 * public gallery is reached at, from which share links and link previews are built.
 */
export interface SiteSettings {
  readonly name: string;
  readonly subtitle: string;
  /** `#rrggbb`, lower case. */
  readonly accent: string;
  /** An origin (`https://photos.example.com`), or '' while the owner has not said. */
  readonly publicUrl: string;
  /** The language of visitors whose browser names none the gallery has (server/core/languages.ts). */
  readonly language: string;
  /** How exactly the map shows visitors where photos were taken (docs/api.md#the-map); "hidden": no map. */
  readonly mapPrecision: MapPrecision;
  /** A tile server's URL template (`https://tile.example.org/{z}/{x}/{y}.png`), or '' for the bundled world map. */
  readonly mapTiles: string;
  /** The credit line the tile server asks for, shown in the map's corner. */
  readonly mapAttribution: string;
}

/** The map's precisions for visitors, finest first: positions as they are, to about 1 km, to about 100 km, no map. */
export const MAP_PRECISIONS = ['exact', 'city', 'country', 'hidden'] as const;
export type MapPrecision = (typeof MAP_PRECISIONS)[number];
const isMapPrecision = (value: string): value is MapPrecision => (MAP_PRECISIONS as readonly string[]).includes(value);

/** site.json as a file: the settings plus keys this version does not know, which the admin writes back as they are. */
export type SiteFile = Readonly<Partial<SiteSettings> & Record<string, unknown>>;

export const SITE_FILE = 'site.json';

export const DEFAULT_SITE_SETTINGS: SiteSettings = Object.freeze({
  name: 'Gallery',
  subtitle: 'Photos and videos, kept private.',
  accent: '#e8b86b',
  publicUrl: '',
  language: DEFAULT_LANGUAGE,
  mapPrecision: 'city',
  mapTiles: '',
  mapAttribution: '',
});

export const SITE_FIELDS = Object.keys(DEFAULT_SITE_SETTINGS) as readonly (keyof SiteSettings)[];

const MAX_LENGTH = { name: 60, subtitle: 200, publicUrl: 2_000, mapTiles: 500, mapAttribution: 200 } as const;

/** site.json is there but is not a JSON object: nothing can be read from it, nor safely written over it. */
export class SiteFileError extends Error {
  constructor() {
    super(`${SITE_FILE} in CONTENT_DIR is not a JSON object; fix it by hand first`);
    this.name = 'SiteFileError';
  }
}

/** `#abc` or `#aabbcc` (any case) as `#aabbcc`; undefined for anything else. */
export function normaliseAccent(value: string): string | undefined {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (!m) return undefined;
  const hex = m[1]!.toLowerCase();
  return `#${hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex}`;
}

/**
 * The public address as an origin, or undefined when it is not one: an absolute http(s) URL
 * without user name, password, query or fragment, at the root of its host (every link of the
 * gallery is a path from the root, so it cannot live under a sub-path). A trailing slash is
 * dropped: `https://photos.example.com/` is stored as `https://photos.example.com`.
 */
export function normalisePublicUrl(value: string): string | undefined {
  const text = value.trim();
  if (text.length > MAX_LENGTH.publicUrl || hasControlCharacter(text) || text.includes('\\')) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password || url.search || url.hash || text.endsWith('?') || text.endsWith('#')) return undefined;
  if (url.pathname !== '/') return undefined;
  return url.origin;
}

/**
 * A tile server's URL template as stored, or undefined when it is not one: an absolute
 * https address (a page of the gallery served over https could not load http tiles) holding
 * `{z}`, `{x}` and `{y}`, optionally `{s}` (sub-domains) and `{r}` (retina), nothing else in
 * braces, and a host the map page's Content-Security-Policy can name.
 */
export function normaliseMapTiles(value: string): string | undefined {
  const text = value.trim();
  if (text.length > MAX_LENGTH.mapTiles || hasControlCharacter(text) || /[\\\s"'<>]/.test(text)) return undefined;
  if (!['{z}', '{x}', '{y}'].every((p) => text.includes(p)) || (text.match(/\{[^}]*\}/g) ?? []).some((p) => !/^\{[zxysr]\}$/.test(p))) return undefined;
  const m = /^https:\/\/((?:\{s\}\.)?[a-z0-9.-]+)(?::\d{1,5})?\//i.exec(text);
  return m && m[1] !== '{s}.' ? text : undefined;
}

/**
 * Why the public address will not work for family members, or undefined when it looks right:
 * unset, or a name only this computer answers to (localhost, 127.0.0.0/8, ::1, 0.0.0.0).
 */
export function publicUrlWarning(publicUrl: string): string | undefined {
  if (publicUrl === '') return 'The public address of the gallery is not set: share links point at this computer and will not open for anyone else.';
  const host = new URL(publicUrl).hostname.replace(/^\[|\]$/g, '');
  const local = host === 'localhost' || host.endsWith('.localhost') || /^127\./.test(host) || host === '::1' || host === '0.0.0.0';
  return local ? `${publicUrl} only works on this computer: share links built from it will not open for anyone else.` : undefined;
}

/** What is wrong with one field's value, or undefined when it is good. `null` removes the field (back to its default). */
function fieldProblem(key: string, value: unknown): string | undefined {
  if (!(SITE_FIELDS as readonly string[]).includes(key)) return `unknown field "${key}"`;
  if (value === null) return undefined;
  if (typeof value !== 'string') return `${key} must be a string`;
  switch (key as keyof SiteSettings) {
    case 'name':
      if (value.trim() === '') return 'name must be a non-empty string';
      if (value.length > MAX_LENGTH.name) return `name must be at most ${MAX_LENGTH.name} characters`;
      return hasControlCharacter(value) ? 'name must not contain control characters' : undefined;
    case 'subtitle':
      if (value.length > MAX_LENGTH.subtitle) return `subtitle must be at most ${MAX_LENGTH.subtitle} characters`;
      return hasControlCharacter(value) ? 'subtitle must not contain control characters' : undefined;
    case 'accent':
      return normaliseAccent(value) ? undefined : 'accent must be a hex colour such as "#e8b86b"';
    case 'publicUrl':
      if (value.trim() === '') return undefined;
      return normalisePublicUrl(value)
        ? undefined
        : 'publicUrl must be an absolute http(s) address without a path, query or fragment, such as "https://photos.example.com"';
    case 'language':
      return isLanguageCode(value) ? undefined : `language must be one of ${LANGUAGE_CODES.join(', ')}`;
    case 'mapPrecision':
      return isMapPrecision(value) ? undefined : `mapPrecision must be one of ${MAP_PRECISIONS.join(', ')}`;
    case 'mapTiles':
      if (value.trim() === '') return undefined;
      return normaliseMapTiles(value)
        ? undefined
        : 'mapTiles must be an https URL template with {z}, {x} and {y} (and optionally {s}, {r}), such as "https://tile.example.org/{z}/{x}/{y}.png"';
    case 'mapAttribution':
      if (value.length > MAX_LENGTH.mapAttribution) return `mapAttribution must be at most ${MAX_LENGTH.mapAttribution} characters`;
      return hasControlCharacter(value) ? 'mapAttribution must not contain control characters' : undefined;
  }
}

/** A field's value as stored: trimmed texts, normalised colour and address; undefined removes it. */
function storedValue(key: keyof SiteSettings, value: string | null): string | undefined {
  if (value === null) return undefined;
  if (key === 'accent') return normaliseAccent(value);
  if (key === 'publicUrl') return value.trim() === '' ? undefined : normalisePublicUrl(value);
  if (key === 'mapTiles') return value.trim() === '' ? undefined : normaliseMapTiles(value);
  return value.trim();
}

/**
 * Checks a change of the settings (the admin's PUT /api/site): every problem is listed, each
 * naming its field, as album checks do. Returns the stored values (undefined: remove the
 * key), or the problems when there is any.
 */
export function checkSitePatch(input: Record<string, unknown>): { patch: Partial<Record<keyof SiteSettings, string | undefined>>; problems: string[] } {
  const problems = Object.entries(input).flatMap(([key, value]) => fieldProblem(key, value) ?? []);
  if (Object.keys(input).length === 0) problems.push('the body names no field to change');
  const patch: Partial<Record<keyof SiteSettings, string | undefined>> = {};
  if (problems.length === 0) for (const key of SITE_FIELDS) if (key in input) patch[key] = storedValue(key, input[key] as string | null);
  return { patch, problems };
}

/** site.json as written: throws SiteFileError when it is not a JSON object; values are checked by siteSettingsOf. */
export function parseSiteFile(text: string): SiteFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new SiteFileError();
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new SiteFileError();
  return raw as SiteFile;
}

/**
 * The settings a file gives, each field checked as the admin checks it: a value edited by
 * hand into something the admin would refuse falls back to its default (and is reported),
 * so a typo never breaks a page or lets markup into one.
 */
export function siteSettingsOf(file: SiteFile): { settings: SiteSettings; ignored: string[] } {
  const settings: Record<keyof SiteSettings, string> = { ...DEFAULT_SITE_SETTINGS };
  const ignored: string[] = [];
  for (const key of SITE_FIELDS) {
    const value = file[key];
    if (value === undefined || value === null) continue;
    const problem = fieldProblem(key, value);
    if (problem) ignored.push(problem);
    else settings[key] = storedValue(key, value as string) ?? DEFAULT_SITE_SETTINGS[key];
  }
  // Every value passed fieldProblem, which holds mapPrecision to its names.
  return { settings: settings as SiteSettings, ignored };
}

/** Reads `CONTENT_DIR/site.json`: the defaults when it is missing or unreadable (logged). */
export async function loadSiteSettings(contentDir: string, log: Logger): Promise<SiteSettings> {
  const file = path.join(contentDir, SITE_FILE);
  try {
    const { settings, ignored } = siteSettingsOf(parseSiteFile(await fs.readFile(file, 'utf8')));
    if (ignored.length > 0) log.warn(`${file}: ignoring ${ignored.join('; ')}`);
    return settings;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') log.warn(`cannot read ${file}: ${(err as Error).message}`);
    return DEFAULT_SITE_SETTINGS;
  }
}
