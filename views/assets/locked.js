// The password form's script (views/locked.ejs). Without it the form still works: the
// message is in the page and a reload shows the time left.

// The message of ?error= is on the page now: a reload or a bookmark must not show it again.
const address = new URL(window.location.href);
if (address.searchParams.has('error')) {
  address.searchParams.delete('error');
  window.history.replaceState(window.history.state, '', address.pathname + address.search + address.hash);
}

const lockout = document.querySelector('.lockout[data-lockout-seconds]');
if (lockout instanceof HTMLElement) void countDown(lockout);
showEndLocally();

/** The time the lockout ends, as this browser's clock reads it (the server wrote its own, with its zone). */
function showEndLocally() {
  const end = document.querySelector('.lockout__end');
  if (!(end instanceof HTMLTimeElement)) return;
  const at = new Date(end.dateTime);
  if (!Number.isNaN(at.getTime())) end.textContent = at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/**
 * Counts the lockout down to zero, then enables the form. The end is fixed once, from the
 * seconds the server gave, so a tab the browser throttled in the background still ends on time.
 * @param {HTMLElement} lockout
 */
async function countDown(lockout) {
  const { formatWait } = await import(lockout.dataset.waitFormat ?? '/assets/wait-format.js');
  const end = performance.now() + Number(lockout.dataset.lockoutSeconds) * 1000;
  const time = lockout.querySelector('time');
  const tick = () => {
    const left = Math.ceil((end - performance.now()) / 1000);
    if (left <= 0) return unlockForm(lockout);
    time.textContent = formatWait(left);
    time.dateTime = `PT${Math.floor(left / 60)}M${left % 60}S`;
    // On the next whole second of the time left.
    setTimeout(tick, ((end - performance.now()) % 1000) + 20);
  };
  tick();
}

/** @param {HTMLElement} lockout */
function unlockForm(lockout) {
  // Said inside the alert: screen readers announce it, as they did not each second before.
  lockout.textContent = 'You can try again now.';
  const fields = document.querySelector('.unlock__fields');
  if (fields instanceof HTMLFieldSetElement) fields.disabled = false;
  const password = document.getElementById('password');
  if (password instanceof HTMLInputElement) password.focus();
}
