/**
 * What the password form says after a refused attempt, and while the visitor's network is
 * locked out (docs/api.md#password-endpoints). The time left is the limiter's, not always the
 * full 15 minutes, and views/assets/locked.js counts it down and enables the form again at zero.
 */

export const WRONG_PASSWORD = 'Wrong password. Please try again.';
const PAUSED = 'Too many wrong passwords were tried from this network, so passwords are paused for a while.';
/** When the time left cannot be told (no limiter, its store not answering): the lockout's full length. */
const PAUSED_UNKNOWN = 'Too many wrong passwords were tried from this network. Please retry in 15 minutes.';
const PAUSE_OVER = 'Too many wrong passwords were tried from this network earlier. You can try again now.';

export interface LockoutNotice {
  /** The sentence shown in the alert. */
  readonly text: string;
  /** Set while locked out: the form is disabled and the time left is counted down. */
  readonly lockout?: {
    /** Whole seconds left, rounded up: the countdown's start. */
    readonly seconds: number;
    /** The same as words, for the page without its script: '14 min 5 s'. */
    readonly wait: string;
    /** ISO 8601 duration for `<time datetime>`: 'PT14M5S'. */
    readonly datetime: string;
  };
}

/**
 * The time left as the form shows it: '14 min 5 s', '14 min', '42 s'. views/assets/wait-format.js
 * writes the countdown with the same rule (a test holds both to it).
 */
export function formatWait(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  const m = Math.floor(s / 60);
  const rest = s % 60;
  if (m === 0) return `${rest} s`;
  return rest === 0 ? `${m} min` : `${m} min ${rest} s`;
}

/**
 * The notice for `?error=` (`wrong-password`, `rate-limited`, anything else ignored) and the
 * lockout left: `lockedOutMs` is 0 when the visitor is not locked out, undefined when unknown.
 * While locked out the notice says so whatever the error: a right password sent then was
 * never checked, and the visitor must not read it as wrong.
 */
export function lockoutNotice(error: unknown, lockedOutMs: number | undefined): LockoutNotice | undefined {
  if (lockedOutMs !== undefined && lockedOutMs > 0) {
    const seconds = Math.ceil(lockedOutMs / 1000);
    const lead = error === 'rate-limited' ? 'Your password was not checked. ' : error === 'wrong-password' ? 'Wrong password. ' : '';
    return {
      text: `${lead}${PAUSED}`,
      lockout: { seconds, wait: formatWait(seconds), datetime: `PT${Math.floor(seconds / 60)}M${seconds % 60}S` },
    };
  }
  if (error === 'wrong-password') return { text: WRONG_PASSWORD };
  if (error === 'rate-limited') return { text: lockedOutMs === undefined ? PAUSED_UNKNOWN : PAUSE_OVER };
  return undefined;
}
