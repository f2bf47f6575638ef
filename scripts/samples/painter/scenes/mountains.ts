/** Ridges, snow, forests and an optional lake that mirrors them: the Alps and the sunsets. */
import { mix } from '../colour.js';
import { rockFilter, snowFilter } from '../filters.js';
import { addCloudLayer, addFacets, addMoon, addPines, addReflection, addSky, addStars, addSun, addVignette, addWash } from '../pieces.js';
import type { Rng } from '../rng.js';
import { areaPath, ridgePoints } from '../shapes.js';
import { n, Svg } from '../svg.js';

export interface MountainOptions {
  sky: string[];
  horizon: number;
  far: string;
  near: string;
  layers: number;
  sun?: { x: number; y: number; r: number; core: string; glow: string };
  moon?: { x: number; y: number; r: number };
  stars?: number;
  clouds?: { color: string; opacity: number };
  snow?: string;
  forest?: boolean;
  meadow?: string;
  lake?: { level: number; tint: string };
  wash?: string;
  peakiness?: number;
}

export function mountainScene(rng: Rng, w: number, h: number, o: MountainOptions): Svg {
  const svg = new Svg(w, h);
  const waterY = o.lake ? o.lake.level * h : h;
  const landId = svg.id('land');
  const hazeColor = o.sky[o.sky.length - 1]!;
  // Sky, sun, clouds and ridges form one group, drawn once as is and once mirrored in the lake.
  const group: string[] = [];
  const before = (fn: () => void) => {
    group.push(...svg.capture(fn));
  };
  before(() => addSky(svg, o.sky, o.horizon));
  if (o.stars) before(() => addStars(svg, rng, o.stars!, waterY * 0.7));
  if (o.sun) before(() => addSun(svg, o.sun!.x * w, o.sun!.y * h, o.sun!.r * w, o.sun!.core, o.sun!.glow));
  if (o.moon) before(() => addMoon(svg, o.moon!.x * w, o.moon!.y * h, o.moon!.r * w));
  if (o.clouds) before(() => addCloudLayer(svg, rng, 0, h * o.horizon * 0.75, o.clouds!.color, o.clouds!.opacity));

  const peak = o.peakiness ?? 1;
  for (let i = 0; i < o.layers; i += 1) {
    const t = o.layers === 1 ? 1 : i / (o.layers - 1);
    const base = h * (o.horizon - 0.26 * (1 - t) * peak + (o.lake ? 0 : 0.14 * t));
    const hills = o.forest === true && t >= 0.5;
    const amp = h * (hills ? 0.05 : 0.24 - 0.12 * t) * peak;
    const pts = ridgePoints(rng, w, Math.min(base, waterY - 2), amp, hills ? 0.42 : rng.range(0.52, 0.6), 8);
    if (!hills && t < 0.5) {
      // one massif that clearly stands out
      const mx = rng.range(0.15, 0.85) * w;
      const mw = rng.range(0.12, 0.25) * w;
      for (const pt of pts) pt[1] -= amp * 0.6 * Math.exp(-(((pt[0] - mx) / mw) ** 2));
    }
    // keep summits inside the frame
    const highest = Math.min(...pts.map(([, y]) => y));
    if (highest < h * 0.12) for (const pt of pts) pt[1] = h * 0.12 + (pt[1] - highest) * 0.85;
    const clamp = pts.map(([x, y]) => [x, Math.min(y, waterY - 1)] as [number, number]);
    const color = mix(o.far, o.near, t);
    const forested = o.forest === true && t >= 0.5;
    // the nearest layer of a scene without a lake is an alpine meadow below the tree line
    const meadow = forested && t === 1 && !o.lake;
    const fill = meadow
      ? svg.linear([
          [0, mix(color, o.meadow ?? '#7fa04a', 0.45)],
          [1, mix(color, '#000000', 0.2)],
        ])
      : forested
        ? mix(color, '#000000', 0.3)
        : svg.linear([
            [0, mix(color, '#ffffff', 0.12 * (1 - t))],
            [1, mix(color, hazeColor, 0.3 * (1 - t))],
          ]);
    const d = areaPath(clamp, waterY + 2);
    const clipId = svg.id('ridge');
    svg.def(`<clipPath id="${clipId}"><path d="${d}"/></clipPath>`);
    before(() => svg.add(`<path d="${d}" fill="${fill}"/>`));
    const rocky = peak > 0.5 && !forested;
    if (rocky) {
      // shadowed flanks, then a rock texture
      before(() => addFacets(svg, rng, clamp, amp, mix(color, '#0a0f1e', 0.6), `url(#${clipId})`, 0.5));
      before(() =>
        svg.add(
          `<path d="${d}" fill="#ffffff" filter="${rockFilter(svg, rng, 0.009 / (1 - 0.5 * t), 0.005 / (1 - 0.5 * t))}" style="mix-blend-mode:soft-light" opacity="${n(0.6 - 0.2 * t)}"/>`,
        ),
      );
    }
    if (o.snow && t < 0.5) {
      const minY = Math.min(...clamp.map(([, y]) => y));
      const snowLine = minY + amp * rng.range(0.6, 0.9);
      const snowFill = svg.linear([
        [0, o.snow, 1],
        [0.5, o.snow, 0.7],
        [1, o.snow, 0],
      ]);
      before(() =>
        svg.add(
          `<g clip-path="url(#${clipId})"><rect x="0" y="${n(minY - 2)}" width="${w}" height="${n(snowLine - minY + 2)}" fill="${snowFill}" filter="${snowFilter(svg, rng)}"/></g>`,
        ),
      );
    }
    if (forested) {
      // a forest: staggered rows of conifers, each row lower and a little darker
      const size = Math.min(w, h * 1.5) * (0.008 + 0.02 * t);
      if (meadow) {
        before(() => svg.add(`<path d="${d}" fill="#ffffff" filter="${rockFilter(svg, rng, 0.1, 0.015)}" style="mix-blend-mode:soft-light" opacity="0.35"/>`));
      }
      const rows = meadow ? 2 : 10;
      for (let r = 0; r < rows; r += 1) {
        const shifted = clamp.map(([x, y]) => [x, y + r * size * 0.7] as [number, number]);
        const tone = mix(color, '#000000', 0.1 + r * 0.04);
        const trees = svg.capture(() => addPines(svg, rng, shifted, tone, size * (1 + r * 0.08), 0.15)).join('');
        before(() => svg.add(r === 0 ? trees : `<g clip-path="url(#${clipId})">${trees}</g>`));
      }
    }
    // haze between layers
    before(() =>
      svg.add(
        `<rect x="0" y="${n(base - amp)}" width="${w}" height="${n(h - base + amp)}" fill="${svg.linear([
          [0, hazeColor, 0],
          [1, hazeColor, 0.14 * (1 - t)],
        ])}"/>`,
      ),
    );
  }

  svg.def(`<g id="${landId}">${group.join('')}</g>`);
  svg.add(`<use xlink:href="#${landId}" href="#${landId}"/>`);

  if (o.lake) {
    addReflection(svg, rng, landId, waterY, 0.85, [o.lake.tint, 0.2, 0.7]);
    const ripples: string[] = [];
    for (let i = 0; i < 70; i += 1) {
      const y = waterY + (h - waterY) * rng.next() ** 1.6;
      const len = rng.range(0.03, 0.2) * w * (1 + (y - waterY) / (h - waterY));
      const x = rng.range(-0.1, 1) * w;
      ripples.push(`<rect x="${n(x)}" y="${n(y)}" width="${n(len)}" height="${n(rng.range(0.6, 2))}" fill="#ffffff" opacity="${n(rng.range(0.03, 0.12))}"/>`);
    }
    svg.add(`<g filter="${svg.blur(1.2, 0.6)}">${ripples.join('')}</g>`);
    if (o.sun && o.sun.y * h < waterY) {
      // glitter path under the sun
      const sx = o.sun.x * w;
      const glitter: string[] = [];
      for (let i = 0; i < 90; i += 1) {
        const ty = rng.next();
        const y = waterY + 3 + (h - waterY) * ty;
        const spread = w * (0.01 + 0.07 * ty);
        glitter.push(
          `<rect x="${n(sx + rng.range(-spread, spread))}" y="${n(y)}" width="${n(rng.range(6, 40) * (0.5 + ty))}" height="${n(rng.range(1, 3))}" fill="${o.sun.core}" opacity="${n(rng.range(0.25, 0.8))}"/>`,
        );
      }
      svg.add(`<g filter="${svg.blur(1.5, 0.8)}">${glitter.join('')}</g>`);
    }
    if (o.moon) {
      const mx = o.moon.x * w;
      svg.add(
        `<rect x="${n(mx - w * 0.02)}" y="${n(waterY)}" width="${n(w * 0.04)}" height="${n(h - waterY)}" fill="#e8ecff" opacity="0.18" filter="${svg.blur(w * 0.01, 2)}"/>`,
      );
    }
    svg.add(`<rect x="0" y="${n(waterY - 1)}" width="${w}" height="2" fill="#ffffff" opacity="0.12"/>`);
  }
  if (o.wash) addWash(svg, o.wash, 0.25, rng.chance(0.5) ? 0.05 : 0.95, 0.1);
  addVignette(svg, 0.4);
  return svg;
}
