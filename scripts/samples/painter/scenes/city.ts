/** A skyline at night or dusk over water or a road, optionally with a suspension bridge. */
import { mix } from '../colour.js';
import { addBokeh, addMoon, addReflection, addSky, addStars, addSun, addVignette } from '../pieces.js';
import type { Rng } from '../rng.js';
import { areaPath, ridgePoints } from '../shapes.js';
import { n, Svg } from '../svg.js';

export interface CityOptions {
  sky: string[];
  horizon: number;
  building: string;
  windowColors: string[];
  lit: number;
  moon?: boolean;
  stars?: number;
  water?: boolean;
  bokeh?: string[];
  bridge?: string;
  sun?: { x: number; y: number; r: number; core: string; glow: string };
}

function buildingRow(rng: Rng, w: number, ground: number, hMin: number, hMax: number, color: string, o: CityOptions, scale: number): string {
  const parts: string[] = [];
  let x = -rng.range(0, 40);
  while (x < w) {
    const bw = rng.range(50, 150) * scale;
    const bh = rng.range(hMin, hMax);
    const top = ground - bh;
    const shade = mix(color, '#000000', rng.range(0, 0.35));
    parts.push(`<rect x="${n(x)}" y="${n(top)}" width="${n(bw + 1)}" height="${n(bh + 2)}" fill="${shade}"/>`);
    if (rng.chance(0.25)) {
      // roof box / antenna
      const aw = bw * rng.range(0.2, 0.5);
      parts.push(`<rect x="${n(x + bw * 0.2)}" y="${n(top - bh * 0.06)}" width="${n(aw)}" height="${n(bh * 0.06 + 1)}" fill="${shade}"/>`);
      if (rng.chance(0.5)) {
        parts.push(`<rect x="${n(x + bw * 0.5)}" y="${n(top - bh * 0.22)}" width="${n(2 * scale)}" height="${n(bh * 0.22)}" fill="${shade}"/>`);
        parts.push(`<circle cx="${n(x + bw * 0.5 + scale)}" cy="${n(top - bh * 0.22)}" r="${n(2.5 * scale)}" fill="#ff4a3a" opacity="0.9"/>`);
      }
    }
    const cw = 9 * scale;
    const ch = 14 * scale;
    const ww = cw * 0.55;
    const wh = ch * 0.55;
    const litP = o.lit * rng.range(0.5, 1.4);
    const warm = rng.pick(o.windowColors);
    for (let wy = top + ch; wy < ground - ch; wy += ch) {
      const floorLit = rng.chance(0.15) ? litP * 2 : litP;
      for (let wx = x + cw * 0.7; wx < x + bw - cw * 0.7; wx += cw) {
        if (rng.chance(floorLit)) {
          const c = rng.chance(0.8) ? warm : rng.pick(o.windowColors);
          parts.push(`<rect x="${n(wx)}" y="${n(wy)}" width="${n(ww)}" height="${n(wh)}" fill="${c}" opacity="${n(rng.range(0.55, 1))}"/>`);
        }
      }
    }
    x += bw + rng.range(-5, 12) * scale;
  }
  return parts.join('');
}

export function cityScene(rng: Rng, w: number, h: number, o: CityOptions): Svg {
  const svg = new Svg(w, h);
  const ground = h * o.horizon;
  const cityId = svg.id('city');
  const parts: string[] = [];
  const grab = (fn: () => void) => {
    parts.push(...svg.capture(fn));
  };
  grab(() => addSky(svg, o.sky, o.horizon));
  if (o.stars) grab(() => addStars(svg, rng, o.stars!, ground * 0.6));
  if (o.moon) grab(() => addMoon(svg, rng.range(0.15, 0.85) * w, rng.range(0.1, 0.25) * h, w * 0.025));
  if (o.sun) grab(() => addSun(svg, o.sun!.x * w, o.sun!.y * h, o.sun!.r * w, o.sun!.core, o.sun!.glow));
  // a distant hill line behind the city
  grab(() =>
    svg.add(
      `<path d="${areaPath(ridgePoints(rng, w, ground - h * 0.12, h * 0.05, 0.55), ground + 2)}" fill="${mix(o.building, o.sky[o.sky.length - 1]!, 0.55)}"/>`,
    ),
  );
  const far = mix(o.building, o.sky[o.sky.length - 1]!, 0.35);
  grab(() => svg.add(`<g>${buildingRow(rng, w, ground, h * 0.08, h * 0.3, far, { ...o, lit: o.lit * 0.8 }, 0.6)}</g>`));
  grab(() =>
    svg.add(
      `<rect x="0" y="${n(ground - h * 0.35)}" width="${w}" height="${n(h * 0.35)}" fill="${svg.linear([
        [0, o.sky[o.sky.length - 1]!, 0],
        [1, o.sky[o.sky.length - 1]!, 0.25],
      ])}"/>`,
    ),
  );
  grab(() => svg.add(`<g>${buildingRow(rng, w, ground, h * 0.05, h * 0.22, o.building, o, 0.9)}</g>`));
  if (o.bridge) grab(() => addBridge(svg, rng, ground, o.bridge!));
  svg.def(`<g id="${cityId}">${parts.join('')}</g>`);
  svg.add(`<use xlink:href="#${cityId}" href="#${cityId}"/>`);

  if (o.water) {
    addReflection(svg, rng, cityId, ground, 0.75, ['#02060f', 0.3, 0.8]);
    const ripples: string[] = [];
    for (let i = 0; i < 120; i += 1) {
      const y = ground + (h - ground) * rng.next() ** 1.5;
      ripples.push(
        `<rect x="${n(rng.range(-0.1, 1) * w)}" y="${n(y)}" width="${n(rng.range(0.02, 0.15) * w)}" height="${n(rng.range(0.6, 2))}" fill="${rng.pick(o.windowColors)}" opacity="${n(rng.range(0.05, 0.22))}"/>`,
      );
    }
    svg.add(`<g filter="${svg.blur(1.5, 0.7)}">${ripples.join('')}</g>`);
  } else {
    // an embankment road: long-exposure light trails, street lamps
    svg.add(
      `<rect x="0" y="${n(ground)}" width="${w}" height="${n(h - ground)}" fill="${svg.linear([
        [0, mix(o.building, '#000000', 0.3)],
        [1, '#040508'],
      ])}"/>`,
    );
    const road = ground + (h - ground) * 0.45;
    const trails: string[] = [];
    for (let i = 0; i < 26; i += 1) {
      const red = i % 2 === 0;
      const y = road + rng.range(-1, 1) * (h - ground) * 0.12 + (red ? -6 : 6);
      const x = rng.range(-0.3, 0.6) * w;
      trails.push(
        `<rect x="${n(x)}" y="${n(y)}" width="${n(rng.range(0.3, 0.9) * w)}" height="${n(rng.range(1.5, 4))}" fill="${red ? '#ff3b2f' : '#fff2d0'}" opacity="${n(rng.range(0.4, 0.9))}"/>`,
      );
    }
    svg.add(`<g filter="${svg.blur(2.5, 1.5)}">${trails.join('')}</g>`);
    svg.add(`<g>${trails.join('')}</g>`.replace(/opacity="[\d.]+"/g, 'opacity="0.5"').replace(/height="[\d.]+"/g, 'height="1"'));
    for (let x = rng.range(0, 0.1) * w; x < w; x += w * 0.16) {
      const top = ground + (h - ground) * 0.08;
      svg.add(`<rect x="${n(x)}" y="${n(top)}" width="3" height="${n(road - top)}" fill="#0b0c10"/>`);
      svg.add(
        `<circle cx="${n(x + 1.5)}" cy="${n(top)}" r="${n(w * 0.03)}" fill="${svg.radial([
          [0, '#ffcf80', 0.7],
          [1, '#ffcf80', 0],
        ])}"/>`,
      );
      svg.add(`<circle cx="${n(x + 1.5)}" cy="${n(top)}" r="4" fill="#fff3d6"/>`);
    }
  }
  if (o.bokeh) addBokeh(svg, rng, 28, o.bokeh, w * 0.02, w * 0.07, 0.55, 1.0);
  addVignette(svg, 0.5);
  return svg;
}

/** A red suspension bridge (think Ponte 25 de Abril) spanning the frame above the water line. */
function addBridge(svg: Svg, rng: Rng, ground: number, color: string): void {
  const { w, h } = svg;
  const deck = ground - h * 0.09;
  const towers = [w * rng.range(0.18, 0.26), w * rng.range(0.7, 0.8)];
  const top = deck - h * 0.3;
  const dark = mix(color, '#1a0d0d', 0.55);
  const parts: string[] = [];
  // deck
  parts.push(`<rect x="0" y="${n(deck)}" width="${w}" height="${n(h * 0.018)}" fill="${dark}"/>`);
  parts.push(`<rect x="0" y="${n(deck + h * 0.018)}" width="${w}" height="${n(h * 0.006)}" fill="${mix(dark, '#000000', 0.4)}"/>`);
  for (const tx of towers) {
    const tw = w * 0.012;
    parts.push(`<rect x="${n(tx - tw * 1.6)}" y="${n(top)}" width="${n(tw)}" height="${n(ground - top)}" fill="${color}"/>`);
    parts.push(`<rect x="${n(tx + tw * 0.6)}" y="${n(top)}" width="${n(tw)}" height="${n(ground - top)}" fill="${mix(color, '#000000', 0.25)}"/>`);
    for (const fy of [0.05, 0.35, 0.7]) {
      parts.push(`<rect x="${n(tx - tw * 1.6)}" y="${n(top + (deck - top) * fy)}" width="${n(tw * 3.2)}" height="${n(tw * 0.8)}" fill="${color}"/>`);
    }
  }
  // main cables: outside spans and central span
  const [a, b] = towers as [number, number];
  const sag = deck - h * 0.02;
  const cable = (x0: number, y0: number, cx: number, cy: number, x1: number, y1: number) =>
    `<path d="M${n(x0)},${n(y0)} Q${n(cx)},${n(cy)} ${n(x1)},${n(y1)}" fill="none" stroke="${dark}" stroke-width="${n(h * 0.004)}"/>`;
  parts.push(cable(a, top, (a + b) / 2, sag + (sag - top) * 1.0 - (deck - top) * 0.05, b, top));
  parts.push(cable(a, top, a * 0.6, deck - (deck - top) * 0.15, -w * 0.05, deck));
  parts.push(cable(b, top, b + (w - b) * 0.4, deck - (deck - top) * 0.15, w * 1.05, deck));
  // hangers under the central span
  const hangers = 40;
  for (let i = 1; i < hangers; i += 1) {
    const t = i / hangers;
    const x = a + (b - a) * t;
    // y on the quadratic: (1-t)^2 top + 2t(1-t) c + t^2 top
    const cy = sag + (sag - top) * 1.0 - (deck - top) * 0.05;
    const y = (1 - t) ** 2 * top + 2 * t * (1 - t) * cy + t ** 2 * top;
    parts.push(`<rect x="${n(x)}" y="${n(y)}" width="${n(Math.max(1, w * 0.0008))}" height="${n(Math.max(0, deck - y))}" fill="${dark}" opacity="0.8"/>`);
  }
  svg.add(`<g>${parts.join('')}</g>`);
}
