import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../core/fs-atomic.js';
import { HttpError, badRequest } from '../core/errors.js';
import { isMissing } from '../core/paths.js';
import { parseJsonObject } from './json-object.js';
import type { KeyedQueue } from './keyed-queue.js';
import { isWebImage } from '../core/media-catalogue.js';
import { type HomeCard, type HomeIntro, type HomeContent as PublicHomeContent, isSafeLink } from '../core/home-content.js';

/** The home page content file of the home page (docs/api.md#pages), under CONTENT_DIR. */
export const HOME_FILE = 'home.json';

export type { HomeCard, HomeIntro } from '../core/home-content.js';

/** home.json; keys the admin does not know (added by hand or by a later version) are kept as they are. */
export interface HomeContent extends PublicHomeContent {
  readonly [other: string]: unknown;
}

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
  return !/[/\\\u0000-\u001f\u007f]/.test(value) && !value.startsWith('.') && isWebImage(value);
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

  async read(): Promise<HomeContent> {
    let text: string;
    try {
      text = await fs.readFile(this.#file, 'utf8');
    } catch (err) {
      if (isMissing(err)) return { intro: { title: '', body: '' }, cards: [] };
      throw err;
    }
    return parseHomeContent(text);
  }

  /** Read-modify-write inside the queue, written atomically. */
  async change(edit: (current: HomeContent) => HomeContent): Promise<HomeContent> {
    return this.#queue.run(this.#file, async () => {
      const next = edit(await this.read());
      await fs.mkdir(path.dirname(this.#file), { recursive: true });
      await writeFileAtomic(this.#file, `${JSON.stringify(next, null, 2)}\n`);
      return next;
    });
  }
}

/** Parses home.json leniently (missing parts get defaults) but refuses a file that is not an object. */
function parseHomeContent(text: string): HomeContent {
  const raw = parseJsonObject(text);
  if (!raw) {
    throw new HttpError(500, `${HOME_FILE} in CONTENT_DIR is not a JSON object; fix it by hand first`);
  }
  const record = raw;
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const intro = (typeof record.intro === 'object' && record.intro !== null ? record.intro : {}) as Record<string, unknown>;
  const cards = (Array.isArray(record.cards) ? record.cards : [])
    .filter((c): c is Record<string, unknown> => typeof c === 'object' && c !== null)
    .map((c, i) => ({
      // A card written by hand without an id gets a stable one (its place), so it can be
      // edited and deleted here; the first write stores it.
      id: typeof c.id === 'string' && c.id !== '' ? c.id : `card-${i + 1}`,
      title: str(c.title),
      description: str(c.description),
      image: str(c.image),
      link: str(c.link),
    }));
  return { ...record, intro: { ...intro, title: str(intro.title), body: str(intro.body) }, cards };
}
