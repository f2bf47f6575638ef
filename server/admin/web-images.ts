/**
 * Image types a browser shows as they are. Site assets (hero, cards, landing) are served
 * without thumbnails, and the public home page picks only these, so TIFF and GIF are refused.
 */
export const WEB_IMAGE = /\.(jpe?g|png|webp|avif)$/i;
export const WEB_IMAGE_TYPES = '.jpg, .jpeg, .png, .webp, .avif';
