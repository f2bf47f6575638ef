/**
 * When a photo or video was taken, as the gallery keeps it: a wall-clock time without a zone,
 * `YYYY-MM-DDTHH:MM:SS` (docs/api.md#dates). A camera writes the time its own clock showed
 * and no zone (EXIF DateTimeOriginal), and that is what the people in the photo remember, so
 * it is kept as written, never turned into an instant. Where only an instant is known (a
 * video's container time, a file's mtime), it is read in the server's time zone.
 *
 * Shared by the workers, which read the dates, and the server, which falls back to mtimes.
 */

/** `YYYY-MM-DDTHH:MM:SS`. */
export type TakenDate = string;

const TAKEN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;

/** Whether `value` is a real date and time in the gallery's form (no 2024-02-30, no 25:00). */
export function isTakenDate(value: unknown): value is TakenDate {
  if (typeof value !== 'string') return false;
  const m = TAKEN.exec(value);
  if (!m) return false;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  if (y < 1800 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The wall-clock time of an instant in the server's time zone. */
export function wallClockOf(ms: number): TakenDate | undefined {
  const t = new Date(ms);
  if (Number.isNaN(t.getTime())) return undefined;
  const taken = `${pad(t.getFullYear(), 4)}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}T${pad(t.getHours())}:${pad(t.getMinutes())}:${pad(t.getSeconds())}`;
  return isTakenDate(taken) ? taken : undefined;
}

/**
 * EXIF's `YYYY:MM:DD HH:MM:SS` (and the `YYYY-MM-DD HH:MM:SS` some tools write), as written:
 * the camera's wall clock. Cameras whose clock was never set write zeros or blanks: no date.
 */
export function takenFromExif(value: string | null | undefined): TakenDate | undefined {
  const m = /^(\d{4})[:-](\d{2})[:-](\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(value?.trim() ?? '');
  if (!m) return undefined;
  const taken = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}`;
  return isTakenDate(taken) ? taken : undefined;
}

/** The metadata tags of a video container, as ffprobe lists them (format.tags). */
export type ContainerTags = Readonly<Record<string, string | undefined>>;

/**
 * When a video was recorded, from its container's tags:
 * - Apple's `com.apple.quicktime.creationdate` ('2024-06-03T14:03:00+0200') is the local time
 *   of the recording with its offset: its wall-clock part is what the phone showed.
 * - `creation_time` ('2024-06-03T12:03:00.000000Z') is an instant in UTC (QuickTime/MP4 keep
 *   nothing else): read in the server's time zone. Muxers that know no date write 0, which
 *   reads as 1904 or 1970: no date.
 */
export function takenFromVideoTags(tags: ContainerTags | undefined): TakenDate | undefined {
  if (!tags) return undefined;
  const apple = tags['com.apple.quicktime.creationdate'];
  const local = apple === undefined ? undefined : /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(apple.trim());
  if (local) {
    const taken = `${local[1]}T${local[2]}`;
    if (isTakenDate(taken)) return taken;
  }
  const created = tags.creation_time?.trim();
  if (!created || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(created)) return undefined;
  const ms = Date.parse(created);
  if (!Number.isFinite(ms) || ms <= UNSET_BEFORE_MS) return undefined;
  return wallClockOf(ms);
}

/** A container time at or before 1970-01-02 is a muxer's zero (1904 or 1970), not a recording. */
const UNSET_BEFORE_MS = 24 * 3600 * 1000;
