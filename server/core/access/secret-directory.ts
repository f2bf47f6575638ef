import crypto from 'node:crypto';
import { type Album, isAlbum, type TreeNode } from '../albums/album-tree.js';
import { isLive, type ShareLink } from '../albums/share-links.js';

export interface FoundShareLink {
  readonly album: Album;
  readonly link: ShareLink;
}

/**
 * What the secrets of one snapshot of the album tree open (docs/api.md#access): album tokens
 * and share link ids, each looked up by the SHA-256 of the secret. A visitor's secret is
 * hashed once and found in one step, however many albums and links the tree holds, instead
 * of being compared with each of them; and what a lookup's time could tell is about the hash,
 * which says nothing of the secret behind it.
 */
export interface SecretDirectory {
  /** Albums whose token is `token`: several when an album folder was copied with its album.json. */
  albumsWithToken(token: string): readonly Album[];
  /** Share links whose id is `id`, in tree order (working or not). */
  linksWithId(id: string): readonly FoundShareLink[];
}

const NONE: readonly never[] = Object.freeze([]);

/** The key of a secret in the directory. */
function keyOf(secret: string): string {
  return crypto.createHash('sha256').update(secret, 'utf8').digest('base64');
}

function build(root: TreeNode): SecretDirectory {
  const tokens = new Map<string, Album[]>();
  const links = new Map<string, FoundShareLink[]>();
  const add = <T>(map: Map<string, T[]>, key: string, value: T) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  const walk = (node: TreeNode) => {
    if (isAlbum(node)) {
      add(tokens, keyOf(node.meta.token), node);
      for (const link of node.meta.shareLinks) add(links, keyOf(link.id), { album: node, link });
    }
    node.children.forEach(walk);
  };
  walk(root);
  return {
    albumsWithToken: (token) => tokens.get(keyOf(token)) ?? NONE,
    linksWithId: (id) => links.get(keyOf(id)) ?? NONE,
  };
}

// Keyed by the snapshot: a rescan publishes a new root, so a token rotated or a link added,
// revoked or changed is looked up in a directory of the new tree from the next request on.
const directories = new WeakMap<TreeNode, SecretDirectory>();

/** The directory of the tree whose root is `root`, built once per snapshot. */
export function secretsOf(root: TreeNode): SecretDirectory {
  let directory = directories.get(root);
  if (!directory) {
    directory = build(root);
    directories.set(root, directory);
  }
  return directory;
}

/** The root of the snapshot `node` belongs to. */
export function rootOf(node: TreeNode): TreeNode {
  let n = node;
  while (n.parent) n = n.parent;
  return n;
}

/**
 * The share link `id` opens at `now`, for its `/s/<id>` address: the first working one in tree
 * order. An id listed by several albums (a folder copied with its album.json) opens each of
 * them through the access rule; its address shows the first.
 */
export function liveLink(root: TreeNode, id: string, now = Date.now()): FoundShareLink | undefined {
  return secretsOf(root)
    .linksWithId(id)
    .find((found) => isLive(found.link, now));
}

/** The shape of `crypto.randomUUID()`: version 4, variant 10xx. */
const RANDOM_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/**
 * Whether a token is one the gallery made (a random UUID: 122 random bits, as the index and
 * the admin write them), as opposed to one written by hand into album.json, which may be as
 * guessable as a password. The first always opens, like a share link; the second only where a
 * password would be checked (docs/api.md#password-endpoints).
 */
export function isRandomToken(token: string): boolean {
  return RANDOM_UUID.test(token);
}
