import type { Request, RequestHandler, Response } from 'express';
import type { UnopenedTokens, Visitor } from '../../core/access/visitor.js';
import type { PasswordLimiter } from './password-limiter.js';
import { dropTokens, heldLinkIds, heldTokens, urlToken } from './tokens.js';

/** What a request's visitor needs of the password lockout: tokens are guesses too. */
export type GuessGuard = Pick<PasswordLimiter, 'admitsGuesses' | 'countGuess'>;

/** How the visitors of one app answer for what they present (visitorMiddleware). */
interface Answering {
  readonly res: Response;
  readonly guard: GuessGuard;
  readonly production: boolean;
}

/** What visitorWith adds: more held tokens, and another URL token in place of the query's. */
interface Extra {
  readonly held: readonly string[];
  readonly urlToken: string | undefined;
}

/** Per request, shared by its visitor and the ones made from it (visitorWith): a request counts at most one failed guess. */
interface RequestState {
  handled: boolean;
}

/**
 * A request's tokens, read when first asked for: a request for something nothing protects
 * never needs its cookie or query parsed (the rule does not look at them there). The
 * request's cookie, header and query do not change while it is answered.
 */
class RequestVisitor implements Visitor {
  readonly #req: Request;
  readonly #answering: Answering | undefined;
  readonly #state: RequestState;
  readonly #extra: Extra | undefined;
  #held: readonly string[] | undefined;
  #urlToken: { readonly value: string | undefined } | undefined;
  #links: readonly string[] | undefined;

  constructor(req: Request, answering: Answering | undefined, state: RequestState, extra?: Extra) {
    this.#req = req;
    this.#answering = answering;
    this.#state = state;
    this.#extra = extra;
  }

  /** The same request's visitor holding `extra` too, answering for it with this one. */
  withExtra(extra: Extra): RequestVisitor {
    return new RequestVisitor(this.#req, this.#answering, this.#state, extra);
  }

  get held(): readonly string[] {
    this.#held ??= Object.freeze(this.#extra ? [...heldTokens(this.#req), ...this.#extra.held] : heldTokens(this.#req));
    return this.#held;
  }

  get urlToken(): string | undefined {
    this.#urlToken ??= { value: this.#extra ? this.#extra.urlToken : urlToken(this.#req) };
    return this.#urlToken.value;
  }

  get links(): readonly string[] {
    this.#links ??= Object.freeze(heldLinkIds(this.#req));
    return this.#links;
  }

  /** A token written by hand opens only where a password would be checked: not while the address is locked out. */
  get handWrittenTokensOpen(): boolean {
    return this.#answering ? this.#answering.guard.admitsGuesses(this.#req) : true;
  }

  /**
   * Tokens that open nothing are failed guesses, counted once per request however many it
   * carried (a cookie from before a rotation must not lock a household out), and taken out
   * of the cookie in this answer so they are not presented again. A request the password
   * limiter counts already (a password attempt) is not counted twice.
   */
  readonly presentedInVain = (unopened: UnopenedTokens): void => {
    const answering = this.#answering;
    if (!answering || this.#state.handled) return;
    this.#state.handled = true;
    if (answering.res.locals.attempt === undefined) void answering.guard.countGuess(this.#req);
    dropTokens(this.#req, answering.res, answering.production, unopened.held);
  };
}

const visitors = new WeakMap<Request, RequestVisitor>();

/**
 * Makes each request's visitor answer for what it presents (`guard`: the password lockout):
 * mounted before every route that decides access. A request that did not pass it (a router
 * tested alone) gets a visitor that counts nothing.
 */
export function visitorMiddleware(guard: GuessGuard, production: boolean): RequestHandler {
  return (req, res, next) => {
    visitors.set(req, new RequestVisitor(req, { res, guard, production }, { handled: false }));
    next();
  };
}

/**
 * The one place a request becomes a Visitor (server/core/access/visitor.ts): the tokens it
 * holds (the `album-access` cookie, then `X-Album-Token`), its share-link `token`, and the
 * share links per recipient it holds (the `album-links` cookie and a `/s/<id>` address).
 */
export function visitorOf(req: Request): Visitor {
  return requestVisitor(req);
}

function requestVisitor(req: Request): RequestVisitor {
  let visitor = visitors.get(req);
  if (!visitor) {
    visitor = new RequestVisitor(req, undefined, { handled: false });
    visitors.set(req, visitor);
  }
  return visitor;
}

/**
 * The request's visitor holding more: the `unlockedTokens` and `providedToken` of
 * check-access, which are guesses like the cookie's (counted with them, once per request).
 */
export function visitorWith(req: Request, extra: Extra): Visitor {
  return requestVisitor(req).withExtra(extra);
}
