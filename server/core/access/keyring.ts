import type { Album, TreeNode } from '../albums/album-tree.js';
import type { ShareLink } from '../albums/share-links.js';
import { isRandomToken, secretsOf } from './secret-directory.js';
import type { Visitor } from './visitor.js';

/**
 * What a visitor's secrets open in one snapshot of the tree, found once per visitor (each
 * secret hashed and looked up once: server/core/access/secret-directory.ts), so the rule asks
 * about each album on a chain in one step. A cookie of 64 tokens and 32 links costs 96 lookups
 * per request, not 96 comparisons per album.
 */
export interface Keyring {
  /** Albums whose token the visitor holds and may use now. */
  readonly tokens: ReadonlySet<Album>;
  /** Albums allowing anonymous access whose token is the visitor's URL token. */
  readonly urlToken: ReadonlySet<Album>;
  /** Share links the visitor holds, by the album listing them (expired ones too: the rule knows the time). */
  readonly links: ReadonlyMap<Album, ReadonlySet<ShareLink>>;
}

const keyrings = new WeakMap<Visitor, { readonly root: TreeNode; readonly keyring: Keyring }>();

/** The keyring of `visitor` in the tree of `root`, made once per visitor and snapshot. */
export function keyringOf(visitor: Visitor, root: TreeNode): Keyring {
  const known = keyrings.get(visitor);
  if (known?.root === root) return known.keyring;
  const { keyring, unopened } = build(visitor, root);
  keyrings.set(visitor, { root, keyring });
  if (unopened.held.length > 0 || unopened.urlToken !== undefined) visitor.presentedInVain?.(unopened);
  return keyring;
}

function build(visitor: Visitor, root: TreeNode) {
  const secrets = secretsOf(root);
  // Asked once, and only when a hand-written token is met: the answer may come from the lockout.
  let handWritten: boolean | undefined;
  const mayUse = (token: string) => {
    if (isRandomToken(token)) return true;
    handWritten ??= visitor.handWrittenTokensOpen ?? true;
    return handWritten;
  };

  const tokens = new Set<Album>();
  const unopenedHeld: string[] = [];
  for (const token of visitor.held) {
    const albums = secrets.albumsWithToken(token);
    if (albums.length === 0) unopenedHeld.push(token);
    else if (mayUse(token)) for (const album of albums) tokens.add(album);
  }

  const urlToken = new Set<Album>();
  let unopenedUrl: string | undefined;
  if (visitor.urlToken !== undefined) {
    const albums = secrets.albumsWithToken(visitor.urlToken).filter((album) => album.meta.allowAnonymous);
    if (albums.length === 0) unopenedUrl = visitor.urlToken;
    else if (mayUse(visitor.urlToken)) for (const album of albums) urlToken.add(album);
  }

  // Link ids are 128 random bits or more: never guesses worth counting, and always looked up.
  const links = new Map<Album, Set<ShareLink>>();
  for (const id of visitor.links ?? []) {
    for (const { album, link } of secrets.linksWithId(id)) {
      const held = links.get(album);
      if (held) held.add(link);
      else links.set(album, new Set([link]));
    }
  }
  return { keyring: { tokens, urlToken, links } satisfies Keyring, unopened: { held: unopenedHeld, urlToken: unopenedUrl } };
}
