// The colour theme: the visitor's choice (kept in this browser), else their system's. A
// classic script in <head>, not a module: it runs before the first paint, so a page never
// shows the other theme first. views/assets/site.css reads data-theme on <html>.
(() => {
  const KEY = 'gallery-theme';
  const root = document.documentElement;
  const systemLight = window.matchMedia('(prefers-color-scheme: light)');

  /** 'light', 'dark', or null (follow the system); storage may be off (private modes). */
  function chosen() {
    try {
      const value = localStorage.getItem(KEY);
      return value === 'light' || value === 'dark' ? value : null;
    } catch {
      return null;
    }
  }

  const effective = () => chosen() ?? (systemLight.matches ? 'light' : 'dark');

  function apply() {
    root.dataset.theme = effective();
  }
  apply();
  systemLight.addEventListener('change', apply);

  /** The browser's toolbar follows the page: both theme-color tags give the theme's colour. */
  function syncToolbar(metas) {
    const colours = Object.fromEntries(metas.map((m) => [m.dataset.scheme, m.content]));
    for (const meta of metas) meta.content = colours[root.dataset.theme] ?? meta.content;
  }

  function wire() {
    /** @type {HTMLMetaElement[]} */
    const metas = [...document.querySelectorAll('meta[name="theme-color"]')].map((m) => /** @type {HTMLMetaElement} */ (m));
    for (const meta of metas) meta.dataset.scheme = /light/.test(meta.media) ? 'light' : 'dark';
    const button = /** @type {HTMLButtonElement | null} */ (document.querySelector('[data-theme-toggle]'));
    const label = button?.querySelector('[data-theme-label]');
    const show = () => {
      const now = root.dataset.theme;
      syncToolbar(metas);
      if (!button) return;
      const next = now === 'light' ? 'dark' : 'light';
      button.dataset.current = now;
      // The words in the page's language, rendered on the button (views/partials/head.ejs).
      button.title = (next === 'light' ? button.dataset.toLight : button.dataset.toDark) ?? '';
      if (label) label.textContent = button.title;
    };
    systemLight.addEventListener('change', show);
    button?.addEventListener('click', () => {
      const next = root.dataset.theme === 'light' ? 'dark' : 'light';
      try {
        localStorage.setItem(KEY, next);
      } catch {
        // Not kept: the choice lasts for this page only.
      }
      root.dataset.theme = next;
      show();
    });
    show();
    if (button) button.hidden = false;
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', wire);
  else wire();
})();
