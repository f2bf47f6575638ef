/** The cameras the albums were "shot" with, and plausible exposures for each kind of light. */
import type { Camera, Shot } from '../image-fixtures/camera-exif.js';
import type { Rng } from './painter/rng.js';

export const CAMERAS = {
  fuji: { make: 'FUJIFILM', model: 'X-T5', lens: 'XF16-55mmF2.8 R LM WR', software: 'Digital Camera X-T5 Ver2.10' },
  sony: { make: 'SONY', model: 'ILCE-7RM4', lens: 'FE 24-70mm F2.8 GM II', software: 'ILCE-7RM4 v2.00' },
  canon: { make: 'Canon', model: 'Canon EOS R5', lens: 'RF85mm F1.2 L USM', software: 'Firmware Version 1.8.1' },
  canon50: { make: 'Canon', model: 'Canon EOS R6m2', lens: 'RF50mm F1.2 L USM', software: 'Firmware Version 1.2.0' },
  nikon: { make: 'NIKON CORPORATION', model: 'NIKON Z 6_2', lens: 'NIKKOR Z 24-120mm f/4 S', software: 'Ver.01.50' },
  iphone: { make: 'Apple', model: 'iPhone 15 Pro', lens: 'iPhone 15 Pro back triple camera 6.765mm f/1.78', software: '17.4.1', fixedAperture: 1.78 },
  ricoh: { make: 'RICOH IMAGING COMPANY, LTD.', model: 'RICOH GR III', lens: 'GR LENS 18.3mm F2.8', software: 'GR III Ver 2.10' },
  olympus: { make: 'OM Digital Solutions', model: 'OM-1', lens: 'M.Zuiko Digital ED 12-40mm F2.8 PRO II', software: 'Version 1.6' },
} satisfies Record<string, Camera>;

export type Light = 'day' | 'golden' | 'night' | 'indoor';

const EXPOSURES: Record<Light, { f: number[]; t: string[]; iso: number[] }> = {
  day: { f: [5.6, 8, 11], t: ['1/250', '1/320', '1/500', '1/640'], iso: [64, 100, 160] },
  golden: { f: [2.8, 4, 5.6, 8], t: ['1/60', '1/125', '1/200'], iso: [100, 200, 400] },
  night: { f: [1.8, 2.8, 4], t: ['1/15', '1/30', '1/8', '2/1'], iso: [800, 1600, 3200, 6400] },
  indoor: { f: [1.2, 1.4, 2, 2.8], t: ['1/60', '1/100', '1/160'], iso: [400, 800, 1600, 3200] },
};

export function shotFor(rng: Rng, light: Light, focals: number[], date: Date): Shot {
  const e = EXPOSURES[light];
  const p = (v: number) => String(v).padStart(2, '0');
  return {
    fNumber: rng.pick(e.f),
    exposure: rng.pick(e.t),
    iso: rng.pick(e.iso),
    focal: rng.pick(focals),
    date: `${date.getUTCFullYear()}:${p(date.getUTCMonth() + 1)}:${p(date.getUTCDate())} ${p(date.getUTCHours())}:${p(date.getUTCMinutes())}:${p(date.getUTCSeconds())}`,
  };
}
