/**
 * Words to the entries that hold them, for one album: sorted unique words beside one array of
 * entry numbers (compressed rows: `starts[w]` to `starts[w + 1]`), so an album of 20,000 files
 * costs three objects and a few bytes per word, not an array per word. Words are looked up by
 * their start ("lisb" finds "lisbon"), with a binary search.
 */
/** TokenIndex.EMPTY, made on first use. */
let empty: TokenIndex | undefined;

export class TokenIndex {
  private constructor(
    /** The sorted words, one string ("\n" after each): an album's 20,000 words are one object, not 20,000. */
    private readonly text: string,
    /** Where word w starts in `text`; `wordStarts[count]` is its length. */
    private readonly wordStarts: Int32Array,
    private readonly starts: Int32Array,
    private readonly entries: Int32Array,
    /** Bits of the words' starts (startBits, STARTING numbers): a prefix whose two bits are not both set starts no word, found without a search. */
    readonly starting: readonly number[],
  ) {}

  /**
   * The index of no words. A getter, not a static field: tsc's output for this class (ES2022)
   * initialised such a field through an alias of the class assigned only after its body, and
   * the built server (dist/) failed to start on it.
   */
  static get EMPTY(): TokenIndex {
    empty ??= new TokenIndex('', new Int32Array(1), new Int32Array(1), new Int32Array(0), new Array<number>(8).fill(0));
    return empty;
  }

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
    const starting = new Array<number>(STARTING).fill(0);
    for (const [at, word] of words.entries()) {
      entries.set(byWord.get(word) as number[], starts[at] as number);
      for (let length = 1; length <= Math.min(word.length, START_LENGTH); length++) {
        for (const bit of startBits(word, length)) starting[bit >>> 5] = (starting[bit >>> 5] as number) | (1 << (bit & 31));
      }
    }
    // Joined in one go: a flat string, read by charCodeAt without a rope to walk.
    return new TokenIndex(words.map((word) => `${word}\n`).join(''), wordStarts, starts, entries, starting);
  }

  get #count(): number {
    return this.wordStarts.length - 1;
  }

  #startsWith(at: number, prefix: string): boolean {
    return this.text.startsWith(prefix, this.wordStarts[at] as number) && prefix.length < (this.wordStarts[at + 1] as number) - (this.wordStarts[at] as number);
  }

  /** The two bits of `starting` a word starting with `prefix` sets: places of its numbers and masks. */
  static startOf(prefix: string): StartBits {
    const [one, two] = startBits(prefix, Math.min(prefix.length, START_LENGTH)) as [number, number];
    return { at: one >>> 5, mask: 1 << (one & 31), at2: two >>> 5, mask2: 1 << (two & 31) };
  }

  /** False when no word starts with `prefix`; true when one may. */
  #mayStart(prefix: string): boolean {
    if (prefix.length === 0) return true;
    const bits = TokenIndex.startOf(prefix);
    return ((this.starting[bits.at] as number) & bits.mask) !== 0 && ((this.starting[bits.at2] as number) & bits.mask2) !== 0;
  }

  /** The words every one of `count` entries holds. */
  everywhere(count: number): string[] {
    const words: string[] = [];
    for (let at = 0; at < this.#count; at++) {
      if ((this.starts[at + 1] as number) - (this.starts[at] as number) === count) {
        const from = this.wordStarts[at] as number;
        words.push(this.text.slice(from, (this.wordStarts[at + 1] as number) - 1));
      }
    }
    return words;
  }

  /** Whether some word starts with `prefix`. */
  has(prefix: string): boolean {
    if (!this.#mayStart(prefix)) return false;
    const at = this.#first(prefix);
    return at < this.#count && this.#startsWith(at, prefix);
  }

  /** Calls `visit` with each entry holding a word that starts with `prefix` (an entry may come more than once). */
  forEach(prefix: string, visit: (entry: number) => void): void {
    if (!this.#mayStart(prefix)) return;
    for (let at = this.#first(prefix); at < this.#count && this.#startsWith(at, prefix); at++) {
      const end = this.starts[at + 1] as number;
      for (let i = this.starts[at] as number; i < end; i++) visit(this.entries[i] as number);
    }
  }

  /**
   * What `prefix` finds, without visiting entries: none; every entry (one word holds them
   * all); the entries of its only word (ascending); or several words' (`entries` undefined:
   * they may overlap, forEach marks them).
   */
  find(prefix: string, count: number): { readonly all: boolean; readonly entries?: Int32Array } | undefined {
    if (!this.#mayStart(prefix)) return undefined;
    const from = this.#first(prefix);
    let to = from;
    while (to < this.#count && this.#startsWith(to, prefix)) {
      if ((this.starts[to + 1] as number) - (this.starts[to] as number) === count) return { all: true };
      to++;
    }
    if (to === from) return undefined;
    if (to > from + 1) return { all: false };
    return { all: false, entries: this.entries.subarray(this.starts[from] as number, this.starts[from + 1] as number) };
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

/** Starts of words up to this long are kept as bits (TokenIndex.starting). */
const START_LENGTH = 4;

/** Numbers of 32 bits in TokenIndex.starting. */
export const STARTING = 8;

/** Where in TokenIndex.starting the start of a word has its two bits. */
export interface StartBits {
  readonly at: number;
  readonly mask: number;
  readonly at2: number;
  readonly mask2: number;
}

/** Two of the STARTING × 32 bits for the first `length` characters of `text` (FNV-1a, mixed: its low bits alone spread poorly). */
function startBits(text: string, length: number): [number, number] {
  let hash = 0x811c9dc5;
  for (let i = 0; i < length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 0x2c1b3c6d);
  hash ^= hash >>> 12;
  const bits = STARTING * 32;
  return [(hash >>> 0) % bits, (((hash >>> 16) ^ Math.imul(hash, 0x9e3779b1)) >>> 0) % bits];
}
