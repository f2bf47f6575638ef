// The Site images tab: hero and card images (list, upload, delete) and the landing image.
import { api, uploadFile } from './api.js';
import { formatBytes, h, notify, replaceChildren } from './dom.js';
import { acceptOf } from './media-types.js';
import { locale, t } from '../strings.js';

const FOLDERS = [
  ['hero', 'assets.heroTitle', 'assets.heroHelp'],
  ['cards', 'assets.cardsTitle', 'assets.cardsHelp'],
];

/** A site image's preview: its thumbnail, never the original (routes/thumbnail-previews.ts on the server). */
const previewOf = (kind, f) => `/previews/site/${kind}/${encodeURIComponent(f.name)}?size=small&v=${encodeURIComponent(f.modified)}`;

/** The hero choice: which image the home page shows (GET/PUT /api/home/hero). */
function heroChoice(name, hero, render) {
  const input = h('input', { type: 'radio', name: 'hero-choice', value: name, checked: hero.shown === name });
  input.addEventListener('change', async () => {
    try {
      await api('PUT', '/api/home/hero', { image: name });
      notify(t('assets.nowHero', { name }));
    } catch (err) {
      notify(err.message, { error: true });
    }
    await render();
  });
  return h('label', { class: 'check hero-choice' }, input, t(hero.shown === name ? (hero.image ? 'assets.shown' : 'assets.shownFirst') : 'assets.show'));
}

function uploadButton(label, url, { multiple, accept, onDone }) {
  const input = h('input', { type: 'file', accept, multiple, 'aria-label': label });
  input.addEventListener('change', async () => {
    const files = [...input.files];
    input.value = '';
    let stored = 0;
    for (const file of files) {
      try {
        await uploadFile(url, file, () => {});
        stored++;
      } catch (err) {
        notify(`${file.name}: ${err.body?.results?.[0]?.error ?? err.message}`, { error: true });
      }
    }
    if (stored > 0) notify(t('assets.uploaded', { count: stored }));
    onDone();
  });
  return h('label', { class: 'row' }, label, input);
}

async function folderBlock(kind, title, help) {
  const block = h('div', { class: 'card-box asset-block' });
  const render = async () => {
    let files;
    let hero;
    try {
      [files, hero] = await Promise.all([api('GET', `/api/assets/${kind}`), kind === 'hero' ? api('GET', '/api/home/hero') : undefined]);
    } catch (err) {
      replaceChildren(block, h('p', { class: 'form-error', text: err.message }));
      return;
    }
    replaceChildren(
      block,
      h('h3', { text: t(title) }),
      h('p', { class: 'hint', text: t(help) }),
      uploadButton(t('assets.upload'), `/api/assets/${kind}`, { multiple: true, accept: acceptOf('web'), onDone: render }),
      files.length === 0
        ? h('p', { class: 'empty', text: t('assets.none') })
        : h(
            'div',
            { class: 'asset-grid' },
            files.map((f) =>
              h(
                'figure',
                {},
                h('img', { src: previewOf(kind, f), alt: f.name, loading: 'lazy' }),
                h(
                  'figcaption',
                  {},
                  h('span', { text: `${f.name} · ${formatBytes(f.size, locale())}` }),
                  h('button', { type: 'button', class: 'danger small', on: { click: () => remove(f.name) } }, t('common.delete')),
                ),
                hero ? heroChoice(f.name, hero, render) : null,
              ),
            ),
          ),
    );
  };
  const remove = async (name) => {
    if (!window.confirm(t('assets.confirmDelete', { name }))) return;
    try {
      await api('DELETE', `/api/assets/${kind}?name=${encodeURIComponent(name)}`);
      notify(t('assets.deleted', { name }));
    } catch (err) {
      notify(err.message, { error: true });
    }
    await render();
  };
  await render();
  return block;
}

async function landingBlock() {
  let current = [];
  try {
    current = await api('GET', '/api/assets/landing');
  } catch (err) {
    notify(err.message, { error: true });
  }
  const preview = current[0]
    ? h('img', { class: 'landing-preview', alt: t('assets.currentLanding'), src: previewOf('landing', current[0]).replace('size=small', 'size=medium') })
    : h('p', { class: 'empty', text: t('assets.noLanding') });
  return h(
    'div',
    { class: 'card-box asset-block' },
    h('h3', { text: t('assets.landing') }),
    h('p', { class: 'hint', text: t('assets.landingHelp') }),
    uploadButton(t('assets.replace'), '/api/assets/landing', { multiple: false, accept: acceptOf('image'), onDone: () => renderAssetManager() }),
    preview,
  );
}

export async function renderAssetManager() {
  const container = document.getElementById('asset-manager');
  const blocks = await Promise.all([...FOLDERS.map(([kind, title, help]) => folderBlock(kind, title, help)), landingBlock()]);
  replaceChildren(container, ...blocks);
}
