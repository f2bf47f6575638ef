/**
 * What access depends on about whoever asks (docs/api.md#access): the album tokens they hold
 * (from the `album-access` cookie and the `X-Album-Token` header) and the `token` of the URL
 * (a share link). A plain value, so the rule can be used and tested without any HTTP server;
 * the public app builds it from a request in one place (server/public/access/visitor.ts).
 */
export interface Visitor {
  readonly held: readonly string[];
  readonly urlToken: string | undefined;
}

/** Holds nothing: it may open exactly what nothing protects. */
export const ANONYMOUS: Visitor = Object.freeze({ held: Object.freeze([]), urlToken: undefined });
