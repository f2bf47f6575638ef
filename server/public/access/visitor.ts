import type { Request } from 'express';
import type { Visitor } from '../../core/access/visitor.js';
import { heldTokens, urlToken } from './tokens.js';

/**
 * A request's tokens, read when first asked for: a request for something nothing protects
 * never needs its cookie or query parsed (server/public/access/gallery-access.ts skips the
 * rule there). The request's cookie, header and query do not change while it is answered.
 */
class RequestVisitor implements Visitor {
  readonly #req: Request;
  #held: readonly string[] | undefined;
  #urlToken: { readonly value: string | undefined } | undefined;

  constructor(req: Request) {
    this.#req = req;
  }

  get held(): readonly string[] {
    return (this.#held ??= Object.freeze(heldTokens(this.#req)));
  }

  get urlToken(): string | undefined {
    return (this.#urlToken ??= { value: urlToken(this.#req) }).value;
  }
}

const visitors = new WeakMap<Request, Visitor>();

/**
 * The one place a request becomes a Visitor (server/core/access/visitor.ts): the tokens it
 * holds (the `album-access` cookie, then `X-Album-Token`) and its share-link `token`.
 */
export function visitorOf(req: Request): Visitor {
  let visitor = visitors.get(req);
  if (!visitor) visitors.set(req, (visitor = new RequestVisitor(req)));
  return visitor;
}
