// The Site tab (name, landing subtitle, accent colour, public address, language, the map) and the banner that
// asks for the public address while it is missing or points at this computer.
import { h, notify, replaceChildren } from './dom.js';
import { saveSiteSettings, siteSettings } from './settings.js';
import { mapFieldset, mapPatch, showFieldProblems } from './site-map.js';
import { languages } from './share-dialog.js';
import { t } from '../strings.js';

const EXAMPLE_ADDRESS = 'https://photos.example.com';
/** Where earlier versions kept the address, in one browser only: offered once, then forgotten. */
const LEGACY_KEY = 'gallery-admin.public-base-url';

function legacyAddress() {
  try {
    return localStorage.getItem(LEGACY_KEY) ?? '';
  } catch {
    return '';
  }
}

/** Saves `patch`; a refusal is shown next to the fields it names when `form` has them, else in the corner. */
async function save(patch, message, form) {
  try {
    await saveSiteSettings(patch);
    if (form) showFieldProblems(form, '');
    notify(message);
    return true;
  } catch (err) {
    const placed = form ? showFieldProblems(form, err.message) : false;
    notify(placed ? t('site.invalid') : err.message, { error: true });
    return false;
  }
}

function addressInput(value) {
  return h('input', { name: 'publicUrl', type: 'url', value: value ?? '', placeholder: EXAMPLE_ADDRESS, spellcheck: 'false', autocomplete: 'url' });
}

/** Why share links will not open for others, in the owner's language (the server's publicUrlWarning says it in English). */
function warningOf(site) {
  return site.publicUrl ? t('site.local', { url: site.publicUrl }) : t('site.unset');
}

/** The banner over every tab while share links would not open for anyone else. */
export function renderAddressBanner() {
  const banner = document.getElementById('site-address-banner');
  const site = siteSettings();
  if (!site?.publicUrlWarning) {
    banner.hidden = true;
    replaceChildren(banner);
    return;
  }
  const form = h(
    'form',
    { class: 'row', 'aria-label': t('site.addressForm') },
    h('label', { class: 'grow' }, t('site.addressLabel'), addressInput(site.publicUrl ?? legacyAddress())),
    h('button', { type: 'submit', class: 'primary' }, t('site.saveAddress')),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (await save({ publicUrl: form.elements.publicUrl.value.trim() || null }, t('site.addressSaved'))) {
      localStorage.removeItem(LEGACY_KEY);
    }
  });
  replaceChildren(
    banner,
    h('h2', { text: t(site.publicUrl ? 'site.wontOpen' : 'site.where') }),
    h('p', { text: warningOf(site) }),
    h('p', { class: 'hint', text: t('site.enterAddress', { example: EXAMPLE_ADDRESS }) }),
    form,
  );
  banner.hidden = false;
}

/** The Site tab. */
export function renderSiteEditor() {
  const container = document.getElementById('site-editor');
  const site = siteSettings();
  if (!site) return;
  const form = h(
    'form',
    { class: 'stack card-box', 'aria-label': t('site.form') },
    h('label', {}, t('site.name'), h('input', { name: 'name', value: site.name, required: true, maxlength: 60 }), h('small', { text: t('site.nameHelp') })),
    h('label', {}, t('site.subtitle'), h('input', { name: 'subtitle', value: site.subtitle, maxlength: 200 }), h('small', { text: t('site.subtitleHelp') })),
    h('label', {}, t('site.accent'), h('input', { name: 'accent', type: 'color', value: site.accent }), h('small', { text: t('site.accentHelp') })),
    h(
      'label',
      {},
      t('site.address'),
      addressInput(site.publicUrl),
      site.publicUrlWarning ? h('small', { class: 'warn', text: warningOf(site) }) : h('small', { text: t('site.addressHelp') }),
    ),
    // The visitors' language when their browser names none of the gallery's (site.json `language`, README "Languages").
    h(
      'label',
      {},
      t('site.language'),
      h(
        'select',
        { name: 'language' },
        languages().map((l) => h('option', { value: l.code, lang: l.code, text: l.name, selected: l.code === site.language })),
      ),
      h('small', { text: t('site.languageHelp') }),
    ),
    mapFieldset(site),
    h('div', { class: 'row end' }, h('button', { type: 'submit', class: 'primary' }, t('site.save'))),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const value = (name) => form.elements[name].value;
    await save(
      {
        name: value('name'),
        subtitle: value('subtitle'),
        accent: value('accent'),
        publicUrl: value('publicUrl').trim() || null,
        // Written only once chosen: a site.json without it follows the default (English).
        ...(value('language') === site.language ? {} : { language: value('language') }),
        ...mapPatch(form, site),
      },
      t('site.saved'),
      form,
    );
  });
  replaceChildren(container, form);
}
