/**
 * What the password form says after a refused attempt, before the last attempts, and while
 * the visitor's network is locked out (docs/api.md#password-endpoints). The time left is the
 * limiter's, not always the full 15 minutes, and views/assets/locked.js counts it down and
 * enables the form again at zero. Every sentence of the notice is the catalogue's (`lockout.*`),
 * in the visitor's language.
 */
import type { Translator } from '../../http/i18n.js';
import { formatWait } from '../../../views/assets/wait-format.js';
import type { Standing } from '../access/password-limiter.js';

/** Attempts left from which the form warns: the last three before the lockout. */
export const WARN_FROM_ATTEMPTS_LEFT = 3;

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
 * The time left as the form shows it: '14 min 5 s', '14 min', '42 s' in English. The rule is
 * views/assets/wait-format.js's, which the page's script counts down with.
 */
export function waitText(seconds: number, { t }: Pick<Translator, 't'>): string {
  return formatWait(seconds, (key, vars) => t(`client.${key}`, vars));
}

/** How the lockout of a client standing so ends. */
export function lockoutEnd(standing: Pick<Standing, 'lockedOutMs' | 'lockedUntil'>, translator: Pick<Translator, 't' | 'language'>): LockoutEnd {
  const seconds = Math.max(1, Math.ceil(standing.lockedOutMs / 1000));
  const end = new Date(standing.lockedUntil);
  // Without the page's script (which shows it in the browser's own zone), the server's clock and its zone.
  const text = end.toLocaleTimeString(translator.language.locale, { hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
  return { seconds, wait: waitText(seconds, translator), datetime: `PT${Math.floor(seconds / 60)}M${seconds % 60}S`, endsAt: { iso: end.toISOString(), text } };
}

/**
 * The notice for `?error=` (`wrong-password`, `rate-limited`, anything else ignored) and the
 * visitor's standing with the lockout (undefined when it cannot be told). While locked out the
 * notice says so whatever the error: a right password sent then was never checked, and the
 * visitor must not read it as wrong. With the last attempts left, it says how many, after a
 * wrong password and on any visit to the form (a cousin's typos count for the whole household).
 */
export function lockoutNotice(error: unknown, standing: Standing | undefined, translator: Pick<Translator, 't' | 'language'>): LockoutNotice | undefined {
  const { t } = translator;
  if (standing && standing.lockedOutMs > 0) {
    const lead = error === 'rate-limited' ? t('lockout.notChecked') : error === 'wrong-password' ? t('lockout.wrong') : '';
    return { text: [lead, t('lockout.paused')].filter(Boolean).join(' '), lockout: lockoutEnd(standing, translator) };
  }
  const warning = standing !== undefined && standing.attemptsLeft >= 1 && standing.attemptsLeft <= WARN_FROM_ATTEMPTS_LEFT;
  const attemptsLeft = () => t('lockout.attemptsLeft', { count: standing!.attemptsLeft });
  if (error === 'wrong-password') return { text: warning ? `${t('lockout.wrong')} ${attemptsLeft()}` : t('lockout.wrongPassword') };
  if (error === 'rate-limited') return { text: standing === undefined ? t('lockout.pausedUnknown') : t('lockout.pauseOver') };
  return warning ? { text: attemptsLeft(), warning: true } : undefined;
}
