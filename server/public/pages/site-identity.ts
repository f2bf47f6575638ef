import crypto from 'node:crypto';
import type { HomeContentStore } from '../../core/home-content.js';
import type { SiteSettings } from '../../core/site-settings.js';

/**
 * What the public pages show of the site's settings (CONTENT_DIR/site.json, docs/api.md#sitejson):
 * the name, the favicon and app icons drawn from its first letter on the accent colour, the
 * stylesheet that carries the accent (the pages' CSP allows no inline style), and the web
 * app manifest. Their URLs carry a hash of what they are made from, so they are cached for a
 * year and still change with the settings.
 */

/** The page background of each theme (views/assets/site.css), for `theme-color` and the manifest. */
export const THEME_COLOURS = Object.freeze({ dark: '#0e0f11', light: '#f7f5f0' });

/** PNG sizes of the app icon: iOS's home screen (180), the manifest's two (192, 512). */
export const ICON_SIZES = [180, 192, 512] as const;
export type IconSize = (typeof ICON_SIZES)[number];

export interface SiteView extends SiteSettings {
  /** The first letter of the name, upper case: the icon's glyph. */
  readonly initial: string;
  /** Dark or white, whichever reads better on the accent. */
  readonly accentInk: string;
  readonly themeColours: typeof THEME_COLOURS;
  /** Versioned URLs of the identity's assets. */
  readonly assets: {
    readonly favicon: string;
    readonly themeCss: string;
    readonly manifest: string;
    readonly appleTouchIcon: string;
    readonly icon: (size: IconSize) => string;
  };
}

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The first user-perceived character of the name (a flag or an accented letter stays whole), upper case. */
export function initialOf(name: string): string {
  const first = new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(name.trim())[Symbol.iterator]().next();
  return first.done ? '' : first.value.segment.toLocaleUpperCase();
}

/** sRGB relative luminance (WCAG 2) of `#rrggbb`. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

const DARK_INK = '#17130a';
const LIGHT_INK = '#ffffff';

/** The ink with the higher contrast on `accent`. */
export function inkOn(accent: string): string {
  const l = luminance(accent);
  const onDark = (l + 0.05) / (luminance(DARK_INK) + 0.05);
  const onWhite = 1.05 / (l + 0.05);
  return onDark >= onWhite ? DARK_INK : LIGHT_INK;
}

/**
 * The site icon: the initial on the accent colour. `rounded` for the favicon; the app icons
 * are full squares (a phone cuts its own shape, and a maskable icon must reach the edges),
 * the letter well inside the central safe zone.
 */
export function siteIconSvg(site: Pick<SiteSettings, 'name' | 'accent'>, opts: { rounded: boolean }): string {
  const radius = opts.rounded ? 14 : 0;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">` +
    `<rect width="64" height="64" rx="${radius}" fill="${site.accent}"/>` +
    `<text x="32" y="32" dy="0.35em" text-anchor="middle" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif" font-size="36" font-weight="700" fill="${inkOn(site.accent)}">${escapeXml(initialOf(site.name))}</text>` +
    `</svg>`
  );
}

/** The accent as CSS custom properties, read by views/assets/site.css. */
export const themeCss = (site: Pick<SiteSettings, 'accent'>): string => `:root { --accent: ${site.accent}; --accent-ink: ${inkOn(site.accent)}; }\n`;

/** Up to 12 characters (what launchers show under an icon), cut at a word where it can be. */
export function shortNameOf(name: string): string {
  if (name.length <= 12) return name;
  const cut = name.slice(0, 13).lastIndexOf(' ');
  return (cut > 3 ? name.slice(0, cut) : name.slice(0, 12)).trim();
}

/**
 * The web app manifest: installable on a phone's home screen, opening on the albums (the
 * landing page is a welcome; someone who installed the gallery came for the photos).
 */
export function manifestOf(site: SiteView): Record<string, unknown> {
  return {
    name: site.name,
    short_name: shortNameOf(site.name),
    description: site.subtitle,
    start_url: '/photos',
    scope: '/',
    display: 'standalone',
    background_color: THEME_COLOURS.dark,
    theme_color: THEME_COLOURS.dark,
    icons: [
      { src: site.assets.favicon, sizes: 'any', type: 'image/svg+xml' },
      { src: site.assets.icon(192), sizes: '192x192', type: 'image/png' },
      { src: site.assets.icon(512), sizes: '512x512', type: 'image/png' },
      { src: site.assets.icon(512), sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
}

/** The version tag of the identity's assets: what they are drawn from. */
export const identityTag = (site: Pick<SiteSettings, 'name' | 'accent' | 'subtitle'>): string =>
  crypto
    .createHash('sha1')
    .update(JSON.stringify([site.name, site.accent, site.subtitle]))
    .digest('hex')
    .slice(0, 10);

/** The site's view for the pages, made again only when the content store reloads. */
export class SiteIdentity {
  #view: { version: number; view: SiteView } | undefined;

  constructor(private readonly content: Pick<HomeContentStore, 'site' | 'version'>) {}

  /** Changes whenever the settings may have (pages made with the view are keyed by it). */
  get version(): number {
    return this.content.version;
  }

  get view(): SiteView {
    const version = this.content.version;
    if (this.#view?.version !== version) this.#view = { version, view: siteViewOf(this.content.site) };
    return this.#view.view;
  }
}

export function siteViewOf(site: SiteSettings): SiteView {
  const v = identityTag(site);
  return {
    ...site,
    initial: initialOf(site.name),
    accentInk: inkOn(site.accent),
    themeColours: THEME_COLOURS,
    assets: {
      favicon: `/favicon.svg?v=${v}`,
      themeCss: `/site-theme.css?v=${v}`,
      manifest: `/manifest.webmanifest?v=${v}`,
      appleTouchIcon: `/icons/icon-180.png?v=${v}`,
      icon: (size) => `/icons/icon-${size}.png?v=${v}`,
    },
  };
}
