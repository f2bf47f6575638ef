import fs from 'node:fs';
import path from 'node:path';
import type { Request } from 'express';
import i18next, { type i18n } from 'i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language, languageOf } from '../core/languages.js';
import { ROOT_DIR } from '../core/root-dir.js';

/**
 * The gallery's words in every language (README "Languages"): one catalogue per language,
 * `locales/<code>.json`, read once by i18next, which picks plural forms by the language's own
 * rules (Intl.PluralRules) and writes `{{n, number}}` with Intl.NumberFormat. Both apps render
 * their pages through it; the browser's scripts get the strings they show (the catalogue's
 * `client` part) rendered into the page in its language, read by views/assets/strings.js,
 * rather than a library and every catalogue downloaded by each phone.
 */
export const LOCALES_DIR = path.join(ROOT_DIR, 'locales');

/** A translation of `key` with its values (`count` picks the plural form). */
export type Translate = (key: string, vars?: Record<string, unknown>) => string;

/** One language's words, as pages and their makers use them. */
export interface Translator {
  readonly language: Language;
  readonly t: Translate;
  /**
   * A sentence as HTML: its words escaped, and `markup` (already HTML: a `<time>`, say)
   * put where the sentence has `{{name}}`, wherever the language places it.
   */
  readonly html: (key: string, markup: Readonly<Record<string, string>>, vars?: Record<string, unknown>) => string;
  /**
   * `<script type="application/json" id="strings">`'s text: the strings the page's scripts show
   * (views/assets/strings.js), the groups of the catalogue's `client` part they use (`["tiles",
   * "viewer"]`), all without: a phone downloads the viewer's words with an album only.
   */
  readonly clientStrings: (groups?: readonly string[]) => string;
  /** The same for the admin's page: the catalogue's `admin` part, for its scripts (views/assets/admin/). */
  readonly adminStrings: string;
  /** One part of the catalogue, its keys flattened (`{"hello": "…"}`): the admin hands a link over in its recipient's language. */
  readonly part: (name: string) => Record<string, string>;
}

/** A catalogue as stored: nested objects of strings. */
export type Catalogue = { readonly [key: string]: string | Catalogue };

export function readCatalogue(code: string): Catalogue {
  return JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, `${code}.json`), 'utf8')) as Catalogue;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/** `{"a": {"b": "x"}}` as `{"a.b": "x"}`: the keys the browser looks up. */
export function flatten(catalogue: Catalogue, prefix = ''): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [key, value] of Object.entries(catalogue)) {
    if (typeof value === 'string') flat[prefix + key] = value;
    else Object.assign(flat, flatten(value, `${prefix}${key}.`));
  }
  return flat;
}

function createInstance(): i18n {
  const instance = i18next.createInstance();
  void instance.init({
    // The catalogues are in memory: ready when init returns, no backend, nothing awaited.
    initAsync: false,
    resources: Object.fromEntries(LANGUAGES.map((l) => [l.code, { translation: readCatalogue(l.code) }])),
    lng: DEFAULT_LANGUAGE,
    // A key one catalogue lacks shows in English rather than as a key (a test fails on it first).
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: LANGUAGES.map((l) => l.code),
    // EJS escapes what it writes with <%= %>; html() escapes its own.
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}

function createTranslator(instance: i18n, language: Language): Translator {
  const fixed = instance.getFixedT(language.code);
  const t: Translate = (key, vars) => fixed(key, vars ?? {});
  const bundle = instance.getResourceBundle(language.code, 'translation') as Catalogue | undefined;
  // `<` written as \u003c: the JSON sits in a <script> element, which a `</script>` would close.
  const json = (strings: Record<string, string>) => JSON.stringify({ locale: language.locale, strings }).replace(/</g, '\\u003c');
  const client = (bundle?.client as Catalogue | undefined) ?? {};
  const made = new Map<string, string>();
  const clientStrings = (groups: readonly string[] = Object.keys(client)) => {
    const id = groups.join();
    let text = made.get(id);
    if (text === undefined) {
      const strings: Record<string, string> = {};
      for (const group of groups) {
        const part = client[group];
        if (part !== undefined && typeof part !== 'string') Object.assign(strings, flatten(part, `${group}.`));
      }
      text = json(strings);
      made.set(id, text);
    }
    return text;
  };
  return {
    language,
    t,
    clientStrings,
    adminStrings: json(flatten((bundle?.admin as Catalogue | undefined) ?? {})),
    part: (name) => flatten((bundle?.[name] as Catalogue | undefined) ?? {}),
    html(key, markup, vars) {
      // Each markup value goes in as a marker escaping leaves alone (a private-use character), then takes its place.
      const markers = Object.fromEntries(Object.keys(markup).map((name) => [name, `\ue000${name}\ue000`]));
      return escapeHtml(t(key, { ...vars, ...markers })).replace(/\ue000(\w+)\ue000/g, (_, name: string) => markup[name] ?? '');
    },
  };
}

let translators: Map<string, Translator> | undefined;

/** The translator of `code` (the default language's for a code the gallery does not have). */
export function translatorFor(code: string): Translator {
  if (!translators) {
    const instance = createInstance();
    translators = new Map(LANGUAGES.map((l) => [l.code, createTranslator(instance, l)]));
  }
  return translators.get(languageOf(code).code)!;
}

/**
 * The languages the admin is written in: those whose catalogue has its `admin` part (English
 * and German). The owner's browser chooses among them (Accept-Language), English otherwise.
 */
export const ADMIN_LANGUAGES: readonly string[] = Object.freeze(LANGUAGES.map((l) => l.code).filter((code) => readCatalogue(code).admin !== undefined));

/** The cookie the language switcher sets: the visitor's own choice, first of all. */
export const LANGUAGE_COOKIE = 'lang';

/** The visitor's choice from the switcher, when it names a language of `offered`. */
export function chosenLanguage(req: Request, offered: readonly string[]): string | undefined {
  const raw: unknown = req.cookies?.[LANGUAGE_COOKIE];
  return typeof raw === 'string' && offered.includes(raw) ? raw : undefined;
}

/**
 * The best of `offered` for the browser's `Accept-Language` (`de-CH` takes `de`), or undefined
 * when it names none of them, or is not sent (Express would answer the first offered).
 */
export function acceptedLanguage(req: Request, offered: readonly string[]): string | undefined {
  if (!req.get('accept-language')) return undefined;
  const best = req.acceptsLanguages([...offered]);
  return typeof best === 'string' ? best : undefined;
}
