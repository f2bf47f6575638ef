// The Site tab's map settings (site.json mapPrecision, mapTiles, mapAttribution; README "The
// map"), and the problems a refused save names, each shown next to its field.
import { h } from './dom.js';
import { t } from '../strings.js';

/** The precisions visitors may be given, finest first (server/core/site-settings.ts MAP_PRECISIONS). */
const PRECISIONS = ['exact', 'city', 'country', 'hidden'];
const PRECISION_KEYS = {
  exact: ['site.precisionExact', 'site.precisionExactHelp'],
  city: ['site.precisionCity', 'site.precisionCityHelp'],
  country: ['site.precisionCountry', 'site.precisionCountryHelp'],
  hidden: ['site.precisionHidden', 'site.precisionHiddenHelp'],
};
/** What the owner reads for a field the server refused, in their language; the server's English words otherwise. */
const PROBLEM_KEYS = { mapTiles: 'site.tilesInvalid', mapAttribution: 'site.attributionInvalid', mapPrecision: 'site.precisionInvalid' };

const errorId = (field) => `site-error-${field}`;
const helpId = (field) => `site-help-${field}`;

/** A field's place for its problem, empty and hidden until a save is refused. */
const errorSlot = (field) => h('small', { id: errorId(field), class: 'field-error', hidden: true });

/** The map's part of the Site form. */
export function mapFieldset(site) {
  const choices = PRECISIONS.map((precision) => {
    const [label, help] = PRECISION_KEYS[precision];
    return h(
      'label',
      { class: 'choice' },
      h('input', {
        type: 'radio',
        name: 'mapPrecision',
        value: precision,
        checked: site.mapPrecision === precision,
        'aria-describedby': `${helpId(precision)}`,
      }),
      h('span', {}, h('span', { class: 'choice-label', text: t(label) }), h('small', { id: helpId(precision), text: t(help) })),
    );
  });
  const textField = (name, label, help, props) =>
    h(
      'label',
      {},
      t(label),
      h('input', { name, value: site[name], spellcheck: 'false', autocomplete: 'off', 'aria-describedby': `${helpId(name)} ${errorId(name)}`, ...props }),
      h('small', { id: helpId(name), text: t(help) }),
      errorSlot(name),
    );
  return h(
    'fieldset',
    { class: 'stack map-settings' },
    h('legend', { text: t('site.map') }),
    h(
      'fieldset',
      { class: 'choices', 'aria-describedby': errorId('mapPrecision') },
      h('legend', { text: t('site.precision') }),
      choices,
      errorSlot('mapPrecision'),
    ),
    textField('mapTiles', 'site.tiles', 'site.tilesHelp', { inputmode: 'url', placeholder: 'https://tile.example.org/{z}/{x}/{y}.png', maxlength: 500 }),
    textField('mapAttribution', 'site.attribution', 'site.attributionHelp', { maxlength: 200 }),
  );
}

/** The map's fields that changed since `site` was read: a site.json never gets a value the owner did not choose. */
export function mapPatch(form, site) {
  const patch = {};
  const precision = form.elements.mapPrecision.value;
  if (precision && precision !== site.mapPrecision) patch.mapPrecision = precision;
  for (const name of ['mapTiles', 'mapAttribution']) {
    const value = form.elements[name].value.trim();
    // Empty: back to none (the bundled world map, no credit line).
    if (value !== site[name]) patch[name] = value || null;
  }
  return patch;
}

/**
 * The problems of a refused save by field: the API's `{"error": "Invalid site settings: a; b"}`
 * names each problem's field first (server/core/site-settings.ts checkSitePatch).
 */
export function problemsByField(message) {
  const problems = new Map();
  const prefix = /^Invalid site settings: /;
  if (!prefix.test(message)) return problems;
  for (const problem of message.replace(prefix, '').split('; ')) {
    const field = /^(\w+) /.exec(problem)?.[1];
    if (field) problems.set(field, problem);
  }
  return problems;
}

/** Shows each problem next to its field (and clears the others); true when any was placed. */
export function showFieldProblems(form, message) {
  const problems = problemsByField(message);
  let placed = false;
  for (const slot of form.querySelectorAll('.field-error')) {
    const field = slot.id.replace(errorId(''), '');
    const problem = problems.get(field);
    slot.textContent = problem ? (PROBLEM_KEYS[field] ? t(PROBLEM_KEYS[field]) : problem) : '';
    slot.hidden = !problem;
    for (const input of form.querySelectorAll(`[name="${field}"]`)) {
      if (problem) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    }
    if (problem && !placed) {
      placed = true;
      form.querySelector(`[name="${field}"]`)?.focus();
    }
  }
  return placed;
}
