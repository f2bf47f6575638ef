import type { MediaKind } from '../media-catalogue.js';
import type { AlbumMeta } from './album-record.js';
import { folderNameTitle } from './folder-record.js';

/** One media file directly in an album directory. */
export interface MediaItem {
  readonly name: string;
  readonly kind: MediaKind;
  /**
   * A Live Photo's motion: the `.mov` beside this still that was paired with it
   * (server/core/albums/live-photos.ts). It is a file of the album, served and guarded like
   * any other, but never listed, counted or paged on its own: this still stands for both.
   */
  readonly motion?: MediaItem;
}

/**
 * A directory of the tree: either an album (it has a valid `album.json`) or a plain folder
 * such as a year or a category. Nodes are immutable snapshots: a rescan builds new ones.
 */
export interface TreeNode {
  /** '/'-separated path relative to ALBUMS_DIR; '' for the root. */
  readonly path: string;
  /** Directory name ('' for the root). */
  readonly name: string;
  /** Set for albums, undefined for plain folders and the root. */
  readonly meta: (AlbumMeta & { readonly token: string }) | undefined;
  /** A plain folder's title from its `folder.json` (server/core/albums/folder-record.ts), when it has a valid one. */
  readonly folderTitle?: string | undefined;
  readonly parent: TreeNode | undefined;
  /** Sub-directories that are albums or lead to albums, in display order. */
  readonly children: readonly TreeNode[];
  /** Media files of an album, in natural order (empty for folders); a Live Photo's motion file only as its still's `motion`. */
  readonly media: readonly MediaItem[];
}

export type Album = TreeNode & { readonly meta: AlbumMeta & { readonly token: string } };

export const isAlbum = (node: TreeNode | undefined): node is Album => node?.meta !== undefined;

/** Title shown for a node: the album title, or the folder's title (its folder.json's, else its name with a capital). */
export const titleOf = (node: TreeNode): string => node.meta?.title ?? node.folderTitle ?? folderNameTitle(node.name);

/** The albums on the path of `node`, nearest first, starting with `node` itself when it is an album. */
export function albumChain(node: TreeNode): Album[] {
  const chain: Album[] = [];
  for (let n: TreeNode | undefined = node; n; n = n.parent) if (isAlbum(n)) chain.push(n);
  return chain;
}

/** Ancestor albums of `node` (not itself), nearest first. */
export const ancestorsOf = (node: TreeNode): Album[] => albumChain(node).filter((a) => a !== node);

/** An album with a password locks itself and every album below it (docs/api.md#access). */
export const hasPassword = (meta: Pick<AlbumMeta, 'password'>): boolean => meta.password !== undefined;

/** True when the node or an ancestor album has a password ("protected" in docs/api.md#access). */
export const isProtected = (node: TreeNode): boolean => albumChain(node).some((a) => hasPassword(a.meta));

/**
 * True when files of `node` are served without their location (docs/api.md#location-privacy):
 * the nearest album on its path whose album.json sets `hideLocation` decides, so a child
 * inherits its parent's choice unless it says otherwise; nothing set anywhere means off.
 */
export const hidesLocation = (node: TreeNode): boolean => albumChain(node).find((a) => a.meta.hideLocation !== undefined)?.meta.hideLocation ?? false;

/** Every album below `node`, depth first, in display order. */
export function descendantsOf(node: TreeNode): Album[] {
  const out: Album[] = [];
  const walk = (n: TreeNode) => {
    for (const c of n.children) {
      if (isAlbum(c)) out.push(c);
      walk(c);
    }
  };
  walk(node);
  return out;
}

export interface Crumb {
  readonly path: string;
  readonly title: string;
  readonly isAlbum: boolean;
}

/** Breadcrumb data from the root down to `node` (the root itself not included). */
export function breadcrumbsOf(node: TreeNode): Crumb[] {
  const crumbs: Crumb[] = [];
  for (let n: TreeNode | undefined = node; n?.parent; n = n.parent) {
    crumbs.unshift({ path: n.path, title: titleOf(n), isAlbum: isAlbum(n) });
  }
  return crumbs;
}

/** True when nothing between `from` (exclusive) and `to` (inclusive) has a password of its own. */
function opensWith(from: TreeNode, to: TreeNode): boolean {
  for (let n: TreeNode | undefined = to; n && n !== from; n = n.parent) {
    if (n.meta?.password !== undefined) return false;
  }
  return true;
}

export interface Cover {
  /** Node that holds the cover file (the album or one of its descendants). */
  readonly node: TreeNode;
  readonly item: MediaItem;
}

/**
 * The cover of an album or folder: the `thumbnail` named in album.json (a file of the album
 * or `child/file.jpg` of a descendant), else its first photo, else the first cover found
 * below it. A cover never comes from a descendant behind a password of its own, so showing
 * a cover reveals nothing more than the node itself does.
 */
export function coverOf(node: TreeNode, findNode: (path: string) => TreeNode | undefined): Cover | undefined {
  const named = node.meta?.thumbnail;
  if (named) {
    const slash = named.lastIndexOf('/');
    const dirPart = slash < 0 ? '' : named.slice(0, slash);
    const holder = dirPart === '' ? node : findNode(`${node.path}/${dirPart}`);
    const item = holder?.media.find((m) => m.name === named.slice(slash + 1));
    if (holder && item && opensWith(node, holder)) return { node: holder, item };
  }
  const firstImage = node.media.find((m) => m.kind === 'image') ?? node.media[0];
  if (firstImage) return { node, item: firstImage };
  for (const child of node.children) {
    if (child.meta?.password !== undefined || child.meta?.hidden) continue;
    const c = coverOf(child, findNode);
    if (c) return c;
  }
  return undefined;
}

const mediaCounts = new WeakMap<readonly MediaItem[], { photos: number; videos: number }>();

/**
 * Counts of the media of a node (used for cards). Kept per media list, which a rescan
 * replaces: the card of a 20,000-photo album is on pages asked for far more often than that.
 */
export function countMedia(node: TreeNode): { photos: number; videos: number } {
  let counts = mediaCounts.get(node.media);
  if (!counts) {
    let photos = 0;
    let videos = 0;
    for (const m of node.media) m.kind === 'image' ? photos++ : videos++;
    counts = { photos, videos };
    mediaCounts.set(node.media, counts);
  }
  return { ...counts };
}
