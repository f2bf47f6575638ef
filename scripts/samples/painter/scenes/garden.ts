/** Rolling hills with trees, a flowered lawn, and optionally a couple and string lights. */
import { mix } from '../colour.js';
import { foliageFilter } from '../filters.js';
import { addBokeh, addCloudLayer, addCouple, addSky, addStringLights, addSun, addVignette, addWash } from '../pieces.js';
import type { Rng } from '../rng.js';
import { hillPath } from '../shapes.js';
import { n, Svg } from '../svg.js';

export interface GardenOptions {
  sky: string[];
  hills: [string, string];
  trees: string;
  sun?: { x: number; y: number; r: number; core: string; glow: string };
  lights?: string;
  flowers: string[];
  dusk?: boolean;
  couple?: boolean;
  bokeh?: string[];
}

function addTree(parts: string[], rng: Rng, x: number, ground: number, size: number, color: string): void {
  const trunk = mix(color, '#2b1d12', 0.65);
  parts.push(
    `<path d="M${n(x - size * 0.05)},${n(ground)} L${n(x - size * 0.03)},${n(ground - size * 1.0)} L${n(x + size * 0.03)},${n(ground - size * 1.0)} L${n(x + size * 0.05)},${n(ground)} Z" fill="${trunk}"/>`,
  );
  // canopy: many overlapping leaf clumps, lit from the upper left
  const cx = x + rng.range(-0.1, 0.1) * size;
  const cy = ground - size * 1.25;
  const blobs = rng.int(12, 18);
  for (let i = 0; i < blobs; i += 1) {
    const a = rng.range(0, Math.PI * 2);
    const d = rng.range(0, 0.45) * size;
    const bx = cx + Math.cos(a) * d * 1.2;
    const by = cy + Math.sin(a) * d * 0.8;
    const light = (-(bx - cx) - (by - cy)) / size; // > 0 toward the upper left
    const r = size * rng.range(0.18, 0.32);
    parts.push(
      `<circle cx="${n(bx)}" cy="${n(by)}" r="${n(r)}" fill="${light > 0 ? mix(color, '#e0f0a0', Math.min(0.35, light * 0.6)) : mix(color, '#000000', Math.min(0.5, -light * 0.8))}"/>`,
    );
  }
}

export function gardenScene(rng: Rng, w: number, h: number, o: GardenOptions): Svg {
  const svg = new Svg(w, h);
  addSky(svg, o.sky, 0.5);
  if (o.sun) addSun(svg, o.sun.x * w, o.sun.y * h, o.sun.r * w, o.sun.core, o.sun.glow);
  if (!o.dusk) addCloudLayer(svg, rng, 0, h * 0.45, '#ffffff', 0.9);
  const layers = 3;
  for (let i = 0; i < layers; i += 1) {
    const t = i / (layers - 1);
    const color = mix(o.hills[0], o.hills[1], t);
    svg.add(`<path d="${hillPath(rng, w, h * (0.5 + 0.12 * t), h * 0.05, h + 10, rng.int(3, 5))}" fill="${color}"/>`);
    const parts: string[] = [];
    const trees = rng.int(3, 7);
    for (let k = 0; k < trees; k += 1) {
      addTree(parts, rng, rng.range(0, w), h * (0.53 + 0.12 * t + 0.02), h * (0.05 + 0.1 * t), mix(o.trees, o.hills[0], 0.4 * (1 - t)));
    }
    svg.add(`<g filter="${foliageFilter(svg, rng, 2 - t * 1.4, 0.05 / (0.5 + t))}">${parts.join('')}</g>`);
  }
  // lawn
  svg.add(
    `<path d="${hillPath(rng, w, h * 0.78, h * 0.03, h + 10, 3)}" fill="${svg.linear([
      [0, mix(o.hills[1], '#c8e07a', 0.25)],
      [1, mix(o.hills[1], '#0c1a08', 0.5)],
    ])}"/>`,
  );
  const flowers: string[] = [];
  for (let i = 0; i < 260; i += 1) {
    const y = h * (0.8 + 0.2 * rng.next());
    const r = (1 + (y / h - 0.8) * 25) * rng.range(0.6, 1.4);
    flowers.push(`<circle cx="${n(rng.range(0, w))}" cy="${n(y)}" r="${n(r)}" fill="${rng.pick(o.flowers)}" opacity="${n(rng.range(0.6, 1))}"/>`);
  }
  svg.add(`<g filter="${svg.blur(1)}">${flowers.join('')}</g>`);
  if (o.couple) {
    const s = Math.min(w, h) * 0.075;
    const fill = mix(o.hills[1], '#000000', 0.75);
    addCouple(svg, w * 0.5, h * 0.7, s, fill, 1.5, [
      [-0.8, 0, 8],
      [0.85, -0.25, -6],
    ]);
  }
  if (o.lights) addStringLights(svg, rng, o.lights);
  if (o.bokeh) addBokeh(svg, rng, 18, o.bokeh, w * 0.02, w * 0.06, 0, 0.45);
  addWash(svg, o.sun?.glow ?? '#ffd79a', 0.2, 0.9, 0.1);
  addVignette(svg, 0.45);
  return svg;
}
