import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../core/fs-atomic.js';
import { HttpError, badRequest } from '../core/errors.js';
import { HOME_FILE, type HomeCard, type HomeFile, type HomeIntro, HomeFileError, emptyHomeFile, isSafeLink, parseHomeFile } from '../core/home-content.js';
import { isMissing } from '../core/paths.js';
import type { KeyedQueue } from './keyed-queue.js';
import { isWebImage } from '../core/media-catalogue.js';
import { hasControlCharacter } from '../core/control-characters.js';

export type { HomeCard, HomeIntro } from '../core/home-content.js';

const LIMITS: Readonly<Record<string, number>> = { title: 200, body: 20_000, description: 2_000, image: 2_000, link: 2_000 };

const invalid = (what: string, problems: readonly string[]) => badRequest(`Invalid ${what}: ${problems.join('; ')}`);

/** Checks the fields present in `input` against `allowed`, naming each problem like the album checks do. */
function checkTextFields(input: Record<string, unknown>, allowed: readonly string[], required: readonly string[]): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(input)) {
    if (!allowed.includes(key)) problems.push(`unknown field "${key}"`);
    else if (typeof value !== 'string') problems.push(`${key} must be a string`);
    else if (value.length > (LIMITS[key] ?? Infinity)) problems.push(`${key} must be at most ${LIMITS[key]} characters`);
    else if (key === 'link' && !isSafeLink(value)) problems.push('link must be empty, a site path starting with "/" or an http(s) URL');
    else if (key === 'image' && !isAssetFileName(value)) problems.push('image must be empty or the file name of an image in the card assets');
  }
  for (const key of required) {
    if (typeof input[key] !== 'string' || (input[key] as string).trim() === '') problems.push(`${key} must be a non-empty string`);
  }
  return [...new Set(problems)];
}

/** One file of CONTENT_DIR/assets/cards, by name: no folder, nothing hidden, a web image type. */
function isAssetFileName(value: string): boolean {
  if (value === '') return true;
  return !/[/\\]/.test(value) && !hasControlCharacter(value) && !value.startsWith('.') && isWebImage(value);
}

export function checkIntroPatch(input: Record<string, unknown>): Partial<HomeIntro> {
  const problems = checkTextFields(input, ['title', 'body'], []);
  if (Object.keys(input).length === 0) problems.push('the body names no field to change');
  if (problems.length > 0) throw invalid('home intro', problems);
  return input as Partial<HomeIntro>;
}

const CARD_FIELDS = ['title', 'description', 'image', 'link'];

export function checkNewCard(input: Record<string, unknown>): Omit<HomeCard, 'id'> {
  const problems = checkTextFields(input, CARD_FIELDS, ['title']);
  if (problems.length > 0) throw invalid('card', problems);
  const text = (key: string) => (typeof input[key] === 'string' ? (input[key] as string).trim() : '');
  return { title: text('title'), description: text('description'), image: text('image'), link: text('link') };
}

/** A card patch; `position` (0-based) moves the card in the list. */
export function checkCardPatch(input: Record<string, unknown>): { fields: Partial<Omit<HomeCard, 'id'>>; position: number | undefined } {
  const { position, id, ...fields } = input;
  const problems = checkTextFields(fields, CARD_FIELDS, []);
  if (id !== undefined) problems.push('id cannot be changed');
  if (position !== undefined && !(Number.isInteger(position) && (position as number) >= 0)) problems.push('position must be an integer from 0');
  if ('title' in fields && typeof fields.title === 'string' && fields.title.trim() === '') problems.push('title must be a non-empty string');
  if (Object.keys(input).length === 0) problems.push('the body names no field to change');
  if (problems.length > 0) throw invalid('card', problems);
  return { fields: fields as Partial<Omit<HomeCard, 'id'>>, position: position as number | undefined };
}

export function newCardId(): string {
  return crypto.randomUUID();
}

/** home.json, read and changed only through one queue so concurrent edits never lose each other. */
export class HomeContentFile {
  readonly #file: string;
  readonly #queue: KeyedQueue;

  constructor(contentDir: string, queue: KeyedQueue) {
    this.#file = path.join(contentDir, HOME_FILE);
    this.#queue = queue;
  }

  async read(): Promise<HomeFile> {
    let text: string;
    try {
      text = await fs.readFile(this.#file, 'utf8');
    } catch (err) {
      if (isMissing(err)) return emptyHomeFile();
      throw err;
    }
    try {
      return parseHomeFile(text);
    } catch (err) {
      throw err instanceof HomeFileError ? new HttpError(500, err.message) : err;
    }
  }

  /** Read-modify-write inside the queue, written atomically. */
  async change(edit: (current: HomeFile) => HomeFile): Promise<HomeFile> {
    return this.#queue.run(this.#file, async () => {
      const next = edit(await this.read());
      await fs.mkdir(path.dirname(this.#file), { recursive: true });
      await writeFileAtomic(this.#file, `${JSON.stringify(next, null, 2)}\n`);
      return next;
    });
  }
}
