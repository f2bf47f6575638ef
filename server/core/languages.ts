/**
 * The languages the gallery is written in (README "Languages"): each has its catalogue,
 * `locales/<code>.json`, which a test holds to this list. `locale` is what Intl formats its
 * dates and numbers with (English as written in Britain, as the pages always were).
 */
export interface Language {
  /** The code of `<html lang>`, the `lang` cookie, site.json and a share link's `language`. */
  readonly code: string;
  /** Its own name for itself, as the switcher lists it ("Deutsch"). */
  readonly name: string;
  readonly dir: 'ltr' | 'rtl';
  /** The BCP 47 tag Intl formats dates and numbers with. */
  readonly locale: string;
}

export const LANGUAGES: readonly Language[] = Object.freeze([
  { code: 'en', name: 'English', dir: 'ltr', locale: 'en-GB' },
  { code: 'de', name: 'Deutsch', dir: 'ltr', locale: 'de' },
  { code: 'fr', name: 'Français', dir: 'ltr', locale: 'fr' },
  { code: 'es', name: 'Español', dir: 'ltr', locale: 'es' },
  { code: 'it', name: 'Italiano', dir: 'ltr', locale: 'it' },
  { code: 'pt', name: 'Português', dir: 'ltr', locale: 'pt' },
  { code: 'nl', name: 'Nederlands', dir: 'ltr', locale: 'nl' },
  { code: 'pl', name: 'Polski', dir: 'ltr', locale: 'pl' },
  { code: 'sv', name: 'Svenska', dir: 'ltr', locale: 'sv' },
  { code: 'tr', name: 'Türkçe', dir: 'ltr', locale: 'tr' },
  { code: 'ar', name: 'العربية', dir: 'rtl', locale: 'ar' },
] as const satisfies readonly Language[]);

/** The language of a site whose site.json names none. */
export const DEFAULT_LANGUAGE = 'en';

export const LANGUAGE_CODES: readonly string[] = Object.freeze(LANGUAGES.map((l) => l.code));

/** Whether `v` is the code of a language the gallery is written in. */
export const isLanguageCode = (v: unknown): v is string => typeof v === 'string' && LANGUAGE_CODES.includes(v);

/** The language of `code`, or the default one for a code the gallery does not have. */
export function languageOf(code: string): Language {
  return LANGUAGES.find((l) => l.code === code) ?? LANGUAGES[0]!;
}
