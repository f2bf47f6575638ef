// The Site images tab: hero and card images (list, upload, delete) and the landing image.
import { api, uploadFile } from './api.js';
import { formatBytes, h, notify, replaceChildren } from './dom.js';
import { acceptOf } from './media-types.js';
import { countOf } from './text.js';

const FOLDERS = [
  ['hero', 'Hero images', 'The large image across the home page: choose which one it shows (the first by name until you do).'],
  ['cards', 'Card images', 'Images of the home page cards; pick one in a card’s “Image” field (Home page tab).'],
];

/** A site image's preview: its thumbnail, never the original (routes/thumbnail-previews.ts on the server). */
const previewOf = (kind, f) => `/previews/site/${kind}/${encodeURIComponent(f.name)}?size=small&v=${encodeURIComponent(f.modified)}`;

/** The hero choice: which image the home page shows (GET/PUT /api/home/hero). */
function heroChoice(name, hero, render) {
  const input = h('input', { type: 'radio', name: 'hero-choice', value: name, checked: hero.shown === name });
  input.addEventListener('change', async () => {
    try {
      await api('PUT', '/api/home/hero', { image: name });
      notify(`${name} is now the home page’s hero image`);
    } catch (err) {
      notify(err.message, { error: true });
    }
    await render();
  });
  return h(
    'label',
    { class: 'check hero-choice' },
    input,
    hero.shown === name ? (hero.image ? 'Shown on the home page' : 'Shown (first by name)') : 'Show on the home page',
  );
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
    if (stored > 0) notify(`${countOf(stored, 'image')} uploaded`);
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
      h('h3', { text: title }),
      h('p', { class: 'hint', text: help }),
      uploadButton('Upload:', `/api/assets/${kind}`, { multiple: true, accept: acceptOf('web'), onDone: render }),
      files.length === 0
        ? h('p', { class: 'empty', text: 'No images yet.' })
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
                  h('span', { text: `${f.name} · ${formatBytes(f.size)}` }),
                  h('button', { type: 'button', class: 'danger small', on: { click: () => remove(f.name) } }, 'Delete'),
                ),
                hero ? heroChoice(f.name, hero, render) : null,
              ),
            ),
          ),
    );
  };
  const remove = async (name) => {
    if (!window.confirm(`Delete ${name}? It is moved to CONTENT_DIR/.trash/.`)) return;
    try {
      await api('DELETE', `/api/assets/${kind}?name=${encodeURIComponent(name)}`);
      notify(`${name} deleted`);
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
    ? h('img', { class: 'landing-preview', alt: 'Current landing image', src: previewOf('landing', current[0]).replace('size=small', 'size=medium') })
    : h('p', { class: 'empty', text: 'No landing image yet.' });
  return h(
    'div',
    { class: 'card-box asset-block' },
    h('h3', { text: 'Landing image' }),
    h('p', {
      class: 'hint',
      text: 'The image of the first page. It is stored as landing.jpg (converted to JPEG, upright, without EXIF or GPS, at most 3840 px).',
    }),
    uploadButton('Replace:', '/api/assets/landing', { multiple: false, accept: acceptOf('image'), onDone: () => renderAssetManager() }),
    preview,
  );
}

export async function renderAssetManager() {
  const container = document.getElementById('asset-manager');
  const blocks = await Promise.all([...FOLDERS.map(([kind, title, help]) => folderBlock(kind, title, help)), landingBlock()]);
  replaceChildren(container, ...blocks);
}
