// Folders of photos that are not albums yet (README "Your own photos"), under the album tree:
// nothing in them is on the site until the owner makes them albums, one, a selection or all
// at once, public, with a password, or hidden (POST /api/adopt, as `npm run adopt` does).
import { api } from './api.js';
import { h, notify, replaceChildren } from './dom.js';
import { locale, t } from '../strings.js';

const monthYear = new Intl.DateTimeFormat(locale(), { month: 'long', year: 'numeric', timeZone: 'UTC' });
const dayMonthYear = new Intl.DateTimeFormat(locale(), { dateStyle: 'long', timeZone: 'UTC' });

/** `2019-07` → "July 2019", as the album header will show it. */
function dateLabel(date) {
  if (!date) return '';
  const [year, month, day] = date.split('-');
  if (!month) return year;
  const at = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day ?? 1)));
  return (day ? dayMonthYear : monthYear).format(at);
}

/** The options dialog: how the albums are made. Resolves with {password?, hidden} or null when cancelled. */
function askHow(count) {
  return new Promise((resolve) => {
    const password = h('input', { name: 'password', autocomplete: 'off', spellcheck: 'false', disabled: true, 'aria-label': t('adopt.password') });
    const choice = (value, label, help, checked = false) =>
      h(
        'label',
        { class: 'check' },
        h('input', { type: 'radio', name: 'how', value, checked, on: { change: () => (password.disabled = value !== 'password') } }),
        h('span', {}, h('strong', { text: label }), ` ${help}`),
      );
    const error = h('p', { class: 'form-error', hidden: true });
    const form = h(
      'form',
      { method: 'dialog', class: 'stack' },
      h('h2', { text: t('adopt.make', { count }) }),
      h('p', { class: 'explain', text: t('adopt.explain') }),
      choice('public', t('adopt.public'), t('adopt.publicHelp'), true),
      choice('password', t('adopt.withPassword'), t('adopt.withPasswordHelp')),
      password,
      choice('hidden', t('adopt.hidden'), t('adopt.hiddenHelp')),
      error,
      h(
        'div',
        { class: 'row end' },
        h('button', { type: 'button', value: 'cancel', dataset: { close: '' } }, t('common.cancel')),
        h('button', { type: 'submit', class: 'primary' }, t('adopt.makeAlbums')),
      ),
    );
    const dialog = h('dialog', { 'aria-label': t('adopt.dialog') }, form);
    document.body.append(dialog);
    const done = (value) => {
      dialog.close();
      dialog.remove();
      resolve(value);
    };
    form.querySelector('[data-close]').addEventListener('click', () => done(null));
    dialog.addEventListener('cancel', () => done(null));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const how = new FormData(form).get('how');
      if (how === 'password' && password.value === '') {
        error.textContent = t('adopt.needPassword');
        error.hidden = false;
        password.focus();
        return;
      }
      done(how === 'password' ? { password: password.value, hidden: false } : { hidden: how === 'hidden' });
    });
    dialog.showModal();
  });
}

/** Lists the adoptable folders in `container`; `adopted` runs after albums were made. */
export async function renderAdoptable(container, adopted) {
  let folders;
  try {
    folders = await api('GET', '/api/adoptable');
  } catch (err) {
    notify(err.message, { error: true });
    return;
  }
  if (folders.length === 0) {
    replaceChildren(container);
    return;
  }
  const boxes = folders.map((f) => h('input', { type: 'checkbox', value: f.path, 'aria-label': t('adopt.select', { path: f.path }) }));
  const all = h('input', {
    type: 'checkbox',
    on: {
      change: () => {
        for (const b of boxes) b.checked = all.checked;
      },
    },
  });
  const adopt = async (paths) => {
    const how = await askHow(paths.length);
    if (!how) return;
    let result;
    try {
      result = await api('POST', '/api/adopt', { paths, ...how });
    } catch (err) {
      notify(err.message, { error: true });
      return;
    }
    const skipped = result.skipped.map((s) => `${s.path}: ${s.reason}`).join('; ');
    notify(`${t('adopt.made', { count: result.adopted.length })}${skipped ? t('adopt.notMade', { list: skipped }) : ''}`, { error: skipped !== '' });
    await adopted();
  };
  const selected = () => boxes.filter((b) => b.checked).map((b) => b.value);
  replaceChildren(
    container,
    h(
      'details',
      { class: 'adoptable', open: true },
      h('summary', { text: t('adopt.folders', { count: folders.length }) }),
      h('p', { class: 'hint', text: t('adopt.hint') }),
      h('label', { class: 'check' }, all, t('adopt.all')),
      h(
        'ul',
        {},
        folders.map((f, i) =>
          h(
            'li',
            {},
            h('label', { class: 'check' }, boxes[i], h('span', { text: f.path }), h('span', { class: 'count', text: String(f.media) })),
            h('small', { text: `${t('adopt.folderTitle', { title: f.title })}${f.date ? `, ${dateLabel(f.date)}` : ''}` }),
          ),
        ),
      ),
      h(
        'div',
        { class: 'row' },
        h(
          'button',
          {
            type: 'button',
            class: 'primary',
            on: {
              click: () => {
                const paths = selected();
                if (paths.length === 0) notify(t('adopt.tick'), { error: true });
                else void adopt(paths);
              },
            },
          },
          t('adopt.makeAlbumsMore'),
        ),
      ),
    ),
  );
}
