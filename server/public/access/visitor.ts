import type { Request } from 'express';
import type { Visitor } from '../../core/access/visitor.js';
import { heldLinkIds, heldTokens, urlToken } from './tokens.js';

/**
 * A request's tokens, read when first asked for: a request for something nothing protects
 * never needs its cookie or query parsed (server/public/access/gallery-access.ts skips the
 * rule there). The request's cookie, header and query do not change while it is answered.
 */
class RequestVisitor implements Visitor {
  readonly #req: Request;
  #held: readonly string[] | undefined;
  #urlToken: { readonly value: string | undefined } | undefined;
  #links: readonly string[] | undefined;

  constructor(req: Request) {
    this.#req = req;
  }

  get held(): readonly string[] {
    this.#held ??= Object.freeze(heldTokens(this.#req));
    return this.#held;
  }

  get urlToken(): string | undefined {
    this.#urlToken ??= { value: urlToken(this.#req) };
    return this.#urlToken.value;
  }

  get links(): readonly string[] {
    this.#links ??= Object.freeze(heldLinkIds(this.#req));
    return this.#links;
  }
}

const visitors = new WeakMap<Request, Visitor>();

/**
 * The one place a request becomes a Visitor (server/core/access/visitor.ts): the tokens it
 * holds (the `album-access` cookie, then `X-Album-Token`), its share-link `token`, and the
 * share links per recipient it holds (the `album-links` cookie and a `/s/<id>` address).
 */
export function visitorOf(req: Request): Visitor {
  const known = visitors.get(req);
  if (known) return known;
  const visitor = new RequestVisitor(req);
  visitors.set(req, visitor);
  return visitor;
}
