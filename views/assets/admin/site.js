// The Site tab (name, landing subtitle, accent colour, public address) and the banner that
// asks for the public address while it is missing or points at this computer.
import { h, notify, replaceChildren } from './dom.js';
import { saveSiteSettings, siteSettings } from './settings.js';

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

async function save(patch, message) {
  try {
    await saveSiteSettings(patch);
    notify(message);
    return true;
  } catch (err) {
    notify(err.message, { error: true });
    return false;
  }
}

function addressInput(value) {
  return h('input', { name: 'publicUrl', type: 'url', value: value ?? '', placeholder: EXAMPLE_ADDRESS, spellcheck: 'false', autocomplete: 'url' });
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
    { class: 'row', 'aria-label': 'Public site address' },
    h('label', { class: 'grow' }, 'Public address of the gallery', addressInput(site.publicUrl ?? legacyAddress())),
    h('button', { type: 'submit', class: 'primary' }, 'Save address'),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (await save({ publicUrl: form.elements.publicUrl.value.trim() || null }, 'Public address saved: share links use it now')) {
      localStorage.removeItem(LEGACY_KEY);
    }
  });
  replaceChildren(
    banner,
    h('h2', { text: site.publicUrl ? 'Share links will not open for your family' : 'Where will your family open the gallery?' }),
    h('p', { text: site.publicUrlWarning }),
    h('p', {
      class: 'hint',
      text: `Enter the address people type to reach the public gallery, such as ${EXAMPLE_ADDRESS} or http://192.168.1.20:3000 at home.`,
    }),
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
    { class: 'stack card-box', 'aria-label': 'Site settings' },
    h(
      'label',
      {},
      'Site name',
      h('input', { name: 'name', value: site.name, required: true, maxlength: 60 }),
      h('small', { text: 'Shown in the header of every page, in browser tabs and on phone home screens.' }),
    ),
    h(
      'label',
      {},
      'Landing subtitle',
      h('input', { name: 'subtitle', value: site.subtitle, maxlength: 200 }),
      h('small', { text: 'The line under the title of the landing page.' }),
    ),
    h(
      'label',
      {},
      'Accent colour',
      h('input', { name: 'accent', type: 'color', value: site.accent }),
      h('small', { text: 'Buttons, links and the site icon.' }),
    ),
    h(
      'label',
      {},
      'Public address',
      addressInput(site.publicUrl),
      site.publicUrlWarning
        ? h('small', { class: 'warn', text: site.publicUrlWarning })
        : h('small', { text: 'Share links and link previews are built from it.' }),
    ),
    h('div', { class: 'row end' }, h('button', { type: 'submit', class: 'primary' }, 'Save site settings')),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const value = (name) => form.elements[name].value;
    await save(
      { name: value('name'), subtitle: value('subtitle'), accent: value('accent'), publicUrl: value('publicUrl').trim() || null },
      'Site settings saved',
    );
  });
  replaceChildren(container, form);
}
