import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { LANGUAGES } from '../../server/core/languages.js';
import { ROOT_DIR, VIEWS_DIR } from '../../server/core/root-dir.js';
import { type Catalogue, flatten, LOCALES_DIR, readCatalogue, translatorFor } from '../../server/http/i18n.js';
import { stringLiterals } from '../support/string-literals.js';

/**
 * The catalogues (locales/<code>.json, README "Languages") against each other and against what
 * the pages show: a string a template or a browser script shows without a catalogue entry, a
 * key one catalogue lacks, a plural form a language needs, a `{{value}}` misspelt in one
 * language, all fail here.
 */

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const flat = (code: string) => flatten(readCatalogue(code));
const english = flat('en');
/** Keys without their plural suffix: what a page asks for. */
const baseKeys = (keys: Record<string, string>) => new Set(Object.keys(keys).map((k) => k.replace(PLURAL_SUFFIX, '')));
/** The admin's words are in the languages the admin is offered in (server/http/i18n.ts ADMIN_LANGUAGES), the rest in all. */
const isAdminKey = (key: string) => key.startsWith('admin.');
const hasAdmin = (code: string) => Object.keys(flat(code)).some(isAdminKey);
const variablesOf = (text: string) => [...text.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort();

function filesUnder(dir: string, ext: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith(ext))
    .map((f) => path.join(dir, f));
}

/** What an EJS template shows as it is written, outside its tags: text, and the attributes people read. */
function literalTextOf(template: string): string[] {
  const bare = template
    .replace(/<%[\s\S]*?%>/g, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/g, ' ');
  const attributes = [...bare.matchAll(/\s(title|alt|aria-label|placeholder|label)="([^"]*)"/g)].map((m) => m[2]!);
  const text = bare.replace(/<[^>]*>/g, ' ').split(/\s+/);
  return [...attributes, ...text].filter((t) => /\p{L}/u.test(t));
}

/** Technical strings of the scripts that read like words: key names, header names, error names, codec names. */
const NOT_WORDS = new Set([
  'Tab',
  'Escape',
  'Shift',
  'Control',
  'Alt',
  'Meta',
  'CapsLock',
  'AltGraph',
  'Enter',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Home',
  'End',
  'Accept',
  'Content-Type',
  'Retry-After',
  'AbortError',
  'IntersectionObserver',
  'NotAllowedError',
  'NotSupportedError',
  'H.264',
  'HEVC (H.265)',
  'VP8',
  'VP9',
  'AV1',
  'MPEG-4',
]);

/** The class names of the stylesheets: "row end" in a script is two classes, not two words. */
const CSS_CLASSES = new Set(
  ['site.css', 'admin/admin.css'].flatMap((css) =>
    [...fs.readFileSync(path.join(VIEWS_DIR, 'assets', css), 'utf8').matchAll(/\.([a-zA-Z][\w-]*)/g)].map((m) => m[1]!),
  ),
);

/** A string literal of a script that reads as words shown to people: it starts with a capital and a word, or holds two words. */
function readsAsWords(text: string): boolean {
  if (NOT_WORDS.has(text) || /^[.#[(]/.test(text) || /[<>=]/.test(text)) return false;
  if (/^\s*\p{Lu}\p{Ll}+/u.test(text)) return true;
  // Two words with a space between, unless they are class names (or class names in the making, `media__item--live`).
  const tokens = text.trim().split(/\s+/);
  const classList = tokens.every((t) => CSS_CLASSES.has(t) || (/^[a-z][\w-]*$/.test(t) && /[-_]/.test(t)));
  return tokens.length > 1 && tokens.some((t) => /^\p{L}{2,}[.,:;!?…]?$/u.test(t)) && !classList;
}

describe('catalogues (locales/)', () => {
  it('should have one catalogue per language of the gallery, and none other', () => {
    const files = fs.readdirSync(LOCALES_DIR).filter((f) => f.endsWith('.json'));
    expect(files.map((f) => f.replace(/\.json$/, '')).sort()).to.deep.equal(LANGUAGES.map((l) => l.code).sort());
    expect(LANGUAGES.length).to.be.at.least(11);
    expect(LANGUAGES.filter((l) => l.dir === 'rtl').map((l) => l.code)).to.include('ar');
  });

  for (const { code, locale } of LANGUAGES) {
    describe(code, () => {
      const keys = flat(code);

      it('should have every key the English catalogue has, and no other', () => {
        const wanted = [...baseKeys(english)].filter((k) => hasAdmin(code) || !isAdminKey(k));
        const have = baseKeys(keys);
        expect(
          wanted.filter((k) => !have.has(k)),
          'missing',
        ).to.deep.equal([]);
        expect(
          [...have].filter((k) => !baseKeys(english).has(k)),
          'unknown',
        ).to.deep.equal([]);
      });

      it("should have every plural form the language's rules ask for", () => {
        const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
        const plurals = new Set(
          Object.keys(english)
            .filter((k) => PLURAL_SUFFIX.test(k))
            .map((k) => k.replace(PLURAL_SUFFIX, '')),
        );
        const missing = [...plurals]
          .filter((k) => hasAdmin(code) || !isAdminKey(k))
          .flatMap((k) => categories.filter((c) => !(`${k}_${c}` in keys)).map((c) => `${k}_${c}`));
        expect(missing).to.deep.equal([]);
      });

      it('should use the values each sentence is given, spelt as in English', () => {
        const wrong = Object.entries(keys).flatMap(([key, text]) => {
          const base = key.replace(PLURAL_SUFFIX, '');
          const source = english[key] ?? english[`${base}_other`];
          if (source === undefined) return [];
          // A plural form may leave the count out ("Last attempt", "صورتان"); any other value must be there.
          const own = variablesOf(text);
          const theirs = variablesOf(source).filter((v) => !(v === 'count' && PLURAL_SUFFIX.test(key) && !own.includes('count')));
          return own.join() === theirs.join() ? [] : [`${key}: ${own.join()} (English: ${variablesOf(source).join()})`];
        });
        expect(wrong).to.deep.equal([]);
      });
    });
  }

  describe('what the pages show', () => {
    const templates = filesUnder(VIEWS_DIR, '.ejs');
    const scripts = filesUnder(path.join(VIEWS_DIR, 'assets'), '.js');
    const serverFiles = filesUnder(path.join(ROOT_DIR, 'server'), '.ts');

    it('should write no word in a template outside the catalogue', () => {
      const found = templates.flatMap((file) => literalTextOf(fs.readFileSync(file, 'utf8')).map((t) => `${path.relative(VIEWS_DIR, file)}: ${t}`));
      expect(found).to.deep.equal([]);
    });

    it('should show no word from a browser script outside the catalogue', () => {
      const found = scripts.flatMap((file) =>
        stringLiterals(fs.readFileSync(file, 'utf8'))
          .filter((l) => readsAsWords(l.text))
          .map((l) => `${path.relative(VIEWS_DIR, file)}:${l.line}: ${JSON.stringify(l.text)}`),
      );
      expect(found).to.deep.equal([]);
    });

    it('should ask the catalogue only for keys it has', () => {
      const known = baseKeys(english);
      const asked = (file: string, prefix: string) =>
        [...fs.readFileSync(file, 'utf8').matchAll(/\b(?:t|tHtml|html)\(\s*'([\w.]+)'/g)].map((m) => ({ file, key: `${prefix}${m[1]}` }));
      const uses = [
        ...templates.flatMap((f) => asked(f, '')),
        ...serverFiles.flatMap((f) => asked(f, '')),
        // The browser's keys are the catalogue's `client` part (views/assets/strings.js), the admin's its `admin` part.
        ...scripts.filter((f) => !f.includes(`${path.sep}admin${path.sep}`)).flatMap((f) => asked(f, 'client.')),
        ...scripts.filter((f) => f.includes(`${path.sep}admin${path.sep}`)).flatMap((f) => asked(f, 'admin.')),
      ];
      expect(uses.length).to.be.above(100);
      const unknown = uses
        .filter((u) => !known.has(u.key) && !known.has(u.key.replace(/^client\./, '')))
        .map((u) => `${path.relative(ROOT_DIR, u.file)}: ${u.key}`);
      expect(unknown).to.deep.equal([]);
    });

    it('should find a word a template writes outside the catalogue (the check itself)', () => {
      expect(literalTextOf('<p><%= t("a") %> Download</p><button title="Close">×</button>')).to.deep.equal(['Close', 'Download']);
      expect(readsAsWords('Show more')).to.equal(true);
      expect(readsAsWords('button button--ghost button--small')).to.equal(false);
      // A template literal in the scanned source (its `$` kept apart here, so this file holds none).
      const source = "// 'Not this'\nel.textContent = `Showing $" + '{a} of $' + "{b}`; const r = /it's/;";
      expect(stringLiterals(source).map((l) => l.text)).to.deep.equal(['Showing ', ' of ', '']);
    });
  });

  describe("the browser's lookup (views/assets/strings.js)", () => {
    it('should answer as i18next does, for every string of every catalogue the scripts get', async () => {
      const modulePath: string = pathToFileURL(path.join(VIEWS_DIR, 'assets', 'strings.js')).href;
      type Translate = (key: string, vars?: Record<string, unknown>) => string;
      const { translatorOf } = (await import(modulePath)) as { translatorOf: (data: unknown) => Translate };
      for (const { code } of LANGUAGES) {
        const server = translatorFor(code);
        const browser = translatorOf(JSON.parse(server.clientStrings()));
        const client = flatten((readCatalogue(code).client as Catalogue | undefined) ?? {});
        for (const key of baseKeys(client)) {
          for (const count of [0, 1, 2, 3, 5, 11, 22, 101, 1_000_000]) {
            const vars = { count, seconds: count, minutes: count, first: count, last: count + 1, total: 12_345, name: 'x' };
            expect(browser(key, vars), `${code} ${key} ${count}`).to.equal(server.t(`client.${key}`, vars));
          }
        }
      }
    });
  });
});
