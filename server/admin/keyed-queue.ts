/**
 * Runs tasks one after another per key (a file or directory path), in arrival order.
 * Read-modify-write of one `album.json` happens inside one task, so two concurrent edits
 * never interleave: the second reads what the first wrote.
 */
export class KeyedQueue {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    // A failed task must not block the ones queued after it.
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.#tails.set(key, tail);
    void tail.then(() => {
      // Forget the key once nothing else has queued behind this task.
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /** Keys with work queued or running (for tests and diagnostics). */
  get size(): number {
    return this.#tails.size;
  }
}
