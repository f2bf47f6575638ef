/**
 * Generates the sample gallery shipped with the repository: every file under `albums/` and
 * `content/`.  Run with `npx tsx scripts/make-samples.ts`; `--out <dir>` writes the two trees
 * under `<dir>` instead of the repository (to compare a regeneration with the committed files).
 *
 * Everything is procedural (SVG scenes rendered by sharp, then film grain, EXIF and mozjpeg;
 * videos encoded by the bundled ffmpeg) and seeded per file, so running the script again
 * rewrites the same bytes.  The previous `albums/` and `content/` trees are removed first.
 *
 * Albums (see SPEC "Album metadata record" and CONTRACT §2):
 *   2024/travel/lisbon                 grid, photos + a Ken Burns video, cover set
 *   2024/nature/alps                   masonry, mixed aspect ratios (3:2, 2:3, 1:1, panorama)
 *   2023/people/portraits              single
 *   2022/collections/best-of           collection with children sunsets/ and city-lights/
 *   2023/events/wedding                password "open-sesame", child reception/ without password
 *   2023/events/garden-party           password "garden", allowAnonymous, token "share-garden-party-2023"
 *   2022/tests/edge-cases              hidden: EXIF orientations 1-8, truncated JPEG, non-ASCII
 *                                      file name, rotated MP4, tiny PNG without EXIF
 * plus content/home.json and content/assets/{hero,cards,landing}/.
 *
 * The script checks its own output and fails loudly: each orientation-N.jpg must auto-orient
 * back to the upright card, both videos are probed with ffprobe (codec, size, duration, and the
 * display-matrix rotation of rotated.mp4), and every album `thumbnail` must name a generated
 * photo.  It takes a few minutes (librsvg filters are slow at 1600 px).
 *
 * `npx tsx scripts/make-samples.ts --preview <scene> <out.jpg|out.png> [WxH] [seed]` renders one
 * scene without touching the tree, for tuning the look.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import ffprobeInstaller from '@ffprobe-installer/ffprobe';
import sharp, { type Exif, type OutputInfo, type Sharp } from 'sharp';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outIndex = process.argv.indexOf('--out');
const ROOT = outIndex > 0 && process.argv[outIndex + 1] ? path.resolve(process.argv[outIndex + 1]!) : REPO_ROOT;
const ALBUMS_DIR = path.join(ROOT, 'albums');
const CONTENT_DIR = path.join(ROOT, 'content');

// Same output whatever the machine: no cache reuse between files, one thread for libvips.
sharp.cache(false);
sharp.concurrency(1);

// ---------------------------------------------------------------------------------------------
// Seeded randomness
// ---------------------------------------------------------------------------------------------

/** FNV-1a: turns a file name into a seed, so each file's picture is independent of the others. */
function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (const ch of Buffer.from(text, 'utf8')) {
    h ^= ch;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

class Rng {
  private state: number;
  constructor(seed: number | string) {
    this.state = (typeof seed === 'string' ? hashSeed(seed) : seed) >>> 0;
  }
  /** mulberry32: uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }
  int(min: number, max: number): number {
    return Math.floor(this.range(min, max + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  /** Standard normal (Box-Muller). */
  gauss(): number {
    const u = Math.max(this.next(), 1e-12);
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}

// ---------------------------------------------------------------------------------------------
// Colour and SVG helpers
// ---------------------------------------------------------------------------------------------

type Rgb = [number, number, number];

function hexToRgb(hex: string): Rgb {
  const h = hex.replace('#', '');
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as Rgb;
}

function rgbToHex([r, g, b]: Rgb): string {
  const c = (v: number) => Math.max(0, Math.min(255, Math.round(v))).toString(16).padStart(2, '0');
  return `#${c(r)}${c(g)}${c(b)}`;
}

/** Linear mix of two hex colours, t = 0 gives a, t = 1 gives b. */
function mix(a: string, b: string, t: number): string {
  const ca = hexToRgb(a);
  const cb = hexToRgb(b);
  return rgbToHex([0, 1, 2].map((i) => ca[i]! + (cb[i]! - ca[i]!) * t) as Rgb);
}

/** Coordinates rounded to one decimal keep the SVG short. */
const n = (v: number) => (Math.round(v * 10) / 10).toString();

class Svg {
  private defs: string[] = [];
  private body: string[] = [];
  private ids = 0;
  constructor(
    readonly w: number,
    readonly h: number,
  ) {}

  id(prefix: string): string {
    this.ids += 1;
    return `${prefix}${this.ids}`;
  }
  def(markup: string): void {
    this.defs.push(markup);
  }
  add(markup: string): void {
    this.body.push(markup);
  }
  /** Runs fn and takes back the markup it added, e.g. to reuse it inside a <defs> group. */
  capture(fn: () => void): string[] {
    const mark = this.body.length;
    fn();
    return this.body.splice(mark);
  }

  /** Vertical (or any direction) linear gradient; returns its url(). */
  linear(stops: Array<[number, string, number?]>, x2 = 0, y2 = 1): string {
    const id = this.id('lg');
    const s = stops
      .map(([o, c, a]) => `<stop offset="${o}" stop-color="${c}" stop-opacity="${a ?? 1}"/>`)
      .join('');
    this.def(`<linearGradient id="${id}" x1="0" y1="0" x2="${x2}" y2="${y2}">${s}</linearGradient>`);
    return `url(#${id})`;
  }

  radial(stops: Array<[number, string, number?]>, cx = 0.5, cy = 0.5, r = 0.5): string {
    const id = this.id('rg');
    const s = stops
      .map(([o, c, a]) => `<stop offset="${o}" stop-color="${c}" stop-opacity="${a ?? 1}"/>`)
      .join('');
    this.def(`<radialGradient id="${id}" cx="${cx}" cy="${cy}" r="${r}">${s}</radialGradient>`);
    return `url(#${id})`;
  }

  /** Gaussian blur filter; sx/sy in pixels. */
  blur(sx: number, sy = sx): string {
    const id = this.id('bl');
    this.def(
      `<filter id="${id}" x="-50%" y="-50%" width="200%" height="200%" color-interpolation-filters="sRGB">` +
        `<feGaussianBlur stdDeviation="${n(sx)} ${n(sy)}"/></filter>`,
    );
    return `url(#${id})`;
  }

  clipRect(x: number, y: number, w: number, h: number): string {
    const id = this.id('cr');
    this.def(`<clipPath id="${id}"><rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}"/></clipPath>`);
    return `url(#${id})`;
  }

  rect(fill: string, extra = ''): void {
    this.add(`<rect x="0" y="0" width="${this.w}" height="${this.h}" fill="${fill}" ${extra}/>`);
  }

  toString(): string {
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ` +
      `width="${this.w}" height="${this.h}" viewBox="0 0 ${this.w} ${this.h}">` +
      `<defs>${this.defs.join('')}</defs>${this.body.join('')}</svg>`
    );
  }
}

/** 1-D midpoint displacement: a jagged ridge line of 2^levels + 1 points across the width. */
function ridgePoints(rng: Rng, w: number, baseY: number, amp: number, rough: number, levels = 7): Array<[number, number]> {
  const count = 2 ** levels;
  const ys = new Array<number>(count + 1).fill(0);
  ys[0] = baseY + rng.range(-amp, amp) * 0.5;
  ys[count] = baseY + rng.range(-amp, amp) * 0.5;
  let step = count;
  let scale = amp;
  while (step > 1) {
    const half = step / 2;
    for (let i = half; i < count; i += step) {
      ys[i] = (ys[i - half]! + ys[i + half]!) / 2 + rng.range(-scale, scale);
    }
    step = half;
    scale *= rough;
  }
  return ys.map((y, i) => [(i / count) * w, y]);
}

function areaPath(points: Array<[number, number]>, bottom: number): string {
  const first = points[0]!;
  const last = points[points.length - 1]!;
  return (
    `M${n(first[0])},${n(bottom)} ` +
    points.map(([x, y]) => `L${n(x)},${n(y)}`).join(' ') +
    ` L${n(last[0])},${n(bottom)} Z`
  );
}

/** Soft smooth hills through a few random points (quadratic midpoints). */
function hillPath(rng: Rng, w: number, baseY: number, amp: number, bottom: number, bumps: number): string {
  const pts: Array<[number, number]> = [];
  for (let i = 0; i <= bumps; i += 1) pts.push([(i / bumps) * w, baseY + rng.range(-amp, amp)]);
  let d = `M${n(-10)},${n(bottom)} L${n(-10)},${n(pts[0]![1])} `;
  for (let i = 0; i < pts.length - 1; i += 1) {
    const [x0, y0] = pts[i]!;
    const [x1, y1] = pts[i + 1]!;
    d += `Q${n(x0)},${n(y0)} ${n((x0 + x1) / 2)},${n((y0 + y1) / 2)} `;
  }
  d += `L${n(w + 10)},${n(pts[pts.length - 1]![1])} L${n(w + 10)},${n(bottom)} Z`;
  return d;
}

// ---------------------------------------------------------------------------------------------
// Scene pieces
// ---------------------------------------------------------------------------------------------

function addSky(svg: Svg, colors: string[], horizon: number): void {
  const stops: Array<[number, string]> = colors.map((c, i) => [(i / (colors.length - 1)) * horizon, c]);
  stops.push([1, colors[colors.length - 1]!]);
  svg.rect(svg.linear(stops));
}

function addSun(svg: Svg, x: number, y: number, r: number, core: string, glow: string, glowScale = 6): void {
  const g = svg.radial([
    [0, glow, 0.85],
    [0.25, glow, 0.35],
    [1, glow, 0],
  ]);
  svg.add(`<circle cx="${n(x)}" cy="${n(y)}" r="${n(r * glowScale)}" fill="${g}"/>`);
  svg.add(`<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="${core}" filter="${svg.blur(r * 0.08)}"/>`);
}

function addMoon(svg: Svg, x: number, y: number, r: number): void {
  const g = svg.radial([
    [0, '#dfe6ff', 0.35],
    [1, '#dfe6ff', 0],
  ]);
  svg.add(`<circle cx="${n(x)}" cy="${n(y)}" r="${n(r * 5)}" fill="${g}"/>`);
  svg.add(`<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="#f4f1e3"/>`);
  svg.add(`<circle cx="${n(x - r * 0.3)}" cy="${n(y - r * 0.2)}" r="${n(r * 0.22)}" fill="#d9d5c3" opacity="0.6"/>`);
  svg.add(`<circle cx="${n(x + r * 0.35)}" cy="${n(y + r * 0.3)}" r="${n(r * 0.15)}" fill="#d9d5c3" opacity="0.5"/>`);
}

function addStars(svg: Svg, rng: Rng, count: number, maxY: number): void {
  const parts: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const r = rng.chance(0.1) ? rng.range(1.2, 2) : rng.range(0.4, 1.1);
    parts.push(
      `<circle cx="${n(rng.range(0, svg.w))}" cy="${n(rng.range(0, maxY))}" r="${n(r)}" fill="#fffbea" opacity="${n(rng.range(0.3, 1))}"/>`,
    );
  }
  svg.add(`<g>${parts.join('')}</g>`);
}

function addVignette(svg: Svg, strength = 0.45): void {
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
function addWash(svg: Svg, color: string, opacity: number, cx: number, cy: number): void {
  svg.rect(svg.radial([[0, color, opacity], [1, color, 0]], cx, cy, 0.8));
}

function addBokeh(svg: Svg, rng: Rng, count: number, colors: string[], rMin: number, rMax: number, yMin = 0, yMax = 1): void {
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

// ---------------------------------------------------------------------------------------------
// Scenes
// ---------------------------------------------------------------------------------------------

interface MountainOptions {
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

function mountainScene(rng: Rng, w: number, h: number, o: MountainOptions): Svg {
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
        before(() =>
          svg.add(
            `<path d="${d}" fill="#ffffff" filter="${rockFilter(svg, rng, 0.1, 0.015)}" style="mix-blend-mode:soft-light" opacity="0.35"/>`,
          ),
        );
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
    const clip = svg.clipRect(0, waterY, w, h - waterY);
    svg.add(
      `<g clip-path="${clip}"><g filter="${waterFilter(svg, rng)}" opacity="0.85">` +
        `<use xlink:href="#${landId}" href="#${landId}" transform="matrix(1 0 0 -1 0 ${n(2 * waterY)})"/></g></g>`,
    );
    svg.add(
      `<rect x="0" y="${n(waterY)}" width="${w}" height="${n(h - waterY)}" fill="${svg.linear([
        [0, o.lake.tint, 0.2],
        [1, o.lake.tint, 0.7],
      ])}"/>`,
    );
    const ripples: string[] = [];
    for (let i = 0; i < 70; i += 1) {
      const y = waterY + (h - waterY) * rng.next() ** 1.6;
      const len = rng.range(0.03, 0.2) * w * (1 + (y - waterY) / (h - waterY));
      const x = rng.range(-0.1, 1) * w;
      ripples.push(
        `<rect x="${n(x)}" y="${n(y)}" width="${n(len)}" height="${n(rng.range(0.6, 2))}" fill="#ffffff" opacity="${n(rng.range(0.03, 0.12))}"/>`,
      );
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

/** fractal-noise clouds: thresholded turbulence, fading out toward the horizon. */
function addCloudLayer(svg: Svg, rng: Rng, top: number, bottom: number, color: string, opacity: number): void {
  const id = svg.id('cl');
  const fx = rng.range(0.0018, 0.003) * (1600 / svg.w);
  svg.def(
    `<filter id="${id}" x="0" y="0" width="100%" height="100%" color-interpolation-filters="sRGB">` +
      `<feTurbulence type="fractalNoise" baseFrequency="${fx.toFixed(5)} ${(fx * 3.2).toFixed(5)}" numOctaves="5" seed="${rng.int(1, 9999)}" result="n"/>` +
      `<feColorMatrix in="n" type="matrix" values="0 0 0 0 1 0 0 0 0 1 0 0 0 0 1 2.8 0 0 0 -1.15" result="c"/>` +
      `<feComposite in="c" in2="SourceGraphic" operator="arithmetic" k1="1" k2="0" k3="0" k4="0"/>` +
      `</filter>`,
  );
  const fade = svg.linear([
    [0, color, 1],
    [0.7, color, 0.8],
    [1, color, 0],
  ]);
  svg.add(`<rect x="0" y="${n(top)}" width="${svg.w}" height="${n(bottom - top)}" fill="${fade}" filter="url(#${id})" opacity="${n(opacity)}"/>`);
}

/** Relief texture: lit turbulence, clipped to the element's own shape. fx/fy: noise frequencies. */
function rockFilter(svg: Svg, rng: Rng, fx: number, fy: number): string {
  const id = svg.id('rock');
  svg.def(
    `<filter id="${id}" x="0" y="0" width="100%" height="100%" color-interpolation-filters="sRGB">` +
      `<feTurbulence type="fractalNoise" baseFrequency="${fx.toFixed(5)} ${fy.toFixed(5)}" numOctaves="5" seed="${rng.int(1, 9999)}" result="n"/>` +
      `<feDiffuseLighting in="n" lighting-color="#ffffff" surfaceScale="5" diffuseConstant="1.1" result="l"><feDistantLight azimuth="200" elevation="38"/></feDiffuseLighting>` +
      `<feComposite in="l" in2="SourceAlpha" operator="in"/>` +
      `</filter>`,
  );
  return `url(#${id})`;
}

/** Softens a group, then gives it a leafy relief texture (multiply with lit noise). */
function foliageFilter(svg: Svg, rng: Rng, blur: number, freq: number): string {
  const id = svg.id('leaf');
  svg.def(
    `<filter id="${id}" x="-10%" y="-10%" width="120%" height="120%" color-interpolation-filters="sRGB">` +
      `<feGaussianBlur in="SourceGraphic" stdDeviation="${n(Math.max(0.3, blur))}" result="g"/>` +
      `<feTurbulence type="fractalNoise" baseFrequency="${freq.toFixed(4)}" numOctaves="3" seed="${rng.int(1, 9999)}" result="n"/>` +
      `<feDiffuseLighting in="n" lighting-color="#ffffff" surfaceScale="4" diffuseConstant="1.45" result="l"><feDistantLight azimuth="225" elevation="45"/></feDiffuseLighting>` +
      `<feBlend in="l" in2="g" mode="multiply" result="b"/>` +
      `<feComposite in="b" in2="g" operator="in"/>` +
      `</filter>`,
  );
  return `url(#${id})`;
}

/** Breaks a snow gradient into patches: alpha of the gradient times thresholded noise. */
function snowFilter(svg: Svg, rng: Rng): string {
  const id = svg.id('snow');
  // noise becomes white with alpha = noise; alpha out = 1.6 a(gradient) + a(noise) - 0.9, so the
  // summits stay white and the snow line breaks up into patches.
  svg.def(
    `<filter id="${id}" x="0" y="0" width="100%" height="100%" color-interpolation-filters="sRGB">` +
      `<feTurbulence type="fractalNoise" baseFrequency="0.018 0.007" numOctaves="4" seed="${rng.int(1, 9999)}" result="n"/>` +
      `<feColorMatrix in="n" type="matrix" values="0 0 0 0 1 0 0 0 0 1 0 0 0 0 1 1 0 0 0 0" result="a"/>` +
      `<feComposite in="SourceGraphic" in2="a" operator="arithmetic" k1="0" k2="1.6" k3="1" k4="-0.9"/>` +
      `</filter>`,
  );
  return `url(#${id})`;
}

/** Wobbles a mirrored picture like a breeze on the water, and softens it. */
function waterFilter(svg: Svg, rng: Rng): string {
  const id = svg.id('water');
  svg.def(
    `<filter id="${id}" x="0" y="0" width="100%" height="100%" color-interpolation-filters="sRGB">` +
      `<feTurbulence type="fractalNoise" baseFrequency="0.004 0.09" numOctaves="2" seed="${rng.int(1, 9999)}" result="n"/>` +
      `<feDisplacementMap in="SourceGraphic" in2="n" scale="${n(svg.w * 0.012)}" xChannelSelector="R" yChannelSelector="G" result="d"/>` +
      `<feGaussianBlur in="d" stdDeviation="1.5 3"/>` +
      `</filter>`,
  );
  return `url(#${id})`;
}

/**
 * Shadow sides of the peaks: every run of the ridge that falls to the right (away from a light
 * on the left) casts a band below itself that fades out downhill.
 */
function addFacets(svg: Svg, rng: Rng, pts: Array<[number, number]>, amp: number, shadow: string, clip: string, opacity: number): void {
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
function addPines(svg: Svg, rng: Rng, pts: Array<[number, number]>, color: string, size: number, jitter = 0): void {
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

interface CityOptions {
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

function cityScene(rng: Rng, w: number, h: number, o: CityOptions): Svg {
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
  grab(() => svg.add(`<path d="${areaPath(ridgePoints(rng, w, ground - h * 0.12, h * 0.05, 0.55), ground + 2)}" fill="${mix(o.building, o.sky[o.sky.length - 1]!, 0.55)}"/>`));
  const far = mix(o.building, o.sky[o.sky.length - 1]!, 0.35);
  grab(() => svg.add(`<g>${buildingRow(rng, w, ground, h * 0.08, h * 0.3, far, { ...o, lit: o.lit * 0.8 }, 0.6)}</g>`));
  grab(() => svg.add(`<rect x="0" y="${n(ground - h * 0.35)}" width="${w}" height="${n(h * 0.35)}" fill="${svg.linear([[0, o.sky[o.sky.length - 1]!, 0], [1, o.sky[o.sky.length - 1]!, 0.25]])}"/>`));
  grab(() => svg.add(`<g>${buildingRow(rng, w, ground, h * 0.05, h * 0.22, o.building, o, 0.9)}</g>`));
  if (o.bridge) grab(() => addBridge(svg, rng, ground, o.bridge!));
  svg.def(`<g id="${cityId}">${parts.join('')}</g>`);
  svg.add(`<use xlink:href="#${cityId}" href="#${cityId}"/>`);

  if (o.water) {
    const clip = svg.clipRect(0, ground, w, h - ground);
    svg.add(
      `<g clip-path="${clip}"><g filter="${waterFilter(svg, rng)}" opacity="0.75">` +
        `<use xlink:href="#${cityId}" href="#${cityId}" transform="matrix(1 0 0 -1 0 ${n(2 * ground)})"/></g></g>`,
    );
    svg.add(`<rect x="0" y="${n(ground)}" width="${w}" height="${n(h - ground)}" fill="${svg.linear([[0, '#02060f', 0.3], [1, '#02060f', 0.8]])}"/>`);
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
    svg.add(`<rect x="0" y="${n(ground)}" width="${w}" height="${n(h - ground)}" fill="${svg.linear([[0, mix(o.building, '#000000', 0.3)], [1, '#040508']])}"/>`);
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
      svg.add(`<circle cx="${n(x + 1.5)}" cy="${n(top)}" r="${n(w * 0.03)}" fill="${svg.radial([[0, '#ffcf80', 0.7], [1, '#ffcf80', 0]])}"/>`);
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

interface RooftopOptions {
  sky: string[];
  sun: { x: number; y: number; r: number; core: string; glow: string };
  facades: string[];
  roof: string;
  haze: string;
  river?: string;
}

/** Rows of pastel houses with terracotta roofs climbing a hill (Lisbon's Alfama at golden hour). */
function rooftopScene(rng: Rng, w: number, h: number, o: RooftopOptions): Svg {
  const svg = new Svg(w, h);
  addSky(svg, o.sky, 0.55);
  addSun(svg, o.sun.x * w, o.sun.y * h, o.sun.r * w, o.sun.core, o.sun.glow);
  addCloudLayer(svg, rng, 0, h * 0.42, mix(o.sun.glow, '#ffffff', 0.5), 0.7);
  if (o.river) {
    svg.add(`<path d="${hillPath(rng, w, h * 0.42, h * 0.02, h * 0.5, 4)}" fill="${mix(o.haze, '#5a4a6a', 0.5)}"/>`);
    svg.add(`<rect x="0" y="${n(h * 0.46)}" width="${w}" height="${n(h * 0.2)}" fill="${o.river}"/>`);
    svg.add(`<rect x="${n(o.sun.x * w - w * 0.1)}" y="${n(h * 0.46)}" width="${n(w * 0.2)}" height="${n(h * 0.12)}" fill="${o.sun.core}" opacity="0.35" filter="${svg.blur(w * 0.03, 4)}"/>`);
  }
  const rows = 6;
  for (let r = 0; r < rows; r += 1) {
    const t = r / (rows - 1);
    const base = h * (0.5 + 0.5 * t ** 0.9) + h * 0.04;
    const scale = (0.45 + 1.3 * t) * (Math.min(w, h) / 750);
    const parts: string[] = [];
    let x = -rng.range(0, 60) * scale;
    while (x < w) {
      const bw = rng.range(60, 130) * scale;
      const bh = rng.range(70, 140) * scale;
      const top = base - bh + rng.range(-12, 12) * scale;
      const facade = rng.pick(o.facades);
      const lit = svg.linear(
        [
          [0, mix(facade, '#fff4dc', 0.25)],
          [1, mix(facade, '#3a2a30', 0.25)],
        ],
        1,
        0.3,
      );
      parts.push(`<rect x="${n(x)}" y="${n(top)}" width="${n(bw + 1)}" height="${n(h - top)}" fill="${lit}"/>`);
      // roof
      const over = 6 * scale;
      const rh = rng.range(14, 26) * scale;
      const roof = mix(o.roof, rng.chance(0.5) ? '#000000' : '#ffb080', rng.range(0, 0.25));
      parts.push(
        `<path d="M${n(x - over)},${n(top)} L${n(x + bw * 0.2)},${n(top - rh)} L${n(x + bw * 0.8)},${n(top - rh)} L${n(x + bw + over)},${n(top)} Z" fill="${roof}"/>`,
      );
      parts.push(`<rect x="${n(x - over)}" y="${n(top - 1)}" width="${n(bw + 2 * over)}" height="${n(3 * scale)}" fill="${mix(roof, '#000000', 0.35)}"/>`);
      // windows
      const cols = Math.max(1, Math.floor(bw / (32 * scale)));
      const floors = Math.max(1, Math.floor((h - top) / (40 * scale)));
      for (let f = 0; f < Math.min(floors, 6); f += 1) {
        for (let c = 0; c < cols; c += 1) {
          const wx = x + (bw / cols) * (c + 0.5) - 6 * scale;
          const wy = top + 14 * scale + f * 40 * scale;
          parts.push(`<rect x="${n(wx - 2 * scale)}" y="${n(wy - 2 * scale)}" width="${n(16 * scale)}" height="${n(24 * scale)}" fill="#f4efe6" opacity="0.85"/>`);
          parts.push(
            `<rect x="${n(wx)}" y="${n(wy)}" width="${n(12 * scale)}" height="${n(20 * scale)}" fill="${rng.chance(0.12) ? '#ffd27a' : mix('#2a2326', facade, 0.15)}"/>`,
          );
        }
      }
      x += bw + rng.range(-2, 4) * scale;
    }
    svg.add(`<g>${parts.join('')}</g>`);
    // aerial perspective
    svg.add(`<rect x="0" y="${n(base - 200 * scale)}" width="${w}" height="${n(h)}" fill="${o.haze}" opacity="${n(0.28 * (1 - t))}"/>`);
  }
  // weathered plaster
  svg.add(`<rect x="0" y="${n(h * 0.4)}" width="${w}" height="${n(h * 0.6)}" fill="#ffffff" filter="${rockFilter(svg, rng, 0.03, 0.03)}" style="mix-blend-mode:soft-light" opacity="0.35"/>`);
  addWash(svg, o.sun.glow, 0.3, o.sun.x, o.sun.y);
  addVignette(svg, 0.4);
  return svg;
}

interface PortraitOptions {
  backdrop: [string, string];
  skin: string;
  rim: string;
  hair: string;
  clothes: string;
  bokeh?: string[];
  offset: number;
  tilt: number;
}

function silhouette(cx: number, headY: number, s: number, tilt: number, bottom: number): { head: string; body: string; hair: string; fringe: string } {
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

function portraitScene(rng: Rng, w: number, h: number, o: PortraitOptions): Svg {
  const svg = new Svg(w, h);
  svg.rect(svg.radial([[0, o.backdrop[0]], [1, o.backdrop[1]]], 0.5 + o.offset * 0.5, 0.35, 0.8));
  svg.rect('#ffffff', `filter="${rockFilter(svg, rng, 0.004, 0.004)}" style="mix-blend-mode:soft-light" opacity="0.35"`);
  if (o.bokeh) addBokeh(svg, rng, 22, o.bokeh, w * 0.03, w * 0.1, 0, 0.7);
  const s = w * rng.range(0.13, 0.19);
  const cx = w * (0.5 + o.offset);
  const headY = h * rng.range(0.32, 0.42);
  const sil = silhouette(cx, headY, s, o.tilt, h + 10);
  // rim light: a blurred, light copy slightly offset toward the light
  svg.add(
    `<g fill="${o.rim}" filter="${svg.blur(s * 0.05)}" transform="translate(${n(-s * 0.045)},${n(-s * 0.025)})">${sil.hair}${sil.head}${sil.fringe}${sil.body}</g>`,
  );
  const skin = svg.linear(
    [
      [0, mix(o.skin, '#000000', 0.05)],
      [0.5, mix(o.skin, '#000000', 0.4)],
      [1, mix(o.skin, '#000000', 0.72)],
    ],
    1,
    0.15,
  );
  const cloth = svg.linear(
    [
      [0, mix(o.clothes, '#ffffff', 0.12)],
      [1, mix(o.clothes, '#000000', 0.5)],
    ],
    1,
    0.3,
  );
  svg.add(`<g filter="${svg.blur(s * 0.03)}">`);
  svg.add(`<g fill="${o.hair}">${sil.hair}</g>`);
  svg.add(`<g fill="#ffffff" style="mix-blend-mode:soft-light" opacity="0.45" filter="${rockFilter(svg, rng, 0.05, 0.012)}">${sil.hair}</g>`);
  svg.add(`<g fill="${cloth}">${sil.body}</g>`);
  svg.add(`<g fill="${skin}">${sil.head}</g>`);
  svg.add(`<g fill="${o.hair}">${sil.fringe}</g>`);
  svg.add(`</g>`);
  // a soft key light from the left
  addWash(svg, mix(o.rim, '#ffffff', 0.3), 0.2, 0.1, 0.3);
  addVignette(svg, 0.55);
  return svg;
}

interface GardenOptions {
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
    parts.push(`<circle cx="${n(bx)}" cy="${n(by)}" r="${n(r)}" fill="${light > 0 ? mix(color, '#e0f0a0', Math.min(0.35, light * 0.6)) : mix(color, '#000000', Math.min(0.5, -light * 0.8))}"/>`);
  }
}

function addStringLights(svg: Svg, rng: Rng, color: string): void {
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
    const glow = svg.radial([[0, color, 0.7], [0.3, color, 0.25], [1, color, 0]]);
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

function gardenScene(rng: Rng, w: number, h: number, o: GardenOptions): Svg {
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
  svg.add(`<path d="${hillPath(rng, w, h * 0.78, h * 0.03, h + 10, 3)}" fill="${svg.linear([[0, mix(o.hills[1], '#c8e07a', 0.25)], [1, mix(o.hills[1], '#0c1a08', 0.5)]])}"/>`);
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
    for (const [dx, dy, tilt] of [
      [-0.8, 0, 8],
      [0.85, -0.25, -6],
    ] as const) {
      const sil = silhouette(w * 0.5 + dx * s, h * 0.7 + dy * s, s, tilt, h + 10);
      svg.add(`<g fill="${fill}" filter="${svg.blur(1.5)}">${sil.hair}${sil.head}${sil.body}</g>`);
    }
  }
  if (o.lights) addStringLights(svg, rng, o.lights);
  if (o.bokeh) addBokeh(svg, rng, 18, o.bokeh, w * 0.02, w * 0.06, 0, 0.45);
  addWash(svg, o.sun?.glow ?? '#ffd79a', 0.2, 0.9, 0.1);
  addVignette(svg, 0.45);
  return svg;
}

interface BokehOptions {
  background: [string, string];
  colors: string[];
  count: number;
  couple?: string;
  lights?: string;
  table?: string;
}

function bokehScene(rng: Rng, w: number, h: number, o: BokehOptions): Svg {
  const svg = new Svg(w, h);
  svg.rect(svg.linear([[0, o.background[0]], [1, o.background[1]]]));
  addBokeh(svg, rng, Math.floor(o.count * 0.5), o.colors, w * 0.04, w * 0.11, 0, 1);
  addBokeh(svg, rng, o.count, o.colors, w * 0.012, w * 0.04, 0, 0.8);
  if (o.lights) addStringLights(svg, rng, o.lights);
  if (o.table) {
    // a long banquet table with candles, seen from its end, guests seated on both sides
    const guests: string[] = [];
    for (const t of [0.06, 0.2, 0.38, 0.62]) {
      for (const side of [-1, 1]) {
        const edgeX = w * 0.5 + side * w * (0.2 + 0.6 * t);
        const edgeY = h * (0.62 + 0.38 * t);
        const gs = w * (0.014 + 0.05 * t) * rng.range(0.9, 1.1);
        const sil = silhouette(edgeX + side * gs * 1.6, edgeY - gs * 2.2, gs, rng.range(-12, 12), edgeY + gs * 0.5);
        const tone = mix('#0c0806', o.background[0], 0.3 * (1 - t));
        guests.push(`<g fill="${tone}" filter="${svg.blur(1 + gs * 0.04)}">${sil.hair}${sil.head}${sil.fringe}${sil.body}</g>`);
      }
    }
    svg.add(guests.join(''));
    svg.add(`<path d="M${n(w * 0.3)},${n(h * 0.62)} L${n(w * 0.7)},${n(h * 0.62)} L${n(w * 1.1)},${n(h)} L${n(-w * 0.1)},${n(h)} Z" fill="${svg.linear([[0, mix(o.table, '#000000', 0.2)], [1, o.table]])}"/>`);
    const candles: string[] = [];
    for (let i = 0; i < 7; i += 1) {
      const t = i / 6;
      const y = h * (0.64 + 0.3 * t ** 1.4);
      const spread = w * (0.16 + 0.4 * t ** 1.4);
      for (const side of [-1, 1]) {
        const x = w * 0.5 + side * spread * 0.45;
        const s = 0.4 + 1.4 * t;
        candles.push(`<ellipse cx="${n(x)}" cy="${n(y)}" rx="${n(90 * s)}" ry="${n(30 * s)}" fill="${svg.radial([[0, '#ffb85a', 0.45], [1, '#ffb85a', 0]])}"/>`);
        candles.push(`<circle cx="${n(x)}" cy="${n(y - 22 * s)}" r="${n(40 * s)}" fill="${svg.radial([[0, '#ffcf7a', 0.6], [1, '#ffcf7a', 0]])}"/>`);
        candles.push(`<rect x="${n(x - 3 * s)}" y="${n(y - 20 * s)}" width="${n(6 * s)}" height="${n(20 * s)}" fill="#f6eedf"/>`);
        candles.push(`<ellipse cx="${n(x)}" cy="${n(y - 25 * s)}" rx="${n(2.5 * s)}" ry="${n(5 * s)}" fill="#fff3c8"/>`);
      }
    }
    svg.add(candles.join(''));
  }
  if (o.couple) {
    const s = w * 0.09;
    for (const [dx, dy, tilt] of [
      [-0.75, 0.1, 10],
      [0.8, -0.3, -7],
    ] as const) {
      const sil = silhouette(w * 0.5 + dx * s, h * 0.55 + dy * s, s, tilt, h + 10);
      svg.add(`<g fill="${o.couple}" filter="${svg.blur(2)}">${sil.hair}${sil.head}${sil.body}</g>`);
    }
  }
  addVignette(svg, 0.5);
  return svg;
}

// ---------------------------------------------------------------------------------------------
// Rendering: SVG -> grain -> EXIF -> mozjpeg
// ---------------------------------------------------------------------------------------------

/** Monochrome film grain (with a hint of chroma) at half resolution, scaled up to w x h. */
async function grain(rng: Rng, w: number, h: number, strength: number): Promise<Buffer> {
  const gw = Math.ceil(w / 2);
  const gh = Math.ceil(h / 2);
  const raw = Buffer.alloc(gw * gh * 3);
  for (let i = 0; i < gw * gh; i += 1) {
    const g = rng.gauss() * strength;
    const c = rng.gauss() * strength * 0.25;
    raw[i * 3] = Math.max(0, Math.min(255, Math.round(128 + g + c)));
    raw[i * 3 + 1] = Math.max(0, Math.min(255, Math.round(128 + g)));
    raw[i * 3 + 2] = Math.max(0, Math.min(255, Math.round(128 + g - c)));
  }
  return sharp(raw, { raw: { width: gw, height: gh, channels: 3 } })
    .resize(w, h, { kernel: 'cubic' })
    .raw()
    .toBuffer();
}

async function renderSvg(svg: Svg, seed: string, grainStrength: number): Promise<{ data: Buffer; info: OutputInfo }> {
  const rng = new Rng(`${seed}#grain`);
  const noise = await grain(rng, svg.w, svg.h, grainStrength);
  const flat = await sharp(Buffer.from(svg.toString()), { density: 72 })
    .resize(svg.w, svg.h)
    .removeAlpha()
    .raw()
    .toBuffer();
  return sharp(flat, { raw: { width: svg.w, height: svg.h, channels: 3 } })
    .composite([{ input: noise, raw: { width: svg.w, height: svg.h, channels: 3 }, blend: 'soft-light' }])
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
}

interface Camera {
  make: string;
  model: string;
  lens: string;
  software: string;
  /** phones have one aperture */
  fixedAperture?: number;
}

interface Shot {
  fNumber: number;
  exposure: string;
  iso: number;
  focal: number;
  date: string;
}

function exifOf(cam: Camera, shot: Shot): Exif {
  return {
    IFD0: {
      Make: cam.make,
      Model: cam.model,
      Software: cam.software,
      DateTime: shot.date,
    },
    IFD2: {
      LensModel: cam.lens,
      FNumber: cam.fixedAperture ? `${Math.round(cam.fixedAperture * 100)}/100` : `${Math.round(shot.fNumber * 10)}/10`,
      ExposureTime: shot.exposure,
      ISOSpeedRatings: String(shot.iso),
      FocalLength: `${Math.round(shot.focal * 1000)}/1000`,
      DateTimeOriginal: shot.date,
      DateTimeDigitized: shot.date,
    },
  };
}

async function encodeJpeg(
  pixels: { data: Buffer; info: OutputInfo },
  opts: { quality: number; exif?: Exif; orientation?: number },
): Promise<Buffer> {
  let img = sharp(pixels.data, {
    raw: { width: pixels.info.width, height: pixels.info.height, channels: pixels.info.channels as 3 },
  }).sharpen({ sigma: 0.6, m1: 0.5, m2: 1.5 });
  if (opts.exif) img = img.withExif(opts.exif);
  if (opts.orientation) img = img.withMetadata({ orientation: opts.orientation, density: 300 });
  return img.jpeg({ quality: opts.quality, mozjpeg: true, chromaSubsampling: '4:2:0' }).toBuffer();
}

// ---------------------------------------------------------------------------------------------
// Palettes and scene presets
// ---------------------------------------------------------------------------------------------

type SceneFactory = (rng: Rng, w: number, h: number) => Svg;

const SUNSET_SKY = ['#2a1d4f', '#7b3a72', '#e0664a', '#ffb765', '#ffd89a'];
const ALPINE_SKY = ['#2f62ad', '#6ea2dc', '#bcd9f2', '#e6f1f8'];
const DAWN_SKY = ['#3e4d86', '#9b7fae', '#f0a8a0', '#fbd3aa'];
const BLUE_HOUR = ['#0b1430', '#1f3566', '#4d6ea8', '#90a9cf'];
const NIGHT_SKY = ['#03050d', '#0a1429', '#1b2c52', '#3a4d7a'];
const WARM_WINDOWS = ['#ffd27a', '#ffe3a8', '#ffb85c', '#fff1cf', '#9fd0ff'];

const scenes = {
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

type SceneName = keyof typeof scenes;

// ---------------------------------------------------------------------------------------------
// Cameras
// ---------------------------------------------------------------------------------------------

const CAMERAS = {
  fuji: { make: 'FUJIFILM', model: 'X-T5', lens: 'XF16-55mmF2.8 R LM WR', software: 'Digital Camera X-T5 Ver2.10' },
  sony: { make: 'SONY', model: 'ILCE-7RM4', lens: 'FE 24-70mm F2.8 GM II', software: 'ILCE-7RM4 v2.00' },
  canon: { make: 'Canon', model: 'Canon EOS R5', lens: 'RF85mm F1.2 L USM', software: 'Firmware Version 1.8.1' },
  canon50: { make: 'Canon', model: 'Canon EOS R6m2', lens: 'RF50mm F1.2 L USM', software: 'Firmware Version 1.2.0' },
  nikon: { make: 'NIKON CORPORATION', model: 'NIKON Z 6_2', lens: 'NIKKOR Z 24-120mm f/4 S', software: 'Ver.01.50' },
  iphone: { make: 'Apple', model: 'iPhone 15 Pro', lens: 'iPhone 15 Pro back triple camera 6.765mm f/1.78', software: '17.4.1', fixedAperture: 1.78 },
  ricoh: { make: 'RICOH IMAGING COMPANY, LTD.', model: 'RICOH GR III', lens: 'GR LENS 18.3mm F2.8', software: 'GR III Ver 2.10' },
  olympus: { make: 'OM Digital Solutions', model: 'OM-1', lens: 'M.Zuiko Digital ED 12-40mm F2.8 PRO II', software: 'Version 1.6' },
} satisfies Record<string, Camera>;

type Light = 'day' | 'golden' | 'night' | 'indoor';

const EXPOSURES: Record<Light, { f: number[]; t: string[]; iso: number[] }> = {
  day: { f: [5.6, 8, 11], t: ['1/250', '1/320', '1/500', '1/640'], iso: [64, 100, 160] },
  golden: { f: [2.8, 4, 5.6, 8], t: ['1/60', '1/125', '1/200'], iso: [100, 200, 400] },
  night: { f: [1.8, 2.8, 4], t: ['1/15', '1/30', '1/8', '2/1'], iso: [800, 1600, 3200, 6400] },
  indoor: { f: [1.2, 1.4, 2, 2.8], t: ['1/60', '1/100', '1/160'], iso: [400, 800, 1600, 3200] },
};

function shotFor(rng: Rng, light: Light, focals: number[], date: Date): Shot {
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

// ---------------------------------------------------------------------------------------------
// Albums
// ---------------------------------------------------------------------------------------------

interface AlbumMeta {
  title: string;
  password?: string;
  thumbnail?: string;
  order?: number;
  hidden?: boolean;
  isCollection?: boolean;
  allowAnonymous?: boolean;
  style?: 'grid' | 'masonry' | 'single';
  token?: string;
}

interface PhotoSpec {
  name: string;
  scene: SceneName;
  w: number;
  h: number;
  light: Light;
}

interface AlbumSpec {
  path: string;
  meta: AlbumMeta;
  camera: Camera;
  focals: number[];
  start: string; // ISO date-time of the first shot (UTC, written as local camera time)
  photos: PhotoSpec[];
}

const L = { w: 1600, h: 1067 }; // 3:2 landscape
const P = { w: 1067, h: 1600 }; // 2:3 portrait
const SQ = { w: 1400, h: 1400 };
const PANO = { w: 1800, h: 600 };
const PHONE = { w: 1600, h: 1200 }; // 4:3

/** Camera-style file names; the frame counter has gaps, like a card where some shots were deleted. */
function photos(prefix: string, first: number, list: Array<[SceneName, { w: number; h: number }, Light]>): PhotoSpec[] {
  let frame = first;
  return list.map(([scene, size, light], i) => {
    const name = `${prefix}${String(frame).padStart(4, '0')}.jpg`;
    frame += 1 + (hashSeed(`${prefix}${i}`) % 4);
    return { name, scene, ...size, light };
  });
}

const ALBUMS: AlbumSpec[] = [
  {
    path: '2024/travel/lisbon',
    meta: { title: 'Lisbon in October', style: 'grid', order: 1, thumbnail: 'DSCF4127.jpg' },
    camera: CAMERAS.fuji,
    focals: [16, 23, 35, 55],
    start: '2024-10-12T17:42:10Z',
    photos: [
      { name: 'DSCF4102.jpg', scene: 'lisbonRooftops', ...L, light: 'golden' },
      { name: 'DSCF4108.jpg', scene: 'lisbonRooftops', ...P, light: 'golden' },
      { name: 'DSCF4115.jpg', scene: 'lisbonRooftops', ...L, light: 'golden' },
      { name: 'DSCF4127.jpg', scene: 'lisbonBridge', ...L, light: 'golden' },
      { name: 'DSCF4131.jpg', scene: 'lisbonBridge', ...L, light: 'golden' },
      { name: 'DSCF4140.jpg', scene: 'lisbonDusk', ...L, light: 'night' },
      { name: 'DSCF4146.jpg', scene: 'lisbonDusk', ...P, light: 'night' },
      { name: 'DSCF4152.jpg', scene: 'cityTrails', ...L, light: 'night' },
    ],
  },
  {
    path: '2024/nature/alps',
    meta: { title: 'Alps, Summer Hike', style: 'masonry', order: 2, thumbnail: 'DSC01851.jpg' },
    camera: CAMERAS.sony,
    focals: [24, 35, 50, 70],
    start: '2024-07-21T05:48:00Z',
    photos: photos('DSC0', 1842, [
      ['alpsDawn', L, 'golden'],
      ['alpsDawn', PANO, 'golden'],
      ['alpsDay', P, 'day'],
      ['alpsLake', SQ, 'day'],
      ['alpsDay', L, 'day'],
      ['alpsLake', PANO, 'day'],
      ['alpsBlueHour', P, 'night'],
      ['alpsBlueHour', L, 'night'],
    ]),
  },
  {
    path: '2023/people/portraits',
    meta: { title: 'Studio Portraits', style: 'single', order: 1 },
    camera: CAMERAS.canon,
    focals: [85],
    start: '2023-03-04T14:05:00Z',
    photos: photos('IMG_', 2207, [
      ['portraitWarm', P, 'indoor'],
      ['portraitTeal', P, 'indoor'],
      ['portraitBokeh', P, 'golden'],
      ['portraitMono', P, 'indoor'],
    ]),
  },
  {
    path: '2022/collections/best-of',
    meta: { title: 'Best of 2022', isCollection: true, order: 1, thumbnail: 'sunsets/DSC_0412.jpg' },
    camera: CAMERAS.nikon,
    focals: [24],
    start: '2022-12-30T12:00:00Z',
    photos: [],
  },
  {
    path: '2022/collections/best-of/sunsets',
    meta: { title: 'Sunsets', style: 'grid', order: 1 },
    camera: CAMERAS.nikon,
    focals: [24, 50, 85, 120],
    start: '2022-08-14T20:31:00Z',
    photos: [
      { name: 'DSC_0398.jpg', scene: 'sunsetSea', ...L, light: 'golden' },
      { name: 'DSC_0412.jpg', scene: 'sunsetSea', ...L, light: 'golden' },
      { name: 'DSC_0431.jpg', scene: 'sunsetSea', ...P, light: 'golden' },
    ],
  },
  {
    path: '2022/collections/best-of/city-lights',
    meta: { title: 'City Lights', style: 'masonry', order: 2 },
    camera: CAMERAS.iphone,
    focals: [6.765],
    start: '2022-11-26T22:14:00Z',
    photos: photos('IMG_', 4410, [
      ['cityNight', PHONE, 'night'],
      ['cityTrails', { w: 1200, h: 1600 }, 'night'],
      ['cityNight', PHONE, 'night'],
    ]),
  },
  {
    path: '2023/events/wedding',
    meta: { title: 'Anna & Tom: Wedding', password: 'open-sesame', style: 'grid', order: 1 },
    camera: CAMERAS.canon50,
    focals: [50],
    start: '2023-06-17T15:20:00Z',
    photos: photos('IMG_', 8120, [
      ['weddingGarden', L, 'golden'],
      ['weddingBokeh', P, 'indoor'],
      ['weddingGarden', L, 'golden'],
    ]),
  },
  {
    path: '2023/events/wedding/reception',
    meta: { title: 'Reception', style: 'grid', order: 1 },
    camera: CAMERAS.canon50,
    focals: [50],
    start: '2023-06-17T20:45:00Z',
    photos: photos('IMG_', 8233, [
      ['receptionTable', L, 'indoor'],
      ['weddingBokeh', L, 'indoor'],
      ['receptionTable', P, 'indoor'],
    ]),
  },
  {
    path: '2023/events/garden-party',
    meta: {
      title: 'Garden Party',
      password: 'garden',
      allowAnonymous: true,
      token: 'share-garden-party-2023',
      style: 'masonry',
      order: 2,
    },
    camera: CAMERAS.ricoh,
    focals: [18.3],
    start: '2023-08-05T16:10:00Z',
    photos: photos('R00', 10231, [
      ['gardenDay', L, 'day'],
      ['gardenDay', P, 'day'],
      ['gardenDusk', L, 'golden'],
    ]),
  },
];

const EDGE_CASES = '2022/tests/edge-cases';

// ---------------------------------------------------------------------------------------------
// Small utilities
// ---------------------------------------------------------------------------------------------

async function writeFileIn(dir: string, name: string, data: Buffer | string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, name);
  await writeFile(file, data);
  return file;
}

function albumJson(meta: AlbumMeta): string {
  // fixed key order, for stable diffs
  const keys: Array<keyof AlbumMeta> = ['title', 'password', 'style', 'order', 'thumbnail', 'hidden', 'isCollection', 'allowAnonymous', 'token'];
  const out: Record<string, unknown> = {};
  for (const k of keys) if (meta[k] !== undefined) out[k] = meta[k];
  return `${JSON.stringify(out, null, 2)}\n`;
}

function run(cmd: string, args: string[], input?: AsyncIterable<Buffer> | Iterable<Buffer>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: [input ? 'pipe' : 'ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(cmd)} exited ${code}\n${stderr.slice(-2000)}`))));
    if (input && child.stdin) {
      const stdin = child.stdin;
      (async () => {
        for await (const chunk of input) {
          if (!stdin.write(chunk)) await new Promise((r) => stdin.once('drain', r));
        }
        stdin.end();
      })().catch(reject);
    }
  });
}

function capture(cmd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${path.basename(cmd)} exited ${code}\n${err.slice(-2000)}`))));
  });
}

interface ProbedStream {
  codec_name?: string;
  width?: number;
  height?: number;
  duration?: string;
  tags?: Record<string, string>;
  side_data_list?: Array<{ side_data_type?: string; rotation?: number }>;
}

/** Checks a generated video with ffprobe: codec, size, duration and (optionally) rotation. */
async function probeVideo(file: string, expect: { w: number; h: number; seconds: number; rotation?: number }): Promise<void> {
  const json = await capture(ffprobeInstaller.path, ['-v', 'error', '-select_streams', 'v:0', '-show_streams', '-of', 'json', file]);
  const stream = (JSON.parse(json) as { streams: ProbedStream[] }).streams[0];
  const problems: string[] = [];
  if (!stream) problems.push('no video stream');
  else {
    if (stream.codec_name !== 'h264') problems.push(`codec ${stream.codec_name}`);
    if (stream.width !== expect.w || stream.height !== expect.h) problems.push(`size ${stream.width}x${stream.height}`);
    if (Math.abs(Number(stream.duration) - expect.seconds) > 0.1) problems.push(`duration ${stream.duration}`);
    if (expect.rotation !== undefined) {
      const fromSideData = stream.side_data_list?.find((d) => d.rotation !== undefined)?.rotation;
      const fromTag = stream.tags?.rotate !== undefined ? -Number(stream.tags.rotate) : undefined;
      const rotation = fromSideData ?? fromTag;
      if (rotation !== expect.rotation) problems.push(`rotation ${rotation}, expected ${expect.rotation}`);
    }
  }
  if (problems.length) throw new Error(`${file}: ${problems.join(', ')}`);
}

/** H.264 MP4 from raw RGB frames, deterministic (single thread, bit-exact muxing, no dates). */
async function encodeVideo(
  out: string,
  frames: AsyncIterable<Buffer>,
  size: { w: number; h: number },
  fps: number,
  extra: { crf: number; rotate?: number },
): Promise<void> {
  const args = [
    '-y',
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    '-s',
    `${size.w}x${size.h}`,
    '-r',
    String(fps),
    '-i',
    '-',
    '-an',
    '-c:v',
    'libx264',
    '-preset',
    'slow',
    '-profile:v',
    'main',
    '-crf',
    String(extra.crf),
    '-pix_fmt',
    'yuv420p',
    '-threads',
    '1',
    '-x264-params',
    'threads=1:lookahead-threads=1',
    '-movflags',
    '+faststart',
    '-map_metadata',
    '-1',
    '-fflags',
    '+bitexact',
    '-flags:v',
    '+bitexact',
  ];
  await mkdir(path.dirname(out), { recursive: true });
  if (extra.rotate === undefined) {
    await run(ffmpegInstaller.path, [...args, '-f', 'mp4', out], frames);
    return;
  }
  // `rotate` is meant as in phone videos: the legacy tag "rotate=90", i.e. turn the stored frames
  // 90° clockwise to display them (ffprobe >= 5 reports it as displaymatrix rotation -90).
  // This ffmpeg build (4.1) predates -display_rotation and drops the `rotate` tag when it
  // encodes; a stream-copy remux does write the tag into the track's display matrix, but with
  // the opposite sign (its copy path stores the matrix untransposed), so it is handed 360 - r.
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'make-samples-'));
  try {
    const plain = path.join(tmp, 'plain.mp4');
    await run(ffmpegInstaller.path, [...args, '-f', 'mp4', plain], frames);
    await run(ffmpegInstaller.path, [
      '-y',
      '-hide_banner',
      '-loglevel',
      'error',
      '-i',
      plain,
      '-map',
      '0:v:0',
      '-c',
      'copy',
      '-map_metadata',
      '-1',
      '-metadata:s:v:0',
      `rotate=${(360 - extra.rotate) % 360}`,
      '-movflags',
      '+faststart',
      '-fflags',
      '+bitexact',
      '-f',
      'mp4',
      out,
    ]);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Generation
// ---------------------------------------------------------------------------------------------

interface RenderedPhoto {
  jpeg: Buffer;
  pixels: { data: Buffer; info: OutputInfo };
}

async function renderPhoto(seed: string, scene: SceneName, w: number, h: number, quality: number, grainStrength: number, exif?: Exif): Promise<RenderedPhoto> {
  const rng = new Rng(seed);
  const svg = scenes[scene](rng, w, h);
  const pixels = await renderSvg(svg, seed, grainStrength);
  const jpeg = await encodeJpeg(pixels, { quality, exif });
  return { jpeg, pixels };
}

const PHOTO_QUALITY = 78;
const PHOTO_GRAIN = 9;

async function makeAlbum(spec: AlbumSpec): Promise<void> {
  const dir = path.join(ALBUMS_DIR, spec.path);
  await writeFileIn(dir, 'album.json', albumJson(spec.meta));
  const rng = new Rng(`${spec.path}#exif`);
  let t = Date.parse(spec.start);
  for (const photo of spec.photos) {
    const shot = shotFor(rng, photo.light, spec.focals, new Date(t));
    t += rng.int(20, 900) * 1000;
    const { jpeg } = await renderPhoto(`${spec.path}/${photo.name}`, photo.scene, photo.w, photo.h, PHOTO_QUALITY, PHOTO_GRAIN, exifOf(spec.camera, shot));
    await writeFileIn(dir, photo.name, jpeg);
    log(path.join(spec.path, photo.name), jpeg.length);
  }
}

/** Slow Ken Burns pan-and-zoom over one generated landscape. */
async function makeKenBurns(out: string, seed: string, scene: SceneName): Promise<void> {
  const srcW = 1600;
  const srcH = 900;
  const rng = new Rng(seed);
  const pixels = await renderSvg(scenes[scene](rng, srcW, srcH), seed, 6);
  const src = await sharp(pixels.data, { raw: { width: srcW, height: srcH, channels: 3 } }).png().toBuffer();
  const fps = 25;
  const seconds = 4;
  const outW = 640;
  const outH = 360;
  async function* frames(): AsyncIterable<Buffer> {
    const count = fps * seconds;
    for (let i = 0; i < count; i += 1) {
      const t = i / (count - 1);
      const ease = t * t * (3 - 2 * t);
      const zoom = 1.0 + 0.18 * ease; // 100% -> 118%
      const cw = srcW / zoom;
      const ch = srcH / zoom;
      const left = (srcW - cw) * (0.15 + 0.7 * ease);
      const top = (srcH - ch) * (0.6 - 0.3 * ease);
      // sub-pixel crop through an affine resample keeps the motion smooth
      const scale = outW / cw;
      // (two pipelines: within one, sharp would extract before the affine transform)
      const moved = await sharp(src)
        .affine([scale, 0, 0, scale], { idx: -left * scale, idy: -top * scale, interpolator: 'bicubic' })
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const frame = await sharp(moved.data, { raw: { width: moved.info.width, height: moved.info.height, channels: 3 } })
        .extract({ left: 0, top: 0, width: outW, height: outH })
        .raw()
        .toBuffer();
      if (frame.length !== outW * outH * 3) throw new Error(`Ken Burns frame ${i} has ${frame.length} bytes`);
      yield frame;
    }
  }
  await encodeVideo(out, frames(), { w: outW, h: outH }, fps, { crf: 24 });
  await probeVideo(out, { w: outW, h: outH, seconds });
}

// --- edge cases ---------------------------------------------------------------------------

/** Seven-segment digit as rectangles (no fonts needed, so output is the same everywhere). */
function digit(d: number, x: number, y: number, s: number, fill: string): string {
  const seg: Record<string, [number, number, number, number]> = {
    a: [0.15, 0, 0.7, 0.12],
    b: [0.82, 0.08, 0.18, 0.42],
    c: [0.82, 0.5, 0.18, 0.42],
    d: [0.15, 0.88, 0.7, 0.12],
    e: [0, 0.5, 0.18, 0.42],
    f: [0, 0.08, 0.18, 0.42],
    g: [0.15, 0.44, 0.7, 0.12],
  };
  const on = ['abcdef', 'bc', 'abged', 'abgcd', 'fgbc', 'afgcd', 'afgedc', 'abc', 'abcdefg', 'abfgcd'][d]!;
  return [...on]
    .map((k) => {
      const [sx, sy, sw, sh] = seg[k]!;
      return `<rect x="${n(x + sx * s * 0.6)}" y="${n(y + sy * s)}" width="${n(sw * s * 0.6)}" height="${n(sh * s)}" fill="${fill}"/>`;
    })
    .join('');
}

/** Upright test card: sky on top, ground below, an up arrow, the letter F and the number. */
function orientationCard(w: number, h: number, num: number): Svg {
  const svg = new Svg(w, h);
  svg.rect(svg.linear([[0, '#5b8fd8'], [0.62, '#cfe3f7'], [0.62, '#6a8f3c'], [1, '#3f5e22']]));
  addSun(svg, w * 0.85, h * 0.16, h * 0.07, '#fff7d6', '#ffe9a0', 3);
  const s = Math.min(h * 0.5, w * 0.32);
  const fx = w * 0.1;
  const fy = h * 0.18;
  // the letter F: stem, top bar, middle bar
  svg.add(
    `<g fill="#1d2433"><rect x="${n(fx)}" y="${n(fy)}" width="${n(s * 0.16)}" height="${n(s)}"/>` +
      `<rect x="${n(fx)}" y="${n(fy)}" width="${n(s * 0.6)}" height="${n(s * 0.16)}"/>` +
      `<rect x="${n(fx)}" y="${n(fy + s * 0.42)}" width="${n(s * 0.45)}" height="${n(s * 0.14)}"/></g>`,
  );
  svg.add(digit(num, w * 0.36, fy, s, '#b3261e'));
  // up arrow
  const ax = w * 0.68;
  const aw = w * 0.14;
  svg.add(
    `<path d="M${n(ax)},${n(fy)} L${n(ax + aw / 2)},${n(fy + s * 0.35)} L${n(ax + aw * 0.18)},${n(fy + s * 0.35)} ` +
      `L${n(ax + aw * 0.18)},${n(fy + s)} L${n(ax - aw * 0.18)},${n(fy + s)} L${n(ax - aw * 0.18)},${n(fy + s * 0.35)} ` +
      `L${n(ax - aw / 2)},${n(fy + s * 0.35)} Z" fill="#1d2433"/>`,
  );
  // a marker in the top-left corner
  svg.add(`<rect x="0" y="0" width="${n(h * 0.08)}" height="${n(h * 0.08)}" fill="#b3261e"/>`);
  return svg;
}

/**
 * Stored pixels for EXIF orientation N: the inverse of the transform a viewer applies, so that
 * auto-orienting gives back the upright card (like sharp's test/fixtures/Landscape_N.jpg).
 */
async function storedForOrientation(upright: Buffer, w: number, h: number, orientation: number): Promise<{ data: Buffer; info: OutputInfo }> {
  const step = async (input: Buffer, info: { width: number; height: number }, op: (s: Sharp) => Sharp) =>
    op(sharp(input, { raw: { width: info.width, height: info.height, channels: 3 } })).raw().toBuffer({ resolveWithObject: true });
  const start = { data: upright, info: { width: w, height: h, channels: 3 } as OutputInfo };
  switch (orientation) {
    case 1:
      return start;
    case 2:
      return step(upright, start.info, (s) => s.flop());
    case 3:
      return step(upright, start.info, (s) => s.rotate(180));
    case 4:
      return step(upright, start.info, (s) => s.flip());
    case 5: {
      // transpose = rotate 90 clockwise, then mirror left-right
      const r = await step(upright, start.info, (s) => s.rotate(90));
      return step(r.data, r.info, (s) => s.flop());
    }
    case 6:
      return step(upright, start.info, (s) => s.rotate(270));
    case 7: {
      // transverse = rotate 90 clockwise, then mirror top-bottom
      const r = await step(upright, start.info, (s) => s.rotate(90));
      return step(r.data, r.info, (s) => s.flip());
    }
    case 8:
      return step(upright, start.info, (s) => s.rotate(90));
    default:
      throw new Error(`bad orientation ${orientation}`);
  }
}

async function assertSameImage(a: Buffer, b: Buffer, label: string): Promise<void> {
  const [ra, rb] = await Promise.all(
    [a, b].map((x) => sharp(x).autoOrient().resize(60, 40, { fit: 'fill' }).removeAlpha().raw().toBuffer({ resolveWithObject: true })),
  );
  let diff = 0;
  for (let i = 0; i < ra!.data.length; i += 1) diff += Math.abs(ra!.data[i]! - rb!.data[i]!);
  const mean = diff / ra!.data.length;
  if (mean > 12) throw new Error(`${label}: auto-oriented image differs from the upright card (mean diff ${mean.toFixed(1)})`);
}

async function makeEdgeCases(): Promise<void> {
  const dir = path.join(ALBUMS_DIR, EDGE_CASES);
  await writeFileIn(
    dir,
    'album.json',
    albumJson({ title: 'Edge cases (test fixtures)', style: 'grid', hidden: true, token: 'edge-cases-fixtures-2022' }),
  );
  const cam = CAMERAS.olympus;
  const rng = new Rng(`${EDGE_CASES}#exif`);
  let t = Date.parse('2022-05-02T10:00:00Z');
  const nextShot = () => {
    const s = shotFor(rng, 'day', [12, 25, 40], new Date(t));
    t += 60_000;
    return s;
  };

  // EXIF orientations 1..8
  const w = 600;
  const h = 400;
  for (let o = 1; o <= 8; o += 1) {
    const card = orientationCard(w, h, o);
    const upright = await sharp(Buffer.from(card.toString())).removeAlpha().raw().toBuffer();
    const stored = await storedForOrientation(upright, w, h, o);
    const jpeg = await encodeJpeg(stored, { quality: 85, exif: exifOf(cam, nextShot()), orientation: o });
    const uprightJpeg = await sharp(upright, { raw: { width: w, height: h, channels: 3 } }).jpeg().toBuffer();
    await assertSameImage(jpeg, uprightJpeg, `orientation-${o}.jpg`);
    const meta = await sharp(jpeg).metadata();
    if (meta.orientation !== o) throw new Error(`orientation-${o}.jpg: EXIF orientation is ${meta.orientation}`);
    await writeFileIn(dir, `orientation-${o}.jpg`, jpeg);
    log(`${EDGE_CASES}/orientation-${o}.jpg`, jpeg.length);
  }

  // a valid JPEG cut in half
  const whole = await renderPhoto(`${EDGE_CASES}/truncated.jpg`, 'alpsDay', 1200, 800, PHOTO_QUALITY, PHOTO_GRAIN, exifOf(cam, nextShot()));
  const truncated = whole.jpeg.subarray(0, Math.floor(whole.jpeg.length / 2));
  await writeFileIn(dir, 'truncated.jpg', truncated);
  log(`${EDGE_CASES}/truncated.jpg`, truncated.length);

  // non-ASCII file name (NFC, as typed on most systems)
  const unicodeName = 'Café São Paulo – 日本.jpg'.normalize('NFC');
  const cafe = await renderPhoto(`${EDGE_CASES}/cafe`, 'cityNight', 1200, 800, PHOTO_QUALITY, PHOTO_GRAIN, exifOf(cam, nextShot()));
  await writeFileIn(dir, unicodeName, cafe.jpeg);
  log(`${EDGE_CASES}/${unicodeName}`, cafe.jpeg.length);

  // a tiny PNG without any metadata
  const tiny = await sharp(Buffer.from(orientationCard(48, 32, 0).toString()))
    .png({ compressionLevel: 9, palette: true, colours: 16 })
    .toBuffer();
  await writeFileIn(dir, 'tiny.png', tiny);
  log(`${EDGE_CASES}/tiny.png`, tiny.length);

  // an MP4 whose frames are stored sideways, with a 90° display rotation
  await makeRotatedVideo(path.join(dir, 'rotated.mp4'));
}

/**
 * The upright picture is portrait 360x640; frames are stored rotated 90° counter-clockwise
 * (640x360) and tagged rotate=90, so a player that honours the display matrix shows it upright.
 */
async function makeRotatedVideo(out: string): Promise<void> {
  const uw = 360;
  const uh = 640;
  const fps = 25;
  const count = fps * 3;
  const base = orientationCard(uw, uh, 9).toString();
  async function* frames(): AsyncIterable<Buffer> {
    for (let i = 0; i < count; i += 1) {
      // a ball that climbs from bottom to top, so "up" is also visible in motion
      const y = uh * (0.92 - 0.84 * (i / (count - 1)));
      const svg = base.replace('</svg>', `<circle cx="${uw * 0.88}" cy="${n(y)}" r="18" fill="#ffcc00" stroke="#1d2433" stroke-width="4"/></svg>`);
      yield await sharp(Buffer.from(svg)).rotate(270).removeAlpha().raw().toBuffer();
    }
  }
  await encodeVideo(out, frames(), { w: uh, h: uw }, fps, { crf: 30, rotate: 90 });
  // ffprobe's side data gives the counter-clockwise angle: -90 for a "rotate=90" phone video
  await probeVideo(out, { w: uh, h: uw, seconds: count / fps, rotation: -90 });
  log(path.relative(ALBUMS_DIR, out), (await stat(out)).size);
}

// --- home content ----------------------------------------------------------------------------

interface HomeCard {
  id: string;
  title: string;
  description: string;
  image: string;
  link: string;
}

async function makeContent(): Promise<void> {
  const assets = path.join(CONTENT_DIR, 'assets');
  const image = async (rel: string, scene: SceneName, w: number, h: number, quality: number) => {
    const { jpeg } = await renderPhoto(`content/${rel}`, scene, w, h, quality, 6);
    await writeFileIn(path.join(assets, path.dirname(rel)), path.basename(rel), jpeg);
    log(`content/assets/${rel}`, jpeg.length);
  };
  await image('hero/hero-alps.jpg', 'alpsDawn', 1920, 800, 74);
  await image('hero/hero-lisbon.jpg', 'lisbonBridge', 1920, 800, 74);
  await image('landing/landing.jpg', 'sunsetSea', 1920, 1080, 72);
  await image('cards/lisbon.jpg', 'lisbonRooftops', 800, 534, 80);
  await image('cards/alps.jpg', 'alpsDay', 800, 534, 80);
  await image('cards/best-of.jpg', 'cityNight', 800, 534, 80);

  const cards: HomeCard[] = [
    {
      id: 'lisbon',
      title: 'Lisbon in October',
      description: 'Terracotta roofs, the red bridge at sunset and a slow evening over the Tagus.',
      image: 'lisbon.jpg',
      link: '/photos/2024/travel/lisbon',
    },
    {
      id: 'alps',
      title: 'Alps, Summer Hike',
      description: 'Dawn on the ridges, glacier lakes and a blue-hour moonrise, in every aspect ratio.',
      image: 'alps.jpg',
      link: '/photos/2024/nature/alps',
    },
    {
      id: 'best-of',
      title: 'Best of 2022',
      description: 'A collection: the year\u2019s favourite sunsets and city lights, gathered in one place.',
      image: 'best-of.jpg',
      link: '/photos/2022/collections/best-of',
    },
  ];
  const home = {
    intro: {
      title: 'Welcome to the family album',
      body:
        'Photos and videos from our trips, hikes and get-togethers, sorted by year. ' +
        'Some albums are private: if someone sent you a password or a share link, it opens the album for you on this device.',
    },
    cards,
  };
  await writeFileIn(CONTENT_DIR, 'home.json', `${JSON.stringify(home, null, 2)}\n`);
  log('content/home.json', Buffer.byteLength(JSON.stringify(home, null, 2)) + 1);
}

// ---------------------------------------------------------------------------------------------

let total = 0;
function log(file: string, bytes: number): void {
  total += bytes;
  process.stdout.write(`${(bytes / 1024).toFixed(0).padStart(6)} KB  ${file}\n`);
}

/** Every `thumbnail` must name a photo of the album or of one of its descendants. */
function checkThumbnails(): void {
  for (const album of ALBUMS) {
    const thumb = album.meta.thumbnail;
    if (!thumb) continue;
    const owner = path.posix.join(album.path, path.posix.dirname(thumb));
    const spec = ALBUMS.find((a) => a.path === owner);
    if (!spec?.photos.some((p) => p.name === path.posix.basename(thumb))) {
      throw new Error(`${album.path}: thumbnail ${thumb} is not one of the generated photos`);
    }
  }
}

async function main(): Promise<void> {
  checkThumbnails();
  for (const dir of [ALBUMS_DIR, CONTENT_DIR]) {
    if (path.dirname(dir) !== ROOT) throw new Error(`refusing to clear ${dir}`);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
  }
  for (const album of ALBUMS) await makeAlbum(album);
  await makeKenBurns(path.join(ALBUMS_DIR, '2024/travel/lisbon', 'tagus-evening.mp4'), '2024/travel/lisbon/tagus-evening.mp4', 'lisbonBridge');
  log('2024/travel/lisbon/tagus-evening.mp4', (await stat(path.join(ALBUMS_DIR, '2024/travel/lisbon/tagus-evening.mp4'))).size);
  await makeEdgeCases();
  await makeContent();
  process.stdout.write(`total ${(total / 1024 / 1024).toFixed(2)} MB\n`);
}

/** `--preview <scene> <out.jpg> [WxH] [seed]`: renders one scene, for tuning the look. */
async function preview(args: string[]): Promise<void> {
  const [scene, out, size = '1600x1067', seed = 'preview'] = args;
  if (!scene || !out || !(scene in scenes)) throw new Error(`usage: --preview <${Object.keys(scenes).join('|')}> <out.jpg> [WxH] [seed]`);
  const [w, h] = size.split('x').map(Number) as [number, number];
  const { jpeg } = await renderPhoto(seed, scene as SceneName, w, h, PHOTO_QUALITY, PHOTO_GRAIN);
  await writeFile(out, out.endsWith('.png') ? await sharp(jpeg).png().toBuffer() : jpeg);
  process.stdout.write(`${out}: ${(jpeg.length / 1024).toFixed(0)} KB\n`);
}

if (process.argv[2] === '--preview') await preview(process.argv.slice(3));
else await main();
