// Where the gallery stands with preparing albums as their photos arrive (GET /api/preparation):
// a line at the top of the album tree, "Preparing “Lisbon”: 312 of 500 · about 2 min", shown
// while the public server works and asked again every few seconds.
import { api } from './api.js';
import { t } from '../strings.js';

const WHILE_WORKING_MS = 3000;
const WHILE_IDLE_MS = 15_000;

/** "about 2 min", "under a minute", "about 1 h 20 min". */
function timeLeft(seconds) {
  if (seconds === null || seconds === undefined) return '';
  if (seconds < 60) return t('preparation.underMinute');
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return t('preparation.aboutMinutes', { minutes });
  return t('preparation.aboutHours', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

export function textOf(state) {
  if (!state.working) return '';
  const { current, albumsWaiting } = state;
  const others = albumsWaiting - (current ? 1 : 0);
  const more = others > 0 ? t('preparation.moreWaiting', { count: others }) : '';
  if (!current) return `${t('preparation.albums')}${more}`;
  return `${t('preparation.album', { title: current.title, done: current.done, total: current.total })}${timeLeft(state.secondsLeft)}${more}`;
}

/** Keeps `line` (an element) telling the preparation, for as long as the page is open. */
export function followPreparation(line) {
  const look = async () => {
    let state = { working: false };
    try {
      state = await api('GET', '/api/preparation');
    } catch {
      // The admin works without it: the line stays as it was and is asked again.
    }
    line.textContent = textOf(state);
    line.hidden = !state.working;
    setTimeout(look, state.working ? WHILE_WORKING_MS : WHILE_IDLE_MS);
  };
  void look();
}
