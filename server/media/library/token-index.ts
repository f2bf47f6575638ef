/**
 * Words to the entries that hold them, for one album: sorted unique words beside one array of
 * entry numbers (compressed rows: `starts[w]` to `starts[w + 1]`), so an album of 20,000 files
 * costs three objects and a few bytes per word, not an array per word. Words are looked up by
 * their start ("lisb" finds "lisbon"), with a binary search.
 */
export class TokenIndex {
  private constructor(
    /** The sorted words, one string ("\n" after each): an album's 20,000 words are one object, not 20,000. */
    private readonly text: string,
    /** Where word w starts in `text`; `wordStarts[count]` is its length. */
    private readonly wordStarts: Int32Array,
    private readonly starts: Int32Array,
    private readonly entries: Int32Array,
  ) {}

  static readonly EMPTY = new TokenIndex('', new Int32Array(1), new Int32Array(1), new Int32Array(0));

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
    const wordStarts = new Int32Array(words.length + 1);
    const starts = new Int32Array(words.length + 1);
    let chars = 0;
    let total = 0;
    for (const [at, word] of words.entries()) {
      wordStarts[at] = chars;
      chars += word.length + 1;
      starts[at] = total;
      total += (byWord.get(word) as number[]).length;
    }
    wordStarts[words.length] = chars;
    starts[words.length] = total;
    const entries = new Int32Array(total);
    for (const [at, word] of words.entries()) entries.set(byWord.get(word) as number[], starts[at] as number);
    return new TokenIndex(`${words.join('\n')}\n`, wordStarts, starts, entries);
  }

  get #count(): number {
    return this.wordStarts.length - 1;
  }

  #startsWith(at: number, prefix: string): boolean {
    return this.text.startsWith(prefix, this.wordStarts[at] as number) && prefix.length < (this.wordStarts[at + 1] as number) - (this.wordStarts[at] as number);
  }

  /** Whether some word starts with `prefix`. */
  has(prefix: string): boolean {
    const at = this.#first(prefix);
    return at < this.#count && this.#startsWith(at, prefix);
  }

  /** Calls `visit` with each entry holding a word that starts with `prefix` (an entry may come more than once). */
  forEach(prefix: string, visit: (entry: number) => void): void {
    for (let at = this.#first(prefix); at < this.#count && this.#startsWith(at, prefix); at++) {
      const end = this.starts[at + 1] as number;
      for (let i = this.starts[at] as number; i < end; i++) visit(this.entries[i] as number);
    }
  }

  /** The first word not before `prefix`, compared in place (no string is made). */
  #first(prefix: string): number {
    let lo = 0;
    let hi = this.#count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#before(mid, prefix)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Whether word `at` sorts before `prefix` (as strings compare: by UTF-16 code units). */
  #before(at: number, prefix: string): boolean {
    const from = this.wordStarts[at] as number;
    const length = (this.wordStarts[at + 1] as number) - from - 1;
    const n = Math.min(length, prefix.length);
    for (let i = 0; i < n; i++) {
      const a = this.text.charCodeAt(from + i);
      const b = prefix.charCodeAt(i);
      if (a !== b) return a < b;
    }
    return length < prefix.length;
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
