/**
 * What a folder's name says about the album it becomes when adopted (adopt.ts): its title,
 * and its date where the name starts with one, as photo libraries name folders
 * (`2019-07-14 Grandpa's birthday`, `2019-07 Lisbon`, `2019_07_14`, `20190714 Beach`,
 * `2019 - Summer`). The date is as precise as the name: a day, a month or a year
 * (album-record.ts `isAlbumDate`).
 */
import { isAlbumDate } from './album-record.js';
import { folderNameTitle } from './folder-record.js';

export interface NamedAlbum {
  readonly title: string;
  /** `YYYY-MM-DD`, `YYYY-MM` or `YYYY`; undefined when the name starts with no date. */
  readonly date: string | undefined;
}

/** A year, then optionally a month and a day, each after `-`, `_`, `.` or nothing (20190714). */
const DATED = /^((?:19|20)\d{2})(?:[-_.]?(0[1-9]|1[0-2])(?:[-_.]?(0[1-9]|[12]\d|3[01]))?)?(?=$|[\s_\-–—.,)])[\s_\-–—.,)]*(.*)$/u;
/** Inside a year's folder (`2019/07-14 Birthday`, `2019/07 Lisbon`): a month, then optionally a day. */
const MONTH_DAY = /^(0[1-9]|1[0-2])(?:[-_.](0[1-9]|[12]\d|3[01]))?(?=$|[\s_\-–—.,)])[\s_\-–—.,)]*(.*)$/u;
const YEAR = /^(?:19|20)\d{2}$/;

/** The album a folder named `name` becomes; `parentName`, the folder it is in, may give the year. */
export function albumFromFolderName(name: string, parentName = ''): NamedAlbum {
  const inYear = YEAR.test(parentName) ? MONTH_DAY.exec(name) : null;
  const match = inYear ? [inYear[0], parentName, inYear[1], inYear[2], inYear[3]] : DATED.exec(name);
  const [, year, month, day, rest = ''] = match ?? [];
  const date = year === undefined ? undefined : [year, month, day].filter((part) => part !== undefined).join('-');
  const words = (match ? rest : name).replace(/_+/g, ' ').replace(/\s+/g, ' ').trim();
  // A name that is only a date (`2019-07-14`) keeps it as the title: the owner named it so.
  const title = words === '' ? name.trim() : folderNameTitle(words);
  return { title, date: date !== undefined && isAlbumDate(date) ? date : undefined };
}
