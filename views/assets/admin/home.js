// The Home page tab: the intro text and the cards of CONTENT_DIR/home.json.
import { api } from './api.js';
import { h, notify, replaceChildren } from './dom.js';

const CARD_FIELDS = [
  ['title', 'Title', 'input'],
  ['description', 'Description', 'textarea'],
  ['image', 'Image (file name from Site images › Card images)', 'input'],
  ['link', 'Link (/photos/… or a URL)', 'input'],
];

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
    { class: 'stack', 'aria-label': 'Intro' },
    h('label', {}, 'Title', h('input', { name: 'title', value: intro.title })),
    h('label', {}, 'Text', h('textarea', { name: 'body', value: intro.body })),
    h('div', { class: 'row end' }, h('button', { type: 'submit', class: 'primary' }, 'Save intro')),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    act(api('PUT', '/api/home/intro', { title: form.elements.title.value, body: form.elements.body.value }), 'Intro saved').catch(() => {});
  });
  return h('div', { class: 'card-box' }, h('h3', { text: 'Intro' }), form);
}

function cardForm(card, { index, count, reload }) {
  const form = h(
    'form',
    { class: 'stack card-box', dataset: { id: card?.id ?? '' } },
    CARD_FIELDS.map(([name, label, tag]) => h('label', {}, label, h(tag, { name, value: card?.[name] ?? '', required: name === 'title' }))),
    h(
      'div',
      { class: 'row end' },
      card
        ? [
            h('button', { type: 'button', class: 'small', disabled: index === 0, on: { click: () => move(-1) } }, '↑'),
            h('button', { type: 'button', class: 'small', disabled: index === count - 1, on: { click: () => move(1) } }, '↓'),
            h('button', { type: 'button', class: 'danger small', on: { click: remove } }, 'Delete'),
          ]
        : null,
      h('button', { type: 'submit', class: 'primary' }, card ? 'Save card' : 'Add card'),
    ),
  );
  const values = () => Object.fromEntries(CARD_FIELDS.map(([name]) => [name, form.elements[name].value]));
  const url = () => `/api/home/cards?id=${encodeURIComponent(card.id)}`;
  async function move(delta) {
    await act(api('PUT', url(), { position: index + delta }), 'Card moved').catch(() => {});
    reload();
  }
  async function remove() {
    if (!window.confirm(`Delete the card “${card.title}”?`)) return;
    await act(api('DELETE', url()), 'Card deleted').catch(() => {});
    reload();
  }
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const ok = await (card ? act(api('PUT', url(), values()), 'Card saved') : act(api('POST', '/api/home/cards', values()), 'Card added')).then(
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
  try {
    [intro, cards] = await Promise.all([api('GET', '/api/home/intro'), api('GET', '/api/home/cards')]);
  } catch (err) {
    replaceChildren(container, h('p', { class: 'form-error', text: err.message }));
    return;
  }
  const reload = () => renderHomeEditor();
  replaceChildren(
    container,
    introForm(intro),
    h('h3', { class: 'spaced', text: `Cards (${cards.length})` }),
    h(
      'div',
      { class: 'cards-list' },
      cards.map((card, index) => cardForm(card, { index, count: cards.length, reload })),
      cardForm(null, { index: cards.length, count: cards.length, reload }),
    ),
  );
}
