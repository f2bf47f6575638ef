// The Home page tab: the intro text and the cards of CONTENT_DIR/home.json.
import { api } from './api.js';
import { h, notify, replaceChildren } from './dom.js';
import { t } from '../strings.js';

/** A card's fields: name, label (a key of the catalogue's `admin` part), element. */
const CARD_FIELDS = [
  ['title', 'home.title', 'input'],
  ['description', 'home.description', 'textarea'],
  ['image', 'home.image', 'select'],
  ['link', 'home.link', 'input'],
];

const previewOf = (name) => `/previews/site/cards/${encodeURIComponent(name)}?size=small`;

/** The card image picker: the card images uploaded under Site images, with a preview of the one chosen. */
function imagePicker(current, images) {
  const names = images.map((f) => f.name);
  const select = h(
    'select',
    { name: 'image' },
    h('option', { value: '', text: t('home.noImage'), selected: !current }),
    names.map((n) => h('option', { value: n, text: n, selected: n === current })),
    // A name that is no longer there (deleted since): kept visible, so saving does not silently drop it.
    current && !names.includes(current) ? h('option', { value: current, text: t('home.missing', { name: current }), selected: true }) : null,
  );
  const img = h('img', { class: 'card-image-preview', alt: '', hidden: !current });
  const show = () => {
    img.hidden = select.value === '';
    if (select.value) img.setAttribute('src', previewOf(select.value));
  };
  select.addEventListener('change', show);
  show();
  return { select, preview: img };
}

async function act(promise, message) {
  try {
    const result = await promise;
    notify(message);
    return result;
  } catch (err) {
    notify(err.message, { error: true });
    throw err;
  }
}

function introForm(intro) {
  const form = h(
    'form',
    { class: 'stack', 'aria-label': t('home.intro') },
    h('label', {}, t('home.title'), h('input', { name: 'title', value: intro.title })),
    h('label', {}, t('home.text'), h('textarea', { name: 'body', value: intro.body })),
    h('div', { class: 'row end' }, h('button', { type: 'submit', class: 'primary' }, t('home.saveIntro'))),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    act(api('PUT', '/api/home/intro', { title: form.elements.title.value, body: form.elements.body.value }), t('home.introSaved')).catch(() => {});
  });
  return h('div', { class: 'card-box' }, h('h3', { text: t('home.intro') }), form);
}

function cardForm(card, { index, count, reload, images }) {
  const form = h(
    'form',
    { class: 'stack card-box', dataset: { id: card?.id ?? '' } },
    CARD_FIELDS.map(([name, label, tag]) => {
      if (tag === 'select') {
        const picker = imagePicker(card?.image ?? '', images);
        return h('label', {}, t(label), picker.select, picker.preview);
      }
      return h('label', {}, t(label), h(tag, { name, value: card?.[name] ?? '', required: name === 'title' }));
    }),
    h(
      'div',
      { class: 'row end' },
      card
        ? [
            h('button', { type: 'button', class: 'small', disabled: index === 0, on: { click: () => move(-1) } }, '↑'),
            h('button', { type: 'button', class: 'small', disabled: index === count - 1, on: { click: () => move(1) } }, '↓'),
            h('button', { type: 'button', class: 'danger small', on: { click: remove } }, t('common.delete')),
          ]
        : null,
      h('button', { type: 'submit', class: 'primary' }, t(card ? 'home.saveCard' : 'home.addCard')),
    ),
  );
  const values = () => Object.fromEntries(CARD_FIELDS.map(([name]) => [name, form.elements[name].value]));
  const url = () => `/api/home/cards?id=${encodeURIComponent(card.id)}`;
  async function move(delta) {
    await act(api('PUT', url(), { position: index + delta }), t('home.cardMoved')).catch(() => {});
    reload();
  }
  async function remove() {
    if (!window.confirm(t('home.confirmDelete', { title: card.title }))) return;
    await act(api('DELETE', url()), t('home.cardDeleted')).catch(() => {});
    reload();
  }
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const ok = await (card ? act(api('PUT', url(), values()), t('home.cardSaved')) : act(api('POST', '/api/home/cards', values()), t('home.cardAdded'))).then(
      () => true,
      () => false,
    );
    if (ok) reload();
  });
  return form;
}

export async function renderHomeEditor() {
  const container = document.getElementById('home-editor');
  let intro;
  let cards;
  let images;
  try {
    [intro, cards, images] = await Promise.all([api('GET', '/api/home/intro'), api('GET', '/api/home/cards'), api('GET', '/api/assets/cards')]);
  } catch (err) {
    replaceChildren(container, h('p', { class: 'form-error', text: err.message }));
    return;
  }
  const reload = () => renderHomeEditor();
  replaceChildren(
    container,
    introForm(intro),
    h('h3', { class: 'spaced', text: t('home.cards', { count: cards.length }) }),
    h(
      'div',
      { class: 'cards-list' },
      cards.map((card, index) => cardForm(card, { index, count: cards.length, reload, images })),
      cardForm(null, { index: cards.length, count: cards.length, reload, images }),
    ),
  );
}
