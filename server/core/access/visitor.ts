/**
 * What access depends on about whoever asks (docs/api.md#access): the album tokens they hold
 * (from the `album-access` cookie and the `X-Album-Token` header), the `token` of the URL
 * (the CONTRACT's share link) and the share links per recipient they hold (the `album-links`
 * cookie and the id of a `/s/<id>` address). A plain value, so the rule can be used and tested
 * without any HTTP server; the public app builds it from a request in one place
 * (server/public/access/visitor.ts).
 */
export interface Visitor {
  readonly held: readonly string[];
  readonly urlToken: string | undefined;
  /** Ids of share links per recipient (docs/api.md#share-links); absent reads as none. */
  readonly links?: readonly string[];
  /**
   * Whether tokens written by hand (not random UUIDs: server/core/access/secret-directory.ts,
   * isRandomToken) may open albums for this visitor now. The public app says no while the
   * visitor's address is locked out, or while the lockout cannot be consulted: such a token
   * is as guessable as a password. Read only when such a token is met; absent reads as yes.
   */
  readonly handWrittenTokensOpen?: boolean;
  /**
   * Told, once per snapshot of the tree, which of the tokens the visitor presented open no
   * album at all: guesses, or tokens of a cookie older than a rotation (server/public/access/visitor.ts
   * counts them and drops them from the cookie).
   */
  readonly presentedInVain?: (unopened: UnopenedTokens) => void;
}

/** What a visitor presented that opens nothing anywhere in the tree. */
export interface UnopenedTokens {
  /** Held tokens (cookie, header) that are no album's token. */
  readonly held: readonly string[];
  /** The URL token, when it is the token of no album that allows anonymous access. */
  readonly urlToken: string | undefined;
}

/** Holds nothing: it may open exactly what nothing protects. */
export const ANONYMOUS: Visitor = Object.freeze({ held: Object.freeze([]), urlToken: undefined, links: Object.freeze([]) });
