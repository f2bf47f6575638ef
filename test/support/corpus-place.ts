/**
 * The place every file of the location corpus (location-corpus.ts) records, in each form the
 * tools write it, and the oracle's two ways of finding it again: what ExifTool reports, and
 * the raw bytes (for the containers ExifTool does not read, such as a WebP's `XMP\0`).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { onPath } from './redis-server.js';

const run = promisify(execFile);

/** Lisbon, Belém: where the corpus was "taken". */
export const PLACE = Object.freeze({
  latitude: 38.710417,
  longitude: -9.139889,
  altitude: 45,
  /** ISO 6709, as phones and ffmpeg's `-metadata location=` write it. */
  iso6709: '+38.7104-009.1399+045.000/',
  city: 'Lisbon',
  state: 'Lisboa',
  country: 'Portugal',
  sublocation: 'Belem',
  /** A landmark's name, for the free-text fields (captions, comments, subtitles). */
  landmark: 'Jeronimos',
});

/** Every place name the corpus writes: none may be left in a served file, in any encoding the tools use. */
export const PLACE_NAMES: readonly string[] = [PLACE.city, PLACE.state, PLACE.country, PLACE.sublocation, PLACE.landmark];

/** The position as ExifTool prints it with `-n` (decimal degrees), whatever the container. */
const COORDINATES = /38\.710|38\.7104|-?9\.139[89]/;

/** Tag names that hold a position or a place (SubjectLocation and SubjectArea are a point in the frame, not on Earth). */
const PLACE_TAG = /^(GPS\w*|\w*Location\w*|\w*Coordinates\w*|City\w*|Country\w*|Province\w*|State|Sub-?location\w*|WorldRegion|Landmark|Geo\w*|LocationName)$/i;
const NOT_A_PLACE = /^(SubjectLocation|SubjectArea|FocusLocation|AFPointLocation|GPSVersionID)$/i;

/** The tools the oracle test needs, and their Debian packages: the test skips with this message when one is missing. */
export function missingTools(): string[] {
  const need: [string, string][] = [
    ['exiftool', 'libimage-exiftool-perl'],
    ['/usr/bin/convert', 'imagemagick'],
  ];
  return need.filter(([command]) => !onPath(command)).map(([, pkg]) => pkg);
}

/** ExifTool's `-j -G1` record of one file. */
export type ExifToolRecord = Readonly<Record<string, unknown>>;

/** ExifTool over `files`, in one run: every tag, every group, embedded documents and timed metadata included. */
export async function exiftool(files: readonly string[]): Promise<Map<string, ExifToolRecord>> {
  const { stdout } = await run('exiftool', ['-j', '-a', '-G1', '-ee3', '-U', '-n', '-api', 'LargeFileSupport=1', ...files], {
    maxBuffer: 256 * 1024 * 1024,
  }).catch((err: { stdout?: string }) => {
    // ExifTool exits 1 when a file has an error; its JSON is still complete.
    if (typeof err.stdout === 'string' && err.stdout.startsWith('[')) return { stdout: err.stdout };
    throw err;
  });
  const records = JSON.parse(stdout) as ExifToolRecord[];
  return new Map(records.map((r) => [String(r.SourceFile), r]));
}

/** What ExifTool reports of a place in one file: `Group:Tag = value` lines, empty when none. */
export function placesReported(record: ExifToolRecord): string[] {
  const found: string[] = [];
  for (const [key, raw] of Object.entries(record)) {
    if (key === 'SourceFile' || key.startsWith('System:') || key.startsWith('ExifTool:')) continue;
    const tag = key.slice(key.indexOf(':') + 1).replace(/^Doc\d+:/, '');
    const value = typeof raw === 'string' ? raw : JSON.stringify(raw);
    const named = PLACE_TAG.test(tag) && !NOT_A_PLACE.test(tag) && isSomething(raw);
    const mentions = COORDINATES.test(value) || PLACE_NAMES.some((name) => value.toLowerCase().includes(name.toLowerCase()));
    if (named || mentions) found.push(`${key} = ${value.slice(0, 120)}`);
  }
  return found;
}

/** A value that says something: not empty, not only zeros, spaces or NULs. */
function isSomething(raw: unknown): boolean {
  if (raw === null || raw === undefined) return false;
  if (typeof raw === 'number') return raw !== 0;
  const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
  return !/^[\s0.,:\-+/"[\]{}]*$/.test(text) && !/^\(Binary data 0 bytes/.test(text);
}

/** The place names found in the bytes themselves (Latin-1/UTF-8 and UTF-16 either way), wherever they are. */
export function placesInBytes(bytes: Buffer): string[] {
  const found: string[] = [];
  for (const name of PLACE_NAMES) {
    const forms = [Buffer.from(name, 'latin1'), Buffer.from(name, 'utf16le'), Buffer.from(name, 'utf16le').swap16()];
    if (forms.some((f) => bytes.includes(f))) found.push(name);
  }
  if (bytes.includes(Buffer.from(PLACE.iso6709.slice(0, 9), 'latin1'))) found.push(PLACE.iso6709);
  return found;
}
