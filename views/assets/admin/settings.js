// The public site's address, for share links. The admin cannot know where the gallery is
// published, so the owner may change it; the choice is kept in this browser.

const KEY = 'gallery-admin.public-base-url';

export function publicBaseUrl() {
  return (localStorage.getItem(KEY) || document.body.dataset.publicBaseUrl || '').replace(/\/+$/, '');
}

export function initPublicBaseInput(onChange) {
  const input = /** @type {HTMLInputElement} */ (document.getElementById('public-base-url'));
  input.value = publicBaseUrl();
  input.addEventListener('change', () => {
    const value = input.value.trim();
    if (value === '' || value === document.body.dataset.publicBaseUrl) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, value);
    input.value = publicBaseUrl();
    onChange();
  });
}

export function shareLink(sharePath) {
  return sharePath ? `${publicBaseUrl()}${sharePath}` : '';
}
