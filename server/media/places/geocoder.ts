/**
 * The offline reverse geocoder (docs/api.md#what-is-known-of-a-file): the place names of a
 * position, from the nearest GeoNames city (city-index.ts) within MAX_KM, weighed by its size
 * (`nearest`), with no request to
 * any other host. Asked once per file as its facts are read during the preparation, never
 * per request. The index is loaded on the first position asked, once per process: a gallery
 * whose files carry no position never loads it.
 *
 * The names given: the city's (as GeoNames writes it, in English where it has an English
 * name: "Lisbon"), and its country's in every language the gallery is written in ("Portugal",
 * "Portogallo", "Portugalia", "البرتغال"…), so a search in any of them finds it. The data has
 * each city's first-level region as a code only, not a name: no region is given.
 */
import { around, distance } from 'geokdbush';
import { LANGUAGES } from '../../core/languages.js';
import type { StoredPosition } from '../dimensions-file.js';
import { type CityIndex, loadCityIndex } from './city-index.js';

/**
 * How far the nearest city may be to name where a photo was taken. Places of 1,000 people lie
 * closer than this wherever people live; past it (at sea, in a desert) a city's name, and the
 * country it gives, would be a guess.
 */
export const MAX_KM = 100;

/** Cities weighed against each other for a position: the nearest ones. */
const CANDIDATES = 16;

/** How far a city of `population` reaches from its centre, roughly: 1 km for a town, 7 for Lisbon, 15 for Paris, 29 for Tokyo. */
function reachKm(population: number): number {
  return Math.max(1, Math.sqrt(population) / 100);
}

/** The nearest city to a position, for its size. */
export interface NearestCity {
  readonly city: string;
  /** ISO 3166-1 alpha-2. */
  readonly countryCode: string;
}

export class CityGeocoder {
  #index: Promise<CityIndex> | undefined;

  constructor(private readonly load: () => Promise<CityIndex> = loadCityIndex) {}

  /** Whether the index was asked for (it is, once, on the first position). */
  get loaded(): boolean {
    return this.#index !== undefined;
  }

  /** The nearest city within MAX_KM of `position`; undefined when there is none. Rejects when the data cannot be loaded. */
  async nearest(position: StoredPosition): Promise<NearestCity | undefined> {
    this.#index ??= this.load();
    const index = await this.#index;
    // A city is a point, its centre: the Eiffel Tower is nearer Neuilly's centre than Paris's.
    // So among the nearest few, the one nearest for its size wins (a town's centre must be
    // close, a capital's may be kilometres away). Cities are found by the number they were
    // added to the tree with, by which their names and countries are kept.
    let best: { id: number; score: number } | undefined;
    for (const id of around(index.tree, position.lon, position.lat, CANDIDATES, MAX_KM)) {
      const [lon, lat] = index.position(id);
      const score = distance(position.lon, position.lat, lon, lat) / reachKm(index.population(id));
      if (best === undefined || score < best.score) best = { id, score };
    }
    return best === undefined ? undefined : { city: index.name(best.id), countryCode: index.country(best.id) };
  }

  /** The names of where `position` is: the nearest city's, then its country's in the gallery's languages; none far from any city. */
  async placesAt(position: StoredPosition): Promise<string[]> {
    const nearest = await this.nearest(position);
    return nearest ? [nearest.city, ...countryNames(nearest.countryCode)] : [];
  }
}

/** The process's geocoder: its index is loaded once, on the first position any file has. */
export const cityGeocoder = new CityGeocoder();

/** Intl's name of a region in each of the gallery's languages, English first, made on first need. */
let displayNames: Intl.DisplayNames[] | undefined;

/** A country's names in the gallery's languages, English first, without repeats; none for a code Intl does not know. */
export function countryNames(code: string): string[] {
  displayNames ??= LANGUAGES.map((language) => new Intl.DisplayNames([language.code], { type: 'region', fallback: 'none' }));
  const names: string[] = [];
  for (const inLanguage of displayNames) {
    let name: string | undefined;
    try {
      name = inLanguage.of(code);
    } catch {
      // Not a well-formed region code: a damaged record of the data.
      return [];
    }
    if (name !== undefined && !names.includes(name)) names.push(name);
  }
  return names;
}
