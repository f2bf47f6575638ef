// Small DOM helpers. Text always goes in as textContent: album titles and file names are
// user data and never become markup.

// Sizes as the public site writes them (one rule for both: views/assets/byte-size.js).
export { formatBytes } from '../byte-size.js';
import { t } from '../strings.js';

/**
 * h('button', { class: 'primary', on: { click } }, 'Save')
 * props: class, text, dataset, on (event handlers), any other key as an attribute
 * (true → empty attribute, false/null/undefined → left out).
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'text') el.textContent = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'on') for (const [event, fn] of Object.entries(value)) el.addEventListener(event, fn);
    else if (key === 'value' || key === 'checked') el[key] = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

export function replaceChildren(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

let noticeTimer;
/** A short message in the corner; errors stay longer. */
export function notify(message, { error = false } = {}) {
  const box = document.getElementById('notice');
  box.textContent = message;
  box.classList.toggle('error', error);
  box.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(
    () => {
      box.hidden = true;
    },
    error ? 8000 : 3000,
  );
}

/** 'a b/c' → 'a%20b/c': each segment encoded, the slashes kept. */
export function encodePath(path) {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** Copies text, with a fallback for browsers without the async clipboard. */
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    input?.select();
    document.execCommand('copy');
  }
  notify(t('common.copied'));
}
