// Which files the gallery takes, as the server's media catalogue (server/core/media-catalogue.ts)
// lists them on <body data-media-extensions>: the page never keeps a list of its own.

const EXTENSIONS = JSON.parse(document.body.dataset.mediaExtensions || '{"image":[],"video":[],"web":[]}');

const extensionOf = (name) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
};

/** 'image', 'video' or undefined, from the file name as the server judges it. */
export function mediaKindOf(name) {
  const ext = extensionOf(name);
  if (EXTENSIONS.image.includes(ext)) return 'image';
  if (EXTENSIONS.video.includes(ext)) return 'video';
  return undefined;
}

/** '.jpg .jpeg …' of one group ('image', 'video' or 'web'), for hints. */
export const extensionList = (group) => EXTENSIONS[group].join(' ');

/** The `accept` attribute of a file input taking the given groups. */
export const acceptOf = (...groups) => groups.flatMap((g) => EXTENSIONS[g]).join(',');
