// The words of the page's scripts, in the page's language: the server renders its catalogue's
// `client` strings into the page (<script type="application/json" id="strings">,
// server/http/i18n.ts) rather than each phone downloading an i18n library and every
// catalogue. Lookups follow the catalogue's i18next format: `{{name}}` and
// `{{name, number}}` (Intl.NumberFormat), and the plural form of `count` by the language's
// own rules (Intl.PluralRules: `key_one`, `key_few`, … `key_other`). A test holds this to
// what i18next answers for every key of every catalogue.

/** @typedef {{ locale?: string, strings: Record<string, string> }} PageStrings */
/** @typedef {(key: string, vars?: Record<string, unknown>) => string} Translate */

/**
 * @param {PageStrings} data
 * @returns {Translate}
 */
export function translatorOf(data) {
  const strings = data.strings ?? {};
  const plurals = new Intl.PluralRules(data.locale);
  const numbers = new Intl.NumberFormat(data.locale);
  return (key, vars = {}) => {
    let text;
    if (typeof vars.count === 'number') text = strings[`${key}_${plurals.select(vars.count)}`] ?? strings[`${key}_other`];
    text ??= strings[key] ?? key;
    return text.replace(/\{\{\s*(\w+)\s*(,\s*number\s*)?\}\}/g, (_, name, number) => {
      const value = vars[name];
      if (value === undefined || value === null) return '';
      return number && typeof value === 'number' ? numbers.format(value) : String(value);
    });
  };
}

/** @type {PageStrings | undefined} */
let page;
/** @type {Translate | undefined} */
let translate;

/** The page's strings, read once. */
function pageStrings() {
  if (!page) {
    try {
      page = JSON.parse(document.getElementById('strings')?.textContent ?? '');
    } catch {
      page = { strings: {} };
    }
  }
  return page;
}

/** @type {Translate} */
export function t(key, vars) {
  translate ??= translatorOf(pageStrings());
  return translate(key, vars);
}

/** The page's locale for Intl (dates, numbers): its language's, not the browser's. */
export function locale() {
  return pageStrings().locale ?? document.documentElement.lang;
}
