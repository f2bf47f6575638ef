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
}

/** Holds nothing: it may open exactly what nothing protects. */
export const ANONYMOUS: Visitor = Object.freeze({ held: Object.freeze([]), urlToken: undefined, links: Object.freeze([]) });
