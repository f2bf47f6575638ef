import path from 'node:path';

/** The only files the gallery ever serves (docs/api.md#the-album-tree). Keys are lower-case extensions. */
const IMAGE_TYPES: Readonly<Record<string, string>> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
};

const VIDEO_TYPES: Readonly<Record<string, string>> = {
  '.mp4': 'video/mp4',
  '.m4v': 'video/mp4',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
};

export type MediaKind = 'image' | 'video';

export function mediaKind(fileName: string): MediaKind | undefined {
  const ext = path.extname(fileName).toLowerCase();
  if (ext in IMAGE_TYPES) return 'image';
  if (ext in VIDEO_TYPES) return 'video';
  return undefined;
}

export function contentTypeOf(fileName: string): string | undefined {
  const ext = path.extname(fileName).toLowerCase();
  return IMAGE_TYPES[ext] ?? VIDEO_TYPES[ext];
}

export const isImage = (fileName: string) => mediaKind(fileName) === 'image';
export const isVideo = (fileName: string) => mediaKind(fileName) === 'video';
