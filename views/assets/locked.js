// The password form's script (views/locked.ejs), and the share link's lockout page's. Without
// it the form still works: the message is in the page and a reload shows the time left.

// The message of ?error= is on the page now: a reload or a bookmark must not show it again.
const address = new URL(window.location.href);
if (address.searchParams.has('error')) {
  address.searchParams.delete('error');
  window.history.replaceState(window.history.state, '', address.pathname + address.search + address.hash);
}

const lockout = document.querySelector('.lockout[data-lockout-seconds]');
if (lockout instanceof HTMLElement) void start(lockout);

/**
 * The lockout's modules come by their versioned URLs (/assets is cached for a year): the
 * countdown's rule, on the element, and the page's words (views/assets/strings.js), on the
 * page's strings (views/partials/foot.ejs).
 * @param {HTMLElement} lockout
 */
async function start(lockout) {
  const [{ formatWait }, strings] = await Promise.all([
    /** @type {Promise<typeof import('./wait-format.js')>} */ (import(lockout.dataset.waitFormat ?? '/assets/wait-format.js')),
    /** @type {Promise<typeof import('./strings.js')>} */ (import(document.getElementById('strings')?.dataset.module ?? '/assets/strings.js')),
  ]);
  showEndLocally(strings.locale());
  countDown(lockout, (seconds) => formatWait(seconds, strings.t), strings.t);
}

/**
 * The time the lockout ends, as this browser's clock reads it (the server wrote its own, with
 * its zone), written as the page's language writes times.
 * @param {string} locale
 */
function showEndLocally(locale) {
  const end = document.querySelector('.lockout__end');
  if (!(end instanceof HTMLTimeElement)) return;
  const at = new Date(end.dateTime);
  if (!Number.isNaN(at.getTime())) end.textContent = at.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
}

/**
 * Counts the lockout down to zero, then enables the form. The end is fixed once, from the
 * seconds the server gave, so a tab the browser throttled in the background still ends on time.
 * @param {HTMLElement} lockout
 * @param {(seconds: number) => string} formatWait
 * @param {import('./strings.js').Translate} t
 */
function countDown(lockout, formatWait, t) {
  const end = performance.now() + Number(lockout.dataset.lockoutSeconds) * 1000;
  const time = lockout.querySelector('time');
  const tick = () => {
    const left = Math.ceil((end - performance.now()) / 1000);
    if (left <= 0) return unlockForm(lockout, t);
    time.textContent = formatWait(left);
    time.dateTime = `PT${Math.floor(left / 60)}M${left % 60}S`;
    // On the next whole second of the time left.
    setTimeout(tick, ((end - performance.now()) % 1000) + 20);
  };
  tick();
}

/**
 * @param {HTMLElement} lockout
 * @param {import('./strings.js').Translate} t
 */
function unlockForm(lockout, t) {
  // Said inside the alert: screen readers announce it, as they did not each second before.
  lockout.textContent = t('locked.tryAgainNow');
  const fields = document.querySelector('.unlock__fields');
  if (fields instanceof HTMLFieldSetElement) fields.disabled = false;
  const password = document.getElementById('password');
  if (password instanceof HTMLInputElement) password.focus();
}
