/**
 * A QuickTime or MP4 movie's index (`moov`) served without a place (docs/api.md#location-privacy).
 * The whole tree is walked, header by header, with a keep-list per container: the boxes a
 * player needs (headers, edit lists, media and sample tables, handlers) are kept; user data
 * and metadata go through movie-metadata.ts; anything else (a `uuid` box, an unknown box)
 * becomes a `free` box with a zeroed body; `free` and `skip` bodies are zeroed.
 *
 * Tracks whose handler is not video, sound, image or timecode (`vide`, `soun`, `pict`,
 * `auxv`, `tmcd`) are timed metadata or text: a GoPro's `gpmd` GPS, `camm`, Apple's `mebx`,
 * the `tx3g` subtitles drones write their position into. Their samples are zeroed where they
 * lie (movie-samples.ts); such a track whose data lies in another file, or in the fragments
 * of a fragmented movie, cannot be followed: Unreadable, and the caller blanks the movie.
 * The frames and the sound are never touched, so the movie plays as before.
 */
import type { ByteSource } from '../byte-source.js';
import { type BytePatch, zeroPatch } from './byte-patches.js';
import { asFree, childrenOf, handlerType, type IsoBox, zeroBody } from './iso-boxes.js';
import { movieMetaPatches, userDataPatches } from './movie-metadata.js';
import { sampleSpans } from './movie-samples.js';
import { type Budget, MAX_PATCHES, Unreadable } from './walk.js';

/** Handlers of the tracks a player plays or needs: their samples are kept. */
const PLAYED = new Set(['vide', 'soun', 'pict', 'auxv', 'tmcd']);

/** What each container keeps as it is; a container named in WALKED is walked with its own list. */
const KEPT: Readonly<Record<string, ReadonlySet<string>>> = {
  moov: new Set(['mvhd', 'iods', 'mvex', 'pssh', 'clip', 'ctab']),
  trak: new Set(['tkhd', 'edts', 'tref', 'load', 'tapt', 'txas', 'imap', 'matt', 'kmat']),
  mdia: new Set(['mdhd', 'hdlr', 'elng']),
  minf: new Set(['vmhd', 'smhd', 'hmhd', 'nmhd', 'gmhd', 'sthd', 'hdlr', 'dinf']),
  stbl: new Set([
    'stsd',
    'stts',
    'ctts',
    'cslg',
    'stss',
    'stps',
    'stsh',
    'sdtp',
    'stsc',
    'stsz',
    'stz2',
    'stco',
    'co64',
    'padb',
    'sbgp',
    'sgpd',
    'subs',
    'saiz',
    'saio',
  ]),
  // A fragment of a fragmented movie: its header and its tracks' runs.
  moof: new Set(['mfhd', 'pssh']),
  traf: new Set(['tfhd', 'tfdt', 'trun', 'sbgp', 'sgpd', 'subs', 'saiz', 'saio', 'senc', 'sdtp']),
};
const WALKED = new Set(['trak', 'mdia', 'minf', 'stbl', 'traf']);

export interface MoviePatches {
  readonly patches: BytePatch[];
  /** Tracks whose samples were zeroed (timed metadata, text). */
  readonly metadataTracks: number;
}

/** The patches of the movie index `moov`, or of a fragment's `moof`. */
export async function moovPatches(source: ByteSource, moov: IsoBox, budget: Budget): Promise<MoviePatches> {
  const patches: BytePatch[] = [];
  let metadataTracks = 0;

  /** Walks a container by its keep-list; returns the boxes met on the way, by type, for the track's own questions. */
  const walk = async (container: IsoBox, met: IsoBox[]): Promise<void> => {
    const kept = KEPT[container.type]!;
    for (const box of await childrenOf(source, container.bodyAt, container.end, budget)) {
      met.push(box);
      budget.hold(patches, MAX_PATCHES);
      if (box.type === 'cmov') throw new Unreadable('a compressed movie index');
      if (kept.has(box.type)) continue;
      if (WALKED.has(box.type)) {
        if (box.type === 'trak') await track(box);
        else await walk(box, met);
      } else if (box.type === 'udta') patches.push(...(await userDataPatches(source, box, budget)));
      else if (box.type === 'meta') patches.push(...(await movieMetaPatches(source, box, budget)));
      else if (box.type === 'free' || box.type === 'skip') patches.push(...zeroBody(box));
      else patches.push(...asFree(box));
    }
  };

  const track = async (trak: IsoBox): Promise<void> => {
    const met: IsoBox[] = [];
    await walk(trak, met);
    const hdlr = met.find((b) => b.type === 'hdlr');
    const handler = hdlr ? handlerType(await source.read(hdlr.bodyAt, 12), 0) : '';
    if (PLAYED.has(handler)) return;
    const stbl = met.find((b) => b.type === 'stbl');
    if (!stbl) return; // no samples
    await selfContained(met.find((b) => b.type === 'dinf'));
    const tables = met.filter((b) => b.at >= stbl.bodyAt && b.end <= stbl.end);
    for (const span of await sampleSpans(source, tables, budget)) {
      const end = Math.min(span.end, source.size);
      if (end > span.at) patches.push(zeroPatch(span.at, end - span.at));
    }
    metadataTracks++;
  };

  /** A metadata track's samples must be in this file: its data references must all say "self". */
  const selfContained = async (dinf: IsoBox | undefined): Promise<void> => {
    if (!dinf) return;
    for (const dref of await childrenOf(source, dinf.bodyAt, dinf.end, budget)) {
      if (dref.type !== 'dref') continue;
      // Version and flags, entry count, then entries: full boxes whose flag 1 means "in this file".
      for (const entry of await childrenOf(source, dref.bodyAt + 8, dref.end, budget)) {
        const flags = (await source.read(entry.bodyAt, 4)).readUInt32BE(0) & 0xffffff;
        if ((flags & 1) === 0) throw new Unreadable('a metadata track whose data lies in another file');
      }
    }
  };

  await walk(moov, []);
  return { patches, metadataTracks };
}
