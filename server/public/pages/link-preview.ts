import type { SiteView } from './site-identity.js';
import type { Translate } from '../../http/i18n.js';

/**
 * What a messenger shows for a link to a page (Open Graph and Twitter card tags,
 * views/partials/preview.ejs; docs/api.md#link-previews). Absolute URLs are built from the
 * site's public address; while it is unset, a preview has no URL and no image (a relative
 * one would not be fetched).
 */
export interface LinkPreview {
  readonly siteName: string;
  readonly title: string;
  readonly description: string;
  readonly url: string | undefined;
  readonly image: string | undefined;
  /** The image is a photo, worth a large card (else it is the site's icon). */
  readonly large: boolean;
}

const MAX_DESCRIPTION = 200;

/** Whole words up to 200 characters: messengers cut longer ones wherever they like. */
function shortened(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= MAX_DESCRIPTION) return flat;
  const cut = flat.slice(0, MAX_DESCRIPTION - 1).replace(/\s+\S*$/, '');
  return `${cut}…`;
}

const absolute = (site: SiteView, sitePath: string | undefined) => (site.publicUrl && sitePath ? `${site.publicUrl}${sitePath}` : undefined);

/** A public page: its own title, description and picture. */
export function publicPreview(site: SiteView, page: { title: string; description: string; path: string; image?: string | undefined }): LinkPreview {
  return {
    siteName: site.name,
    title: page.title || site.name,
    description: shortened(page.description || site.subtitle),
    url: absolute(site, page.path),
    image: absolute(site, page.image ?? site.assets.icon(512)),
    large: page.image !== undefined && site.publicUrl !== '',
  };
}

/**
 * A protected album (or a folder inside one), whoever asks, even with a share link that opens
 * it: the link is pasted where others see the preview, so it says nothing of the album, neither
 * its title nor its cover, only which site it belongs to.
 */
export function privatePreview(site: SiteView, t: Translate): LinkPreview {
  return {
    siteName: site.name,
    title: site.name,
    description: t('site.privatePreview'),
    url: undefined,
    image: absolute(site, site.assets.icon(512)),
    large: false,
  };
}
