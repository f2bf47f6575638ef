/**
 * What the password form says after a refused attempt, before the last attempts, and while
 * the visitor's network is locked out (docs/api.md#password-endpoints). The time left is the
 * limiter's, not always the full 15 minutes, and views/assets/locked.js counts it down and
 * enables the form again at zero. Every sentence of the notice is here (the templates hold the
 * rest), for the translation to come.
 */
import type { Standing } from '../access/password-limiter.js';

export const WRONG_PASSWORD = 'Wrong password. Please try again.';
const PAUSED = 'Too many wrong passwords were tried from this network, so passwords are paused for a while.';
/** When the time left cannot be told (no limiter, its store not answering): the lockout's full length. */
const PAUSED_UNKNOWN = 'Too many wrong passwords were tried from this network. Please retry in 15 minutes.';
const PAUSE_OVER = 'Too many wrong passwords were tried from this network earlier. You can try again now.';
/** Attempts left from which the form warns: the last three before the lockout. */
export const WARN_FROM_ATTEMPTS_LEFT = 3;
const attemptsLeft = (n: number) => `${n === 1 ? 'Last attempt' : `${n} attempts left`} from this network before passwords are paused for 15 minutes.`;

/** When a lockout ends, as the form and the share link's lockout page show it. */
export interface LockoutEnd {
  /** Whole seconds left, rounded up: the countdown's start. */
  readonly seconds: number;
  /** The same as words, for the page without its script: '14 min 5 s'. */
  readonly wait: string;
  /** ISO 8601 duration for `<time datetime>`: 'PT14M5S'. */
  readonly datetime: string;
  /** The moment it ends: ISO 8601 for `<time datetime>` (the script shows it in the browser's zone) and as the server's clock reads it ('14:32 CET'). */
  readonly endsAt: { readonly iso: string; readonly text: string };
}

export interface LockoutNotice {
  /** The sentence shown in the alert. */
  readonly text: string;
  /** Set while locked out: the form is disabled and the time left is counted down. */
  readonly lockout?: LockoutEnd;
  /** Set for a warning alone (the last attempts left, on a visit without error): the password field is not marked wrong. */
  readonly warning?: boolean;
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

/** How the lockout of a client standing so ends. */
export function lockoutEnd(standing: Pick<Standing, 'lockedOutMs' | 'lockedUntil'>): LockoutEnd {
  const seconds = Math.max(1, Math.ceil(standing.lockedOutMs / 1000));
  const end = new Date(standing.lockedUntil);
  // Without the page's script (which shows it in the browser's own zone), the server's clock and its zone.
  const text = end.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
  return { seconds, wait: formatWait(seconds), datetime: `PT${Math.floor(seconds / 60)}M${seconds % 60}S`, endsAt: { iso: end.toISOString(), text } };
}

/**
 * The notice for `?error=` (`wrong-password`, `rate-limited`, anything else ignored) and the
 * visitor's standing with the lockout (undefined when it cannot be told). While locked out the
 * notice says so whatever the error: a right password sent then was never checked, and the
 * visitor must not read it as wrong. With the last attempts left, it says how many, after a
 * wrong password and on any visit to the form (a cousin's typos count for the whole household).
 */
export function lockoutNotice(error: unknown, standing: Standing | undefined): LockoutNotice | undefined {
  if (standing && standing.lockedOutMs > 0) {
    const lead = error === 'rate-limited' ? 'Your password was not checked. ' : error === 'wrong-password' ? 'Wrong password. ' : '';
    return { text: `${lead}${PAUSED}`, lockout: lockoutEnd(standing) };
  }
  const warning = standing !== undefined && standing.attemptsLeft >= 1 && standing.attemptsLeft <= WARN_FROM_ATTEMPTS_LEFT;
  if (error === 'wrong-password') return { text: warning ? `Wrong password. ${attemptsLeft(standing.attemptsLeft)}` : WRONG_PASSWORD };
  if (error === 'rate-limited') return { text: standing === undefined ? PAUSED_UNKNOWN : PAUSE_OVER };
  return warning ? { text: attemptsLeft(standing.attemptsLeft), warning: true } : undefined;
}
