/**
 * The string literals of a JavaScript source (quoted strings and the text parts of template
 * literals), comments left out: what the catalogue test looks through for words shown to a
 * visitor that do not come from a catalogue. A small scanner, enough for the project's own
 * browser scripts (formatted by Biome): strings, templates with `${}` nested, comments and
 * regular expression literals.
 */
export interface Literal {
  readonly text: string;
  readonly line: number;
}

const REGEX_AFTER = new Set(['(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^']);

export function stringLiterals(source: string): Literal[] {
  const found: Literal[] = [];
  let i = 0;
  let line = 1;
  /** Depth of `${` inside templates: a `}` at the top closes the expression, back into the template. */
  const templates: number[] = [];
  let lastSignificant = '';
  let lastWord = '';
  const take = (quote: string): string => {
    let text = '';
    i++;
    while (i < source.length && source[i] !== quote) {
      if (source[i] === '\\') {
        text += source[i + 1] ?? '';
        i += 2;
        continue;
      }
      if (source[i] === '\n') line++;
      text += source[i];
      i++;
    }
    i++;
    return text;
  };
  const template = (): void => {
    // At a text part of a template: up to its end or a `${`.
    const start = line;
    let text = '';
    while (i < source.length) {
      const c = source[i]!;
      if (c === '\\') {
        text += source[i + 1] ?? '';
        i += 2;
        continue;
      }
      if (c === '`') {
        i++;
        templates.pop();
        break;
      }
      if (c === '$' && source[i + 1] === '{') {
        i += 2;
        templates[templates.length - 1] = 1;
        break;
      }
      if (c === '\n') line++;
      text += c;
      i++;
    }
    found.push({ text, line: start });
  };
  while (i < source.length) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '/' && next === '/') {
      while (i < source.length && source[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      for (const ch of source.slice(i, end)) if (ch === '\n') line++;
      i = end + 2;
      continue;
    }
    if (c === '/' && (lastSignificant === '' || REGEX_AFTER.has(lastSignificant) || ['return', 'typeof', 'of', 'in'].includes(lastWord))) {
      // A regular expression literal: skipped, classes and escapes included.
      i++;
      let inClass = false;
      while (i < source.length && (inClass || source[i] !== '/')) {
        if (source[i] === '\\') i++;
        else if (source[i] === '[') inClass = true;
        else if (source[i] === ']') inClass = false;
        i++;
      }
      i++;
      while (/[a-z]/.test(source[i] ?? '')) i++;
      lastSignificant = ')';
      lastWord = '';
      continue;
    }
    if (c === "'" || c === '"') {
      const start = line;
      found.push({ text: take(c), line: start });
      lastSignificant = ')';
      lastWord = '';
      continue;
    }
    if (c === '`') {
      i++;
      templates.push(0);
      template();
      lastSignificant = ')';
      lastWord = '';
      continue;
    }
    if (templates.length > 0 && c === '{') templates[templates.length - 1]!++;
    if (templates.length > 0 && c === '}') {
      const depth = templates[templates.length - 1]!;
      if (depth === 1) {
        i++;
        templates[templates.length - 1] = 0;
        template();
        lastSignificant = ')';
        continue;
      }
      templates[templates.length - 1] = depth - 1;
    }
    if (/[\w$]/.test(c)) {
      let word = '';
      while (i < source.length && /[\w$]/.test(source[i]!)) word += source[i++];
      lastWord = word;
      lastSignificant = 'a';
      continue;
    }
    lastSignificant = c;
    lastWord = '';
    i++;
  }
  return found;
}
