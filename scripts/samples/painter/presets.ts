/** The named looks the album table asks for: one scene with its palette, light and randomness. */
import type { Rng } from './rng.js';
import { bokehScene } from './scenes/bokeh.js';
import { cityScene } from './scenes/city.js';
import { gardenScene } from './scenes/garden.js';
import { mountainScene } from './scenes/mountains.js';
import { portraitScene } from './scenes/portrait.js';
import { rooftopScene } from './scenes/rooftops.js';
import type { Svg } from './svg.js';

export type SceneFactory = (rng: Rng, w: number, h: number) => Svg;

const SUNSET_SKY = ['#2a1d4f', '#7b3a72', '#e0664a', '#ffb765', '#ffd89a'];
const ALPINE_SKY = ['#2f62ad', '#6ea2dc', '#bcd9f2', '#e6f1f8'];
const DAWN_SKY = ['#3e4d86', '#9b7fae', '#f0a8a0', '#fbd3aa'];
const BLUE_HOUR = ['#0b1430', '#1f3566', '#4d6ea8', '#90a9cf'];
const NIGHT_SKY = ['#03050d', '#0a1429', '#1b2c52', '#3a4d7a'];
const WARM_WINDOWS = ['#ffd27a', '#ffe3a8', '#ffb85c', '#fff1cf', '#9fd0ff'];

export const scenes = {
  lisbonRooftops: ((rng, w, h) =>
    rooftopScene(rng, w, h, {
      sky: ['#6c8fc7', '#e9b78b', '#ffd9a0', '#ffe9c4'],
      sun: { x: rng.range(0.6, 0.85), y: rng.range(0.18, 0.3), r: 0.03, core: '#fff6dc', glow: '#ffcf86' },
      facades: ['#f2cf6b', '#eaa39b', '#9cc3dc', '#f3ede0', '#e49a63', '#c7d9b0'],
      roof: '#b4532f',
      haze: '#f6d3a8',
      river: rng.chance(0.5) ? '#6f88a8' : undefined,
    })) as SceneFactory,
  lisbonBridge: ((rng, w, h) =>
    cityScene(rng, w, h, {
      sky: SUNSET_SKY,
      horizon: 0.66,
      building: '#2a1b2e',
      windowColors: WARM_WINDOWS,
      lit: 0.12,
      water: true,
      bridge: '#c8412e',
      sun: { x: rng.range(0.4, 0.6), y: rng.range(0.48, 0.56), r: 0.035, core: '#fff0c8', glow: '#ff9a4f' },
    })) as SceneFactory,
  lisbonDusk: ((rng, w, h) =>
    cityScene(rng, w, h, {
      sky: ['#1c2550', '#514a82', '#c77a83', '#f4b78a'],
      horizon: 0.7,
      building: '#231a2c',
      windowColors: WARM_WINDOWS,
      lit: 0.35,
      water: true,
      stars: 40,
    })) as SceneFactory,
  alpsDay: ((rng, w, h) =>
    mountainScene(rng, w, h, {
      sky: ALPINE_SKY,
      horizon: 0.6,
      far: '#6d7f9c',
      near: '#1f3b2a',
      layers: 5,
      snow: '#fbfdff',
      forest: true,
      clouds: { color: '#ffffff', opacity: 0.9 },
      sun: { x: rng.range(0.1, 0.9), y: 0.1, r: 0.016, core: '#ffffff', glow: '#fff8e0' },
    })) as SceneFactory,
  alpsLake: ((rng, w, h) =>
    mountainScene(rng, w, h, {
      sky: ALPINE_SKY,
      horizon: 0.6,
      far: '#6d7f9c',
      near: '#1f3b2a',
      layers: 4,
      snow: '#fbfdff',
      forest: true,
      clouds: { color: '#ffffff', opacity: 0.8 },
      lake: { level: 0.68, tint: '#0f3550' },
    })) as SceneFactory,
  alpsDawn: ((rng, w, h) =>
    mountainScene(rng, w, h, {
      sky: DAWN_SKY,
      horizon: 0.6,
      far: '#a996b8',
      near: '#2c2640',
      layers: 5,
      snow: '#ffd9d0',
      forest: true,
      clouds: { color: '#ffc0b0', opacity: 0.5 },
      sun: { x: rng.range(0.2, 0.8), y: 0.5, r: 0.025, core: '#fff2d8', glow: '#ffb28a' },
      lake: { level: 0.72, tint: '#2b2948' },
      wash: '#ffb48a',
    })) as SceneFactory,
  alpsBlueHour: ((rng, w, h) =>
    mountainScene(rng, w, h, {
      sky: BLUE_HOUR,
      horizon: 0.62,
      far: '#4f6a99',
      near: '#0c1426',
      layers: 4,
      snow: '#dbe6ff',
      stars: 160,
      forest: true,
      moon: { x: rng.range(0.2, 0.8), y: 0.18, r: 0.02 },
      lake: { level: 0.74, tint: '#050b18' },
    })) as SceneFactory,
  sunsetSea: ((rng, w, h) =>
    mountainScene(rng, w, h, {
      sky: SUNSET_SKY,
      horizon: 0.58,
      far: '#6a3a60',
      near: '#1c1024',
      layers: 2,
      peakiness: 0.3,
      sun: { x: rng.range(0.3, 0.7), y: 0.5, r: 0.04, core: '#fff3cf', glow: '#ff8a45' },
      clouds: { color: '#ff9e7a', opacity: 0.6 },
      lake: { level: 0.6, tint: '#2a1030' },
      wash: '#ff9350',
    })) as SceneFactory,
  cityNight: ((rng, w, h) =>
    cityScene(rng, w, h, {
      sky: NIGHT_SKY,
      horizon: 0.64,
      building: '#101626',
      windowColors: WARM_WINDOWS,
      lit: 0.42,
      moon: rng.chance(0.6),
      stars: 120,
      water: true,
      bokeh: rng.chance(0.6) ? ['#ffb347', '#ff6f61', '#7fd3ff', '#ffe08a'] : undefined,
    })) as SceneFactory,
  cityTrails: ((rng, w, h) =>
    cityScene(rng, w, h, {
      sky: ['#060a18', '#13204a', '#34477a', '#6b5f86'],
      horizon: 0.6,
      building: '#0e1322',
      windowColors: WARM_WINDOWS,
      lit: 0.38,
      stars: 60,
    })) as SceneFactory,
  weddingBokeh: ((rng, w, h) =>
    bokehScene(rng, w, h, {
      background: ['#2a1a14', '#0d0806'],
      colors: ['#ffd9a0', '#ffc27a', '#fff0d4', '#f7b0a0'],
      count: 70,
      couple: '#050302',
      lights: rng.chance(0.5) ? '#ffd48a' : undefined,
    })) as SceneFactory,
  receptionTable: ((rng, w, h) =>
    bokehScene(rng, w, h, {
      background: ['#3a2418', '#120a06'],
      colors: ['#ffd9a0', '#ffb86b', '#fff0d4'],
      count: 60,
      lights: '#ffd48a',
      table: '#c9b596',
    })) as SceneFactory,
  weddingGarden: ((rng, w, h) =>
    gardenScene(rng, w, h, {
      sky: ['#f6c8a0', '#fde3c0', '#fff1dc'],
      hills: ['#c9c89a', '#5d7a3a'],
      trees: '#47632c',
      sun: { x: rng.range(0.2, 0.8), y: 0.38, r: 0.03, core: '#fffaf0', glow: '#ffd6a0' },
      flowers: ['#ffffff', '#f7c6d0', '#fff2a8'],
      couple: true,
    })) as SceneFactory,
  gardenDay: ((rng, w, h) =>
    gardenScene(rng, w, h, {
      sky: ['#5a9be0', '#a9cff0', '#e4f2fa'],
      hills: ['#9fc46a', '#2f5a1e'],
      trees: '#2e5a22',
      sun: { x: rng.range(0.1, 0.9), y: 0.1, r: 0.02, core: '#ffffff', glow: '#fff6d0' },
      flowers: ['#ff6b6b', '#ffd93d', '#ffffff', '#c77dff', '#ff9ff3'],
      lights: rng.chance(0.5) ? '#fff2b0' : undefined,
    })) as SceneFactory,
  gardenDusk: ((rng, w, h) =>
    gardenScene(rng, w, h, {
      sky: ['#23305a', '#6f5a8a', '#e49a7a', '#f7c89a'],
      hills: ['#4c5a48', '#14200f'],
      trees: '#1a2a14',
      flowers: ['#ffd9a0', '#ffffff', '#f4a6b8'],
      lights: '#ffd27a',
      dusk: true,
      bokeh: ['#ffd27a', '#ffb36b'],
    })) as SceneFactory,
  portraitWarm: ((rng, w, h) =>
    portraitScene(rng, w, h, {
      backdrop: ['#b88a6a', '#2b1a12'],
      skin: '#d9a684',
      rim: '#ffd9a8',
      hair: '#2a1810',
      clothes: '#3b2f2a',
      offset: rng.range(-0.12, 0.12),
      tilt: rng.range(-8, 8),
    })) as SceneFactory,
  portraitTeal: ((rng, w, h) =>
    portraitScene(rng, w, h, {
      backdrop: ['#5f8f95', '#0f2326'],
      skin: '#c98f6d',
      rim: '#ffb37a',
      hair: '#141010',
      clothes: '#1c2a2e',
      offset: rng.range(-0.15, 0.15),
      tilt: rng.range(-8, 8),
    })) as SceneFactory,
  portraitBokeh: ((rng, w, h) =>
    portraitScene(rng, w, h, {
      backdrop: ['#3a4a2a', '#0e130a'],
      skin: '#e0b090',
      rim: '#fff0c0',
      hair: '#5a3a1c',
      clothes: '#e8e2d4',
      bokeh: ['#fff0b0', '#ffd070', '#c8f0a0'],
      offset: rng.range(-0.1, 0.1),
      tilt: rng.range(-6, 6),
    })) as SceneFactory,
  portraitMono: ((rng, w, h) =>
    portraitScene(rng, w, h, {
      backdrop: ['#9a9a9a', '#151515'],
      skin: '#b0b0b0',
      rim: '#ffffff',
      hair: '#101010',
      clothes: '#202020',
      offset: rng.range(-0.12, 0.12),
      tilt: rng.range(-8, 8),
    })) as SceneFactory,
} satisfies Record<string, SceneFactory>;

export type SceneName = keyof typeof scenes;
