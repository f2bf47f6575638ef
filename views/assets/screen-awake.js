// Keeps the screen on (the Screen Wake Lock API) while a page wants it and is shown: the photo
// frame always, the viewer's slideshow while it plays. The browser lets go of the lock whenever
// the page is hidden; it is asked again when the page is shown. Where the API is missing or
// refuses (battery saver, a policy), nothing happens and the page works the same.

/**
 * @param {() => boolean} wanted whether the screen should stay on now
 * @returns {{ keep(): Promise<void>, letGo(): void }}
 */
export function screenAwake(wanted) {
  /** @type {WakeLockSentinel | null} */
  let lock = null;
  let asking = false;

  async function keep() {
    if (lock || asking || !('wakeLock' in navigator) || document.visibilityState !== 'visible' || !wanted()) return;
    asking = true;
    try {
      const got = await navigator.wakeLock.request('screen');
      // Let go of while it was asked for (a slideshow paused meanwhile).
      if (!wanted()) {
        void got.release().catch(() => {});
        return;
      }
      lock = got;
      got.addEventListener('release', () => {
        if (lock === got) lock = null;
      });
    } catch {
      // Refused: the page goes on all the same.
    } finally {
      asking = false;
    }
  }

  function letGo() {
    const held = lock;
    lock = null;
    void held?.release().catch(() => {});
  }

  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void keep();
  });
  return { keep, letGo };
}
