/** At most `limit` holders at once; the others wait in arrival order. Closed: everyone gets in at once. */
export class Semaphore {
  #free: number;
  #closed = false;
  readonly #waiting: (() => void)[] = [];

  constructor(limit: number) {
    this.#free = limit;
  }

  /** Lets every waiter in now, and whoever comes later (they find the cache closed and give up). */
  close(): void {
    this.#closed = true;
    for (const wake of this.#waiting.splice(0)) wake();
  }

  async acquire(): Promise<() => void> {
    if (this.#closed) return () => undefined;
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    };
  }
}
