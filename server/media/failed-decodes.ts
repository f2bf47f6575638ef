import type { MediaTaskError } from './pool-errors.js';

/**
 * Photos that failed to decode, per version (the identity tag the thumbnail and full-size
 * caches give their tasks: size, mtime, inode and the owner's turn, server/core/media/source-tag.ts).
 * A file that failed once fails again the same way: a crafted HEIC refused for its size, one
 * nothing can read, one that ran a worker to its deadline. Without this, each request for it
 * (every size the page asks, every visitor, every reload) would queue the same work again;
 * with it a second request fails at once. A new version of the file (replaced, edited,
 * turned) is tried again; so is the same version after RETRY_AFTER_MS, in case what failed
 * was the machine (memory, a hung mount) rather than the file.
 */
export class FailedDecodes {
  readonly #failures = new Map<string, { readonly error: MediaTaskError; readonly at: number }>();

  constructor(
    private readonly maxEntries = 1024,
    private readonly retryAfterMs = RETRY_AFTER_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The failure remembered for this version of `src`, if it is recent. */
  get(src: string, tag: string | undefined): MediaTaskError | undefined {
    if (tag === undefined) return undefined;
    const key = keyOf(src, tag);
    const failure = this.#failures.get(key);
    if (failure === undefined) return undefined;
    if (this.now() - failure.at > this.retryAfterMs) {
      this.#failures.delete(key);
      return undefined;
    }
    return failure.error;
  }

  remember(src: string, tag: string | undefined, error: MediaTaskError): void {
    if (tag === undefined) return;
    const key = keyOf(src, tag);
    this.#failures.delete(key);
    this.#failures.set(key, { error, at: this.now() });
    if (this.#failures.size > this.maxEntries) this.#failures.delete(this.#failures.keys().next().value!);
  }
}

/** A quarter of an hour: a crafted file costs one decode attempt per quarter, whoever asks. */
export const RETRY_AFTER_MS = 15 * 60 * 1000;

const keyOf = (src: string, tag: string) => `${src}\0${tag}`;
