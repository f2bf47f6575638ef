// The Site images tab: hero and card images (list, upload, delete) and the landing image.
import { api, uploadFile } from './api.js';
import { formatBytes, h, notify, replaceChildren } from './dom.js';
import { acceptOf } from './media-types.js';

const FOLDERS = [
  ['hero', 'Hero images', 'Large images of the home page.'],
  ['cards', 'Card images', 'Images of the home page cards; use the file name in a card’s “Image” field.'],
];

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
    if (stored > 0) notify(`${stored} image${stored > 1 ? 's' : ''} uploaded`);
    onDone();
  });
  return h('label', { class: 'row' }, label, input);
}

async function folderBlock(kind, title, help) {
  const block = h('div', { class: 'card-box asset-block' });
  const render = async () => {
    let files;
    try {
      files = await api('GET', `/api/assets/${kind}`);
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
                h('img', { src: `${f.url}?v=${encodeURIComponent(f.modified)}`, alt: f.name, loading: 'lazy' }),
                h(
                  'figcaption',
                  {},
                  h('span', { text: `${f.name} · ${formatBytes(f.size)}` }),
                  h('button', { type: 'button', class: 'danger small', on: { click: () => remove(f.name) } }, 'Delete'),
                ),
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
    ? h('img', { class: 'landing-preview', alt: 'Current landing image', src: `${current[0].url}?v=${encodeURIComponent(current[0].modified)}` })
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
