/**
 * Words to the entries that hold them, for one album: sorted unique words beside one array of
 * entry numbers (compressed rows: `starts[w]` to `starts[w + 1]`), so an album of 20,000 files
 * costs three objects and a few bytes per word, not an array per word. Words are looked up by
 * their start ("lisb" finds "lisbon"), with a binary search.
 */
export class TokenIndex {
  private constructor(
    private readonly words: readonly string[],
    private readonly starts: Int32Array,
    private readonly entries: Int32Array,
  ) {}

  static readonly EMPTY = new TokenIndex([], new Int32Array(1), new Int32Array(0));

  /** An index of `count` entries, the words of each given by `wordsOf` (repeats allowed). */
  static build(count: number, wordsOf: (entry: number) => readonly string[]): TokenIndex {
    const byWord = new Map<string, number[]>();
    for (let entry = 0; entry < count; entry++) {
      for (const word of wordsOf(entry)) {
        const list = byWord.get(word);
        if (!list) byWord.set(word, [entry]);
        else if (list[list.length - 1] !== entry) list.push(entry);
      }
    }
    if (byWord.size === 0) return TokenIndex.EMPTY;
    const words = [...byWord.keys()].sort();
    const starts = new Int32Array(words.length + 1);
    let total = 0;
    words.forEach((word, at) => {
      starts[at] = total;
      total += (byWord.get(word) as number[]).length;
    });
    starts[words.length] = total;
    const entries = new Int32Array(total);
    words.forEach((word, at) => {
      entries.set(byWord.get(word) as number[], starts[at] as number);
    });
    return new TokenIndex(words, starts, entries);
  }

  /** Whether some word starts with `prefix`. */
  has(prefix: string): boolean {
    const at = this.#first(prefix);
    return at < this.words.length && (this.words[at] as string).startsWith(prefix);
  }

  /** Calls `visit` with each entry holding a word that starts with `prefix` (an entry may come more than once). */
  forEach(prefix: string, visit: (entry: number) => void): void {
    for (let at = this.#first(prefix); at < this.words.length && (this.words[at] as string).startsWith(prefix); at++) {
      const end = this.starts[at + 1] as number;
      for (let i = this.starts[at] as number; i < end; i++) visit(this.entries[i] as number);
    }
  }

  #first(prefix: string): number {
    let lo = 0;
    let hi = this.words.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.words[mid] as string) < prefix) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Sorted unique words, for the few words of an album's title: whether one starts with `prefix`. */
export function hasPrefixed(sorted: readonly string[], prefix: string): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as string) < prefix) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && (sorted[lo] as string).startsWith(prefix);
}
