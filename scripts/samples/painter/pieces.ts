/** Pieces several scenes draw: sky, sun, moon, stars, clouds, light effects, trees and people. */
import { mix } from './colour.js';
import { cloudFilter, waterFilter } from './filters.js';
import type { Rng } from './rng.js';
import { n, type Svg } from './svg.js';

export function addSky(svg: Svg, colors: string[], horizon: number): void {
  const stops: Array<[number, string]> = colors.map((c, i) => [(i / (colors.length - 1)) * horizon, c]);
  stops.push([1, colors[colors.length - 1]!]);
  svg.rect(svg.linear(stops));
}

export function addSun(svg: Svg, x: number, y: number, r: number, core: string, glow: string, glowScale = 6): void {
  const g = svg.radial([
    [0, glow, 0.85],
    [0.25, glow, 0.35],
    [1, glow, 0],
  ]);
  svg.add(`<circle cx="${n(x)}" cy="${n(y)}" r="${n(r * glowScale)}" fill="${g}"/>`);
  svg.add(`<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="${core}" filter="${svg.blur(r * 0.08)}"/>`);
}

export function addMoon(svg: Svg, x: number, y: number, r: number): void {
  const g = svg.radial([
    [0, '#dfe6ff', 0.35],
    [1, '#dfe6ff', 0],
  ]);
  svg.add(`<circle cx="${n(x)}" cy="${n(y)}" r="${n(r * 5)}" fill="${g}"/>`);
  svg.add(`<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="#f4f1e3"/>`);
  svg.add(`<circle cx="${n(x - r * 0.3)}" cy="${n(y - r * 0.2)}" r="${n(r * 0.22)}" fill="#d9d5c3" opacity="0.6"/>`);
  svg.add(`<circle cx="${n(x + r * 0.35)}" cy="${n(y + r * 0.3)}" r="${n(r * 0.15)}" fill="#d9d5c3" opacity="0.5"/>`);
}

export function addStars(svg: Svg, rng: Rng, count: number, maxY: number): void {
  const parts: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const r = rng.chance(0.1) ? rng.range(1.2, 2) : rng.range(0.4, 1.1);
    parts.push(`<circle cx="${n(rng.range(0, svg.w))}" cy="${n(rng.range(0, maxY))}" r="${n(r)}" fill="#fffbea" opacity="${n(rng.range(0.3, 1))}"/>`);
  }
  svg.add(`<g>${parts.join('')}</g>`);
}

export function addVignette(svg: Svg, strength = 0.45): void {
  svg.rect(
    svg.radial(
      [
        [0, '#000000', 0],
        [0.6, '#000000', 0],
        [1, '#000000', strength],
      ],
      0.5,
      0.5,
      0.75,
    ),
  );
}

/** A light leak / warm wash from one corner, for a film look. */
export function addWash(svg: Svg, color: string, opacity: number, cx: number, cy: number): void {
  svg.rect(
    svg.radial(
      [
        [0, color, opacity],
        [1, color, 0],
      ],
      cx,
      cy,
      0.8,
    ),
  );
}

export function addBokeh(svg: Svg, rng: Rng, count: number, colors: string[], rMin: number, rMax: number, yMin = 0, yMax = 1): void {
  const soft = svg.blur(Math.max(1.5, rMin * 0.12));
  const parts: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const r = rng.range(rMin, rMax);
    const c = rng.pick(colors);
    const x = rng.range(-0.05, 1.05) * svg.w;
    const y = rng.range(yMin, yMax) * svg.h;
    const o = rng.range(0.12, 0.45);
    parts.push(
      `<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="${c}" fill-opacity="${n(o)}" stroke="${c}" stroke-opacity="${n(Math.min(1, o * 1.8))}" stroke-width="${n(Math.max(1, r * 0.06))}"/>`,
    );
  }
  svg.add(`<g filter="${soft}">${parts.join('')}</g>`);
}

/** fractal-noise clouds: thresholded turbulence, fading out toward the horizon. */
export function addCloudLayer(svg: Svg, rng: Rng, top: number, bottom: number, color: string, opacity: number): void {
  const fx = rng.range(0.0018, 0.003) * (1600 / svg.w);
  const clouds = cloudFilter(svg, rng, fx);
  const fade = svg.linear([
    [0, color, 1],
    [0.7, color, 0.8],
    [1, color, 0],
  ]);
  svg.add(`<rect x="0" y="${n(top)}" width="${svg.w}" height="${n(bottom - top)}" fill="${fade}" filter="${clouds}" opacity="${n(opacity)}"/>`);
}

/**
 * Shadow sides of the peaks: every run of the ridge that falls to the right (away from a light
 * on the left) casts a band below itself that fades out downhill.
 */
export function addFacets(svg: Svg, rng: Rng, pts: Array<[number, number]>, amp: number, shadow: string, clip: string, opacity: number): void {
  const fade = svg.linear([
    [0, shadow, 1],
    [0.6, shadow, 0.6],
    [1, shadow, 0],
  ]);
  const parts: string[] = [];
  let i = 0;
  while (i < pts.length - 1) {
    if (pts[i + 1]![1] <= pts[i]![1]) {
      i += 1;
      continue;
    }
    let j = i + 1;
    while (j < pts.length - 1 && pts[j + 1]![1] > pts[j]![1] - 0.5) j += 1;
    const run = pts.slice(i, j + 1);
    const fall = run[run.length - 1]![1] - run[0]![1];
    if (fall > amp * 0.08) {
      const depth = amp * rng.range(0.6, 1.3) + fall * 0.5;
      const lower = run.map(([x, y], k) => [x + depth * 0.25 * (k / run.length), y + depth] as [number, number]).reverse();
      const d = `M${run.map(([x, y]) => `${n(x)},${n(y)}`).join(' L')} L${lower.map(([x, y]) => `${n(x)},${n(y)}`).join(' L')} Z`;
      parts.push(`<path d="${d}" fill="${fade}"/>`);
    }
    i = j;
  }
  svg.add(`<g clip-path="${clip}"><g opacity="${n(opacity)}" filter="${svg.blur(1.5)}">${parts.join('')}</g></g>`);
}

/** Conifers standing along a ridge line. */
export function addPines(svg: Svg, rng: Rng, pts: Array<[number, number]>, color: string, size: number, jitter = 0): void {
  const parts: string[] = [];
  const w = svg.w;
  let x = rng.range(0, size * 0.3);
  while (x < w) {
    const idx = Math.min(pts.length - 1, Math.round((x / w) * (pts.length - 1)));
    const y = pts[idx]![1] + size * 0.3;
    const th = size * rng.range(0.6, 1.5);
    const tw = th * rng.range(0.28, 0.4);
    const fill = jitter > 0 ? ` fill="${mix(color, rng.chance(0.6) ? '#000000' : '#c8d4b0', rng.range(0, jitter))}"` : '';
    parts.push(
      `<path${fill} d="M${n(x)},${n(y - th)} L${n(x + tw * 0.5)},${n(y - th * 0.45)} L${n(x + tw * 0.3)},${n(y - th * 0.45)} L${n(x + tw * 0.6)},${n(y)} L${n(x - tw * 0.6)},${n(y)} L${n(x - tw * 0.3)},${n(y - th * 0.45)} L${n(x - tw * 0.5)},${n(y - th * 0.45)} Z"/>`,
    );
    x += tw * rng.range(0.35, 0.9);
  }
  svg.add(`<g fill="${color}">${parts.join('')}</g>`);
}

export function silhouette(cx: number, headY: number, s: number, tilt: number, bottom: number): { head: string; body: string; hair: string; fringe: string } {
  const rot = `transform="rotate(${n(tilt)} ${n(cx)} ${n(headY)})"`;
  const head = `<ellipse cx="${n(cx)}" cy="${n(headY)}" rx="${n(s * 0.72)}" ry="${n(s * 0.98)}" ${rot}/>`;
  // hair volume behind the head, and a fringe over the forehead
  const hair = `<ellipse cx="${n(cx + s * 0.04)}" cy="${n(headY - s * 0.22)}" rx="${n(s * 0.86)}" ry="${n(s * 0.95)}" ${rot}/>`;
  const fringe =
    `<path d="M${n(cx - s * 0.78)},${n(headY - s * 0.05)} C${n(cx - s * 0.9)},${n(headY - s * 1.25)} ${n(cx + s * 0.95)},${n(headY - s * 1.35)} ` +
    `${n(cx + s * 0.8)},${n(headY - s * 0.1)} C${n(cx + s * 0.55)},${n(headY - s * 0.62)} ${n(cx - s * 0.1)},${n(headY - s * 0.72)} ${n(cx - s * 0.78)},${n(headY - s * 0.05)} Z" ${rot}/>`;
  const neckTop = headY + s * 0.6;
  const shoulderY = headY + s * 1.65;
  const foot = Math.max(bottom, shoulderY + s * 1.5);
  const side = (k: number) => [
    `C${n(cx + k * s * 0.9)},${n(shoulderY - s * 0.2)} ${n(cx + k * s * 1.5)},${n(shoulderY - s * 0.05)} ${n(cx + k * s * 1.85)},${n(shoulderY + s * 0.1)}`,
    `C${n(cx + k * s * 2.2)},${n(shoulderY + s * 0.25)} ${n(cx + k * s * 2.3)},${n(shoulderY + s * 0.6)} ${n(cx + k * s * 2.32)},${n(shoulderY + s * 0.9)}`,
    `L${n(cx + k * s * 2.45)},${n(foot)}`,
  ];
  const left = side(-1);
  const body =
    `<path d="M${n(cx - s * 0.3)},${n(neckTop)} L${n(cx - s * 0.34)},${n(shoulderY - s * 0.3)} ${left.join(' ')} ` +
    `L${n(cx + s * 2.45)},${n(foot)} L${n(cx + s * 2.32)},${n(shoulderY + s * 0.9)} ` +
    `C${n(cx + s * 2.3)},${n(shoulderY + s * 0.6)} ${n(cx + s * 2.2)},${n(shoulderY + s * 0.25)} ${n(cx + s * 1.85)},${n(shoulderY + s * 0.1)} ` +
    `C${n(cx + s * 1.5)},${n(shoulderY - s * 0.05)} ${n(cx + s * 0.9)},${n(shoulderY - s * 0.2)} ${n(cx + s * 0.34)},${n(shoulderY - s * 0.3)} ` +
    `L${n(cx + s * 0.3)},${n(neckTop)} Z"/>`;
  return { head, body, hair, fringe };
}

export function addStringLights(svg: Svg, rng: Rng, color: string): void {
  const { w, h } = svg;
  const strands = 2;
  for (let s = 0; s < strands; s += 1) {
    const y0 = h * rng.range(0.08, 0.2);
    const y1 = h * rng.range(0.08, 0.2);
    const sag = h * rng.range(0.1, 0.2);
    const x0 = -w * 0.05;
    const x1 = w * 1.05;
    const cx = (x0 + x1) / 2;
    const cy = (y0 + y1) / 2 + sag * 2;
    svg.add(`<path d="M${n(x0)},${n(y0)} Q${n(cx)},${n(cy)} ${n(x1)},${n(y1)}" fill="none" stroke="#1b1a16" stroke-width="2" opacity="0.8"/>`);
    const glow = svg.radial([
      [0, color, 0.7],
      [0.3, color, 0.25],
      [1, color, 0],
    ]);
    const parts: string[] = [];
    const count = 18;
    for (let i = 1; i < count; i += 1) {
      const t = i / count;
      const x = (1 - t) ** 2 * x0 + 2 * t * (1 - t) * cx + t ** 2 * x1;
      const y = (1 - t) ** 2 * y0 + 2 * t * (1 - t) * cy + t ** 2 * y1 + 8;
      parts.push(`<circle cx="${n(x)}" cy="${n(y)}" r="${n(w * 0.022)}" fill="${glow}"/>`);
      parts.push(`<circle cx="${n(x)}" cy="${n(y)}" r="${n(w * 0.0035)}" fill="#fffbe8"/>`);
    }
    svg.add(parts.join(''));
  }
}

/**
 * The group `groupId` mirrored in the water below `waterY`, wobbled by the water filter and
 * seen at `opacity`, under a tint of `color` whose opacity goes from `top` to `bottom`.
 */
export function addReflection(svg: Svg, rng: Rng, groupId: string, waterY: number, opacity: number, [color, top, bottom]: [string, number, number]): void {
  const { w, h } = svg;
  const clip = svg.clipRect(0, waterY, w, h - waterY);
  svg.add(
    `<g clip-path="${clip}"><g filter="${waterFilter(svg, rng)}" opacity="${opacity}">` +
      `<use xlink:href="#${groupId}" href="#${groupId}" transform="matrix(1 0 0 -1 0 ${n(2 * waterY)})"/></g></g>`,
  );
  svg.add(
    `<rect x="0" y="${n(waterY)}" width="${w}" height="${n(h - waterY)}" fill="${svg.linear([
      [0, color, top],
      [1, color, bottom],
    ])}"/>`,
  );
}

/** Two figures of size s around (cx, cy), each [dx, dy] sizes off centre and tilted, in one soft flat colour. */
export function addCouple(
  svg: Svg,
  cx: number,
  cy: number,
  s: number,
  fill: string,
  blur: number,
  poses: ReadonlyArray<readonly [number, number, number]>,
): void {
  for (const [dx, dy, tilt] of poses) {
    const sil = silhouette(cx + dx * s, cy + dy * s, s, tilt, svg.h + 10);
    svg.add(`<g fill="${fill}" filter="${svg.blur(blur)}">${sil.hair}${sil.head}${sil.body}</g>`);
  }
}
