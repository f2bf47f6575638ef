import { hasControlCharacter } from '../control-characters.js';

/**
 * `folder.json` (docs/api.md#folderjson): an optional title for a plain folder, a year or a
 * category (`{"title": "Travel"}`), shown on its page, in breadcrumbs and on /photos. Without
 * one a folder is shown under its name with the first letter in capitals.
 */
export const FOLDER_FILE = 'folder.json';

export const MAX_FOLDER_TITLE = 200;

export class FolderRecordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FolderRecordError';
  }
}

/** The title a folder.json gives; throws FolderRecordError, naming the problem, for anything else. */
export function parseFolderRecord(text: string): { readonly title: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new FolderRecordError('not valid JSON');
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new FolderRecordError('not a JSON object');
  const { title } = raw as { title?: unknown };
  if (typeof title !== 'string' || title.trim() === '') throw new FolderRecordError('title must be a non-empty string');
  if (title.length > MAX_FOLDER_TITLE) throw new FolderRecordError(`title must be at most ${MAX_FOLDER_TITLE} characters`);
  if (hasControlCharacter(title)) throw new FolderRecordError('title must not contain control characters');
  return { title: title.trim() };
}

/** A folder's name as a title: `travel` → `Travel` (the first character, whatever the script). */
export function folderNameTitle(name: string): string {
  const [first = ''] = name;
  return first.toLocaleUpperCase() + name.slice(first.length);
}
